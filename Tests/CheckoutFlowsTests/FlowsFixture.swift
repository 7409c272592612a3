import CheckoutCore
import Foundation
import Synchronization
import XCTest

@testable import CheckoutFlows

/// Shared values and recording delegates of the flow tests. Everything lives in this namespace so
/// that other files of the test target can declare their own helpers without name clashes.
enum FlowsFixture {
    // MARK: Values

    static func money(_ text: String, _ currency: CurrencyCode = .usd) -> Money {
        try! Money(text, currency: currency)
    }

    static func country(_ code: String) -> CountryCode {
        try! CountryCode(code)
    }

    /// A complete US contact with every personal field set.
    static func jane(zip: String = "95014-2083", state: String? = "CA") -> Contact {
        Contact(
            name: "Jane Appleseed",
            emailAddress: "jane@example.com",
            phoneNumber: "+1 408 555 0100",
            postalAddress: Address(
                line1: "1 Infinite Loop",
                line2: "Suite 7",
                city: "Cupertino",
                state: state,
                postalCode: zip,
                country: country("US")
            )
        )
    }

    /// Another complete US contact.
    static func john() -> Contact {
        Contact(
            name: "John Doe",
            emailAddress: "john@example.org",
            phoneNumber: "+1 212 555 0199",
            postalAddress: Address(
                line1: "350 Fifth Avenue",
                city: "New York",
                state: "NY",
                postalCode: "10118",
                country: country("US")
            )
        )
    }

    /// A complete British contact.
    static func sherlock(postalCode: String = "NW1 6XE") -> Contact {
        Contact(
            name: "Sherlock Holmes",
            emailAddress: "sherlock@example.co.uk",
            phoneNumber: "+44 20 7224 3688",
            postalAddress: Address(
                line1: "221B Baker Street",
                city: "London",
                postalCode: postalCode,
                country: country("GB")
            )
        )
    }

    static let standard = ShippingMethod(identifier: "standard", label: "Standard", amount: money("0.00"))
    static let express = ShippingMethod(identifier: "express", label: "Express", amount: money("9.99"))
    static let overnight = ShippingMethod(identifier: "overnight", label: "Overnight", amount: money("24.00"))

    /// A subtotal and a grand total of `total`.
    static func summary(_ total: String, _ currency: CurrencyCode = .usd) -> [SummaryItem] {
        [
            SummaryItem(label: "Subtotal", amount: money(total, currency)),
            SummaryItem(label: "Example Shop", amount: money(total, currency)),
        ]
    }

    static func request(
        requiredShipping: Set<ContactField> = [.postalAddress],
        requiredBilling: Set<ContactField> = [],
        methods: [ShippingMethod] = [standard, express],
        total: String = "20.00",
        couponCode: String? = nil,
        supportsCouponCode: Bool = false
    ) -> PaymentRequest {
        PaymentRequest(
            merchantIdentifier: "merchant.com.example",
            countryCode: "US",
            currencyCode: "USD",
            requiredBillingContactFields: requiredBilling,
            requiredShippingContactFields: requiredShipping,
            shippingMethods: methods,
            summaryItems: summary(total),
            couponCode: couponCode,
            supportsCouponCode: supportsCouponCode
        )
    }

