import CheckoutCore
import CheckoutFlows
import CheckoutTestSupport
import Foundation
import XCTest

/// Shared values of the flow tests; the recording delegates come from CheckoutTesting. Everything
/// lives in this namespace so that other files of the test target can declare their own helpers
/// without name clashes.
enum FlowsFixture {
    // MARK: Awaited actions

    /// Starts the awaited driver `action` in a task, runs `end` (which should end the action's
    /// callback without an answer), and waits until `action` has thrown ``CallbackEnded``: at most
    /// 10 seconds, so that a regression fails the test instead of hanging it. Returns the error.
    static func callbackEnded(
        in test: XCTestCase,
        by action: @escaping @Sendable () async throws -> Void,
        after end: () async -> Void,
        file: StaticString = #filePath,
        line: UInt = #line
    ) async -> CallbackEnded? {
        let thrown = test.expectation(description: "the awaited action throws CallbackEnded")
        let error = LockedValue<CallbackEnded?>(nil)
        Task {
            do {
                try await action()
                XCTFail("expected CallbackEnded", file: file, line: line)
            } catch let ended as CallbackEnded {
                error.withLock { $0 = ended }
                thrown.fulfill()
            }
        }
        await end()
        await test.fulfillment(of: [thrown], timeout: 10)
        return error.withLock { $0 }
    }

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
        sink: ViolationSink? = nil
    ) -> FlowOptions {
        var onViolation: (@Sendable (Violation) -> Void)?
        if let sink {
            onViolation = { sink.append($0) }
        }
        return FlowOptions(callbackTimeout: timeout, clock: clock, onViolation: onViolation)
    }

    // MARK: Effects

    static func refusal<Call>(_ effect: Effect<Call>) -> Refusal? {
        if case .refused(let response) = effect { return response.refusal }
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
}

extension FlowsFixture {
    // MARK: - Violation sink

    /// Collects the violations a flow reports through `FlowOptions.onViolation`, in order.
    final class ViolationSink: Sendable {
        private let received = Arrivals<Violation>()

        func append(_ violation: Violation) { received.append(violation) }

        var violations: [Violation] { received.items }

        /// Waits (up to `timeout`, the failure path) until `count` violations have been reported:
        /// a violation decided while another thread drains the flow reaches the observer from
        /// that thread, a moment later.
        func waitFor(_ count: Int, timeout: Duration = .seconds(10)) async -> [Violation] {
            await received.waitFor(count, timeout: timeout)
        }
    }

    // MARK: - Weak reference

    /// Holds an object weakly, to see when a flow lets go of its delegate.
    final class WeakBox<Object: AnyObject> {
        weak var object: Object?

        init(_ object: Object) { self.object = object }
    }
}