    static let visa = PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit)
    static let amex = PaymentMethod(displayName: "Amex 0005", network: .amex, type: .credit)

    static func token(_ method: PaymentMethod = visa, _ transaction: String = "txn-1") -> PaymentToken {
        PaymentToken(paymentMethod: method, transactionIdentifier: transaction, paymentData: "tok_visa")
    }

    static func options(
        _ clock: ManualClock,
        timeout: Duration? = .seconds(30),
        strict: Bool = false,
        sink: ViolationSink? = nil
    ) -> FlowOptions {
        var onViolation: (@Sendable (Violation) -> Void)?
        if let sink {
            onViolation = { sink.append($0) }
        }
        return FlowOptions(callbackTimeout: timeout, clock: clock, isStrict: strict, onViolation: onViolation)
    }

    // MARK: Effects

    static func refusal<Call>(_ effect: Effect<Call>) -> Refusal? {
        if case .refused(let refusal) = effect { return refusal }
        return nil
    }

    static func isNone<Call>(_ effect: Effect<Call>) -> Bool {
        if case .none = effect { return true }
        return false
    }

    static func call<Call>(_ effect: Effect<Call>) -> Call? {
        if case .call(let call) = effect { return call }
        return nil
    }

    // MARK: Transcript

    /// The transcript's events reduced to `kind:name`, such as `call:didEnterAddress`.
    static func kinds(_ transcript: Transcript) -> [String] {
        transcript.entries.map { entry in
            switch entry.event {
            case .action(let name, _): "action:\(name)"
            case .refused(let name, let refusal): "refused:\(name):\(refusal.code)"
            case .call(let name, _, _): "call:\(name)"
            case .completion(let name, _, _, let byDefault): "completion:\(name)" + (byDefault ? ":default" : "")
            case .violation(let violation): "violation:\(violation.kind)"
            case .outcome(let outcome): "outcome:\(outcome)"
            }
        }
    }

    /// Parses a transcript's JSON rendering.
    static func jsonObjects(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        guard let value = try? JSONSerialization.jsonObject(with: Data(json.utf8)),
            let objects = value as? [[String: Any]]
        else {
            XCTFail("not a JSON array of objects: \(json)", file: file, line: line)
            return []
        }
        return objects
    }

    /// Requires a trace of `>method` / `<method` marks to show delegate calls that never nest nor
    /// overlap: every entry is followed by the exit of the same method before anything else.
    static func assertNoNesting(_ trace: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(trace.count % 2, 0, "unbalanced trace \(trace)", file: file, line: line)
        for index in stride(from: 0, to: trace.count - 1, by: 2) {
            let enter = trace[index]
            let exit = trace[index + 1]
            XCTAssertTrue(enter.hasPrefix(">"), "\(enter) should enter a method in \(trace)", file: file, line: line)
            XCTAssertEqual(
                exit,
                "<" + enter.dropFirst(),
                "a delegate call nested or overlapped in \(trace)",
                file: file,
                line: line
            )
        }
    }
}

extension FlowsFixture {
    // MARK: - Violation sink

    /// Collects the violations a flow reports through `FlowOptions.onViolation`, in order.
    final class ViolationSink: Sendable {
        private let received = Mutex<[Violation]>([])

        func append(_ violation: Violation) {
            received.withLock { $0.append(violation) }
        }

        var violations: [Violation] { received.withLock { $0 } }
    }

    // MARK: - Weak reference

    /// Holds an object weakly, to see when a flow lets go of its delegate.
    final class WeakBox<Object: AnyObject> {
        weak var object: Object?

        init(_ object: Object) { self.object = object }
    }

    // MARK: - Scripted reactions

    /// What a recording delegate does inside a callback.
    enum Reaction<Value: Sendable>: Sendable {
        /// Keeps the completion for the test to call later.
        case hold
        /// Calls the completion with the value before returning.
        case answer(Value)
        /// Calls `flow.cancel()` before returning.
        case cancel
    }

    /// The scripted reactions of one callback and the completions it received.
    struct Script<Value: Sendable>: Sendable {
        var reactions: [Reaction<Value>] = []
        var handlers: [@Sendable (Value) -> Void] = []

        /// The next reaction; `hold` once the script is used up.
        mutating func next() -> Reaction<Value> {
            reactions.isEmpty ? .hold : reactions.removeFirst()
        }
    }

    // MARK: - Shipping-address delegate

    /// A shipping-address delegate that records every call (name, and `>`/`<` marks around each call)
    /// and keeps the completions; it answers, holds or cancels as scripted.
    final class RecordingShippingDelegate: ShippingAddressDelegate {
        struct State: Sendable {
            var calls: [String] = []
            var trace: [String] = []
            var addresses: [Contact] = []
            var finished: [Contact] = []
            var finishedMethods: [ShippingMethod?] = []
            var enter = Script<ShippingAddressValidation>()
            /// What `flow.cancel()` answered when called inside a callback.
            var cancelResponses: [DriverResponse] = []
            /// The flow's step right after a synchronous answer inside the callback.
            var stepsAfterAnswer: [ShippingAddressStep] = []
            /// How many delegate calls had been made when the synchronous answer returned.
            var callsAfterAnswer: [Int] = []
        }

        private let state = Mutex(State())

        init(_ reactions: [Reaction<ShippingAddressValidation>] = []) {
            state.withLock { $0.enter.reactions = reactions }
        }

        /// Scripts the next `didEnterAddress` calls.
        func script(_ reactions: Reaction<ShippingAddressValidation>...) {
            state.withLock { $0.enter.reactions += reactions }
        }

        var snapshot: State { state.withLock { $0 } }
        var calls: [String] { snapshot.calls }
        var trace: [String] { snapshot.trace }
        var addresses: [Contact] { snapshot.addresses }

        /// Calls the completion of `didEnterAddress` number `index` (the last by default), outside
        /// every lock of this delegate.
        func complete(_ validation: ShippingAddressValidation, index: Int? = nil) {
            let handler: (@Sendable (ShippingAddressValidation) -> Void)? = state.withLock { state in
                let handlers = state.enter.handlers
                guard !handlers.isEmpty else { return nil }
                return handlers[index ?? handlers.count - 1]
            }
            guard let handler else { return XCTFail("didEnterAddress was not called") }
            handler(validation)
        }

        func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {
            state.withLock {
                $0.calls.append("didCancel")
                $0.trace.append(">didCancel")
            }
            state.withLock { $0.trace.append("<didCancel") }
        }

        func shippingAddressFlow(
            _ flow: ShippingAddressFlow,
            didEnter address: Contact,
            completion: @escaping @Sendable (ShippingAddressValidation) -> Void
        ) {
            let reaction = state.withLock { state in
                state.calls.append("didEnterAddress")
                state.trace.append(">didEnterAddress")
                state.addresses.append(address)
                state.enter.handlers.append(completion)
                return state.enter.next()
            }
            switch reaction {
            case .hold:
                break
            case .answer(let validation):
                completion(validation)
                let step = flow.step
                state.withLock {
                    $0.stepsAfterAnswer.append(step)
                    $0.callsAfterAnswer.append($0.calls.count)
                }
            case .cancel:
                let response = flow.cancel()
                state.withLock { $0.cancelResponses.append(response) }
            }
            state.withLock { $0.trace.append("<didEnterAddress") }
        }

        func shippingAddressFlow(
            _ flow: ShippingAddressFlow,
            didFinishWith address: Contact,
            shippingMethod: ShippingMethod?
        ) {
            state.withLock {
                $0.calls.append("didFinish")
                $0.trace.append(">didFinish")
                $0.finished.append(address)
                $0.finishedMethods.append(shippingMethod)
            }
            state.withLock { $0.trace.append("<didFinish") }
        }
    }

    // MARK: - Authorization delegate

    /// A payment-authorization delegate that implements every method, records every call (name, and
    /// `>`/`<` marks around each call) and what it received, and answers, holds or cancels as
    /// scripted per callback.
    final class RecordingAuthorizationDelegate: PaymentAuthorizationDelegate {
        struct State: Sendable {
            var calls: [String] = []
            var trace: [String] = []
            var contacts: [Contact] = []
            var shippingMethods: [ShippingMethod] = []
            var paymentMethods: [PaymentMethod] = []
            var couponCodes: [String] = []
            var payments: [Payment] = []
            var contact = Script<ShippingContactUpdate>()
            var method = Script<ShippingMethodUpdate>()
            var paymentMethod = Script<PaymentMethodUpdate>()
            var coupon = Script<CouponCodeUpdate>()
            var authorization = Script<PaymentAuthorizationResult>()
            var cancelResponses: [DriverResponse] = []
        }

        private let state = Mutex(State())

        init() {}

        var snapshot: State { state.withLock { $0 } }
        var calls: [String] { snapshot.calls }
        var trace: [String] { snapshot.trace }

        func scriptContact(_ reactions: Reaction<ShippingContactUpdate>...) {
            state.withLock { $0.contact.reactions += reactions }
        }

        func scriptMethod(_ reactions: Reaction<ShippingMethodUpdate>...) {
            state.withLock { $0.method.reactions += reactions }
        }

        func scriptPaymentMethod(_ reactions: Reaction<PaymentMethodUpdate>...) {
            state.withLock { $0.paymentMethod.reactions += reactions }
        }

        func scriptCoupon(_ reactions: Reaction<CouponCodeUpdate>...) {
            state.withLock { $0.coupon.reactions += reactions }
        }

        func scriptAuthorization(_ reactions: Reaction<PaymentAuthorizationResult>...) {
            state.withLock { $0.authorization.reactions += reactions }
        }

        func answerContact(_ update: ShippingContactUpdate, index: Int? = nil) {
            handler(\.contact, index)?(update)
        }

        func answerMethod(_ update: ShippingMethodUpdate, index: Int? = nil) {
            handler(\.method, index)?(update)
        }

        func answerPaymentMethod(_ update: PaymentMethodUpdate, index: Int? = nil) {
            handler(\.paymentMethod, index)?(update)
        }

        func answerCoupon(_ update: CouponCodeUpdate, index: Int? = nil) {
            handler(\.coupon, index)?(update)
        }

        func answerAuthorization(_ result: PaymentAuthorizationResult, index: Int? = nil) {
            handler(\.authorization, index)?(result)
        }

        /// A kept completion, taken out under the lock and called outside it.
        private func handler<Value: Sendable>(
            _ script: WritableKeyPath<State, Script<Value>>,
            _ index: Int?
        ) -> (@Sendable (Value) -> Void)? {
            let handler: (@Sendable (Value) -> Void)? = state.withLock { state in
                let handlers = state[keyPath: script].handlers
                guard !handlers.isEmpty else { return nil }
                return handlers[index ?? handlers.count - 1]
            }
            if handler == nil { XCTFail("no completion of that callback was kept") }
            return handler
        }

        private func run<Value: Sendable>(
            _ name: String,
            _ flow: PaymentAuthorizationFlow,
            _ script: WritableKeyPath<State, Script<Value>>,
            _ handler: @escaping @Sendable (Value) -> Void,
            record: (inout State) -> Void
        ) {
            let reaction = state.withLock { state in
                state.calls.append(name)
                state.trace.append(">" + name)
                record(&state)
                state[keyPath: script].handlers.append(handler)
                return state[keyPath: script].next()
            }
            switch reaction {
            case .hold: break
            case .answer(let value): handler(value)
            case .cancel:
                let response = flow.cancel()
                state.withLock { $0.cancelResponses.append(response) }
            }
            state.withLock { $0.trace.append("<" + name) }
        }

        private func notify(_ name: String) {
            state.withLock {
                $0.calls.append(name)
                $0.trace.append(">" + name)
            }
            state.withLock { $0.trace.append("<" + name) }
        }

        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {
            notify("didFinish")
        }

        func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {
            notify("willAuthorizePayment")
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) {
            run("didAuthorizePayment", flow, \.authorization, handler) { $0.payments.append(payment) }
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didSelectShippingContact contact: Contact,
            handler: @escaping @Sendable (ShippingContactUpdate) -> Void
        ) {
            run("didSelectShippingContact", flow, \.contact, handler) { $0.contacts.append(contact) }
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didSelectShippingMethod method: ShippingMethod,
            handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
        ) {
            run("didSelectShippingMethod", flow, \.method, handler) { $0.shippingMethods.append(method) }
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didSelectPaymentMethod method: PaymentMethod,
            handler: @escaping @Sendable (PaymentMethodUpdate) -> Void
        ) {
            run("didSelectPaymentMethod", flow, \.paymentMethod, handler) { $0.paymentMethods.append(method) }
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didChangeCouponCode code: String,
            handler: @escaping @Sendable (CouponCodeUpdate) -> Void
        ) {
            run("didChangeCouponCode", flow, \.coupon, handler) { $0.couponCodes.append(code) }
        }
    }
}
