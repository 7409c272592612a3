import CheckoutCore
import CheckoutFlows
import CheckoutSimulator
import Dispatch
import XCTest

/// Random sessions of the payment-authorization flow, checked step by step against
/// ``AuthorizationModel``.
final class AuthorizationSessionTests: XCTestCase {
    typealias Content = AuthorizationModel.Content

    enum Step: CustomStringConvertible {
        case present
        /// A driver action; with `inline`, the merchant answers inside the callback it opens.
        case contact(inline: Content?)
        case method(String, inline: Content?)
        case card(inline: Content?)
        case coupon(inline: Content?)
        case authorize(inline: Content?)
        case cancel
        /// The merchant calls the completion of callback `id` (from this or another thread, once
        /// or twice).
        case answer(id: Int, Content, fromAnotherThread: Bool, twice: Bool)
        /// Virtual time moves on.
        case advance(Int)

        var description: String {
            switch self {
            case .present: "present"
            case .contact(let inline): "selectShippingContact" + Self.inline(inline)
            case .method(let id, let inline): "selectShippingMethod(\(id))" + Self.inline(inline)
            case .card(let inline): "selectPaymentMethod" + Self.inline(inline)
            case .coupon(let inline): "changeCouponCode" + Self.inline(inline)
            case .authorize(let inline): "authorize" + Self.inline(inline)
            case .cancel: "cancel"
            case .answer(let id, let content, let thread, let twice):
                "answer #\(id) with \(content)" + (thread ? " from another thread" : "") + (twice ? ", twice" : "")
            case .advance(let seconds): "advance \(seconds)s"
            }
        }

        private static func inline(_ content: Content?) -> String {
            content.map { " [answered inline with \($0)]" } ?? ""
        }
    }

    /// A merchant that keeps every completion for the session to call, or answers inline.
    final class Merchant: PaymentAuthorizationDelegate {
        enum Held {
            case contact(@Sendable (ShippingContactUpdate) -> Void)
            case method(@Sendable (ShippingMethodUpdate) -> Void)
            case card(@Sendable (PaymentMethodUpdate) -> Void)
            case coupon(@Sendable (CouponCodeUpdate) -> Void)
            case authorization(@Sendable (PaymentAuthorizationResult) -> Void)
        }

        struct State {
            var watch = CallWatch()
            var held: [Int: Held] = [:]
            var received = 0
            var inline: Content?
            var unredacted = 0
        }

        let state = LockedValue(State())

        static let items = [
            SummaryItem(label: "Tea", amount: Money(minorUnits: 1_000, currency: .usd)),
            SummaryItem(label: "Shop", amount: Money(minorUnits: 1_000, currency: .usd)),
        ]
        static let invalidItems = [SummaryItem(label: "Shop", amount: Money(minorUnits: -100, currency: .usd))]

        /// The list of methods a contact or coupon update with `content` carries.
        static func methods(_ content: Content) -> [ShippingMethod]? {
            switch content {
            case .fewerMethods: [ShippingMethod(identifier: "ground", label: "Ground", amount: .zero(.usd))]
            case .noMethods: []
            default: nil
            }
        }

        /// Calls `held` with the update or result `content` stands for.
        static func call(_ held: Held, _ content: Content) {
            let items = content == .invalid ? invalidItems : items
            switch held {
            case .contact(let handler):
                let errors: [PaymentError] =
                    switch content {
                    case .blockingError: [.shippingAddressUnserviceable("no")]
                    case .unknownError: [.unknown("no")]
                    default: []
                    }
                let methods = Self.methods(content)
                handler(ShippingContactUpdate(errors: errors, summaryItems: items, shippingMethods: methods))
            case .method(let handler):
                handler(ShippingMethodUpdate(summaryItems: items))
            case .card(let handler):
                let errors = content == .cardError ? [PaymentError(code: .unknown, message: "card refused")] : []
                handler(PaymentMethodUpdate(errors: errors, summaryItems: items))
            case .coupon(let handler):
                let errors = content == .couponError ? [PaymentError.couponCodeInvalid("no")] : []
                let methods = Self.methods(content)
                handler(CouponCodeUpdate(errors: errors, summaryItems: items, shippingMethods: methods))
            case .authorization(let handler):
                let result: PaymentAuthorizationResult =
                    switch content {
                    case .success: .success
                    case .pinRequired: PaymentAuthorizationResult(status: .pinRequired)
                    case .pinLockout: PaymentAuthorizationResult(status: .pinLockout)
                    case .failureShippingError:
                        PaymentAuthorizationResult(
                            status: .failure, errors: [.shippingContactInvalid(.postalCode, "no")])
                    case .failureBillingError:
                        PaymentAuthorizationResult(
                            status: .failure, errors: [.billingContactInvalid(.postalCode, "no")])
                    default: PaymentAuthorizationResult(status: .failure)
                    }
                handler(result)
            }
        }

        private func received(_ method: String, _ held: Held) {
            let inline: Content? = state.withLock { state in
                state.watch.enter(method)
                state.received += 1
                state.held[state.received] = held
                defer { state.inline = nil }
                return state.inline
            }
            if let inline { Self.call(held, inline) }
            state.withLock { $0.watch.exit() }
        }

        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {
            state.withLock { $0.watch.enter("didFinish", terminal: true) }
            state.withLock { $0.watch.exit() }
        }

        func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {
            state.withLock { $0.watch.enter("willAuthorizePayment") }
            state.withLock { $0.watch.exit() }
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) {
            received("didAuthorizePayment", .authorization(handler))
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didSelectShippingContact contact: Contact,
            handler: @escaping @Sendable (ShippingContactUpdate) -> Void
        ) {
            // A2: no street, name, email or phone before authorization.
            let leaked =
                !contact.isRedacted || contact.name != nil || contact.emailAddress != nil || contact.phoneNumber != nil
                || contact.postalAddress?.line1 != nil || contact.postalAddress?.postalCode != "SW1Y"
            if leaked { state.withLock { $0.unredacted += 1 } }
            received("didSelectShippingContact", .contact(handler))
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didSelectShippingMethod method: ShippingMethod,
            handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
        ) {
            received("didSelectShippingMethod", .method(handler))
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didSelectPaymentMethod method: PaymentMethod,
            handler: @escaping @Sendable (PaymentMethodUpdate) -> Void
        ) {
            received("didSelectPaymentMethod", .card(handler))
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didChangeCouponCode code: String,
            handler: @escaping @Sendable (CouponCodeUpdate) -> Void
        ) {
            received("didChangeCouponCode", .coupon(handler))
        }
    }

    static let request = PaymentRequest(
        merchantIdentifier: "merchant.test",
        countryCode: "US",
        currencyCode: "USD",
        requiredShippingContactFields: [.postalAddress],
        shippingMethods: [
            ShippingMethod(identifier: "ground", label: "Ground", amount: .zero(.usd)),
            ShippingMethod(identifier: "express", label: "Express", amount: Money(minorUnits: 500, currency: .usd)),
        ],
        summaryItems: Merchant.items,
        supportsCouponCode: true
    )

    static let token = PaymentToken(
        paymentMethod: PaymentMethod(displayName: "Visa", network: .visa, type: .credit),
        transactionIdentifier: "t",
        paymentData: "4242424242424242"
    )

    /// Runs `steps` on a real flow and the model side by side; the first disagreement or broken
    /// invariant, or nil.
    static func run(_ steps: [Step], couponsSupported: Bool = true, timeout: Int? = 30, mutant: Bool = false) -> String?
    {
        let clock = ManualClock()
        let merchant = Merchant()
        defer { releaseSession(clock) { merchant.state.withLock { $0.held = [:] } } }
        var request = request
        request.supportsCouponCode = couponsSupported
        let flow = try! PaymentAuthorizationFlow(
            request: request,
            delegate: merchant,
            options: FlowOptions(callbackTimeout: timeout.map { .seconds($0) }, clock: clock)
        )
        var model = AuthorizationModel(timeout: timeout)
        model.forgetsRepeatedCompletions = mutant
        for (index, step) in steps.enumerated() {
            var response: DriverResponse?
            var expected: String?
            func drive(
                _ inline: Content?, _ action: () -> DriverResponse, _ modelAction: (inout AuthorizationModel) -> String?
            ) {
                merchant.state.withLock { $0.inline = inline }
                let callbacksBefore = model.nextID
                response = action()
                expected = modelAction(&model)
                if let inline, model.nextID > callbacksBefore { model.answer(model.nextID - 1, inline) }
                merchant.state.withLock { $0.inline = nil }
            }
            switch step {
            case .present:
                response = flow.present()
                expected = model.present()
            case .contact(let inline):
                drive(inline, { flow.selectShippingContact(sessionContact) }, { $0.selectShippingContact() })
            case .method(let id, let inline):
                drive(inline, { flow.selectShippingMethod(id) }, { $0.selectShippingMethod(id) })
            case .card(let inline):
                drive(inline, { flow.selectPaymentMethod(token.paymentMethod) }, { $0.selectPaymentMethod() })
            case .coupon(let inline):
                drive(inline, { flow.changeCouponCode("TEN") }, { $0.changeCouponCode(supported: couponsSupported) })
            case .authorize(let inline):
                drive(inline, { flow.authorize(token) }, { $0.authorize() })
            case .cancel:
                response = flow.cancel()
                expected = model.cancel()
            case .answer(let id, let content, let fromAnotherThread, let twice):
                guard let held = merchant.state.withLock({ $0.held[id] }) else { continue }
                for _ in 0..<(twice ? 2 : 1) {
                    runAnswer(fromAnotherThread: fromAnotherThread) { Merchant.call(held, content) }
                    model.answer(id, content)
                }
            case .advance(let seconds):
                clock.advance(by: .seconds(seconds))
                model.advance(to: model.now + seconds)
            }
            let state = merchant.state.withLock { $0 }
            let comparison = StepComparison(
                refusal: response.map { ($0.refusal?.code.rawValue, expected) },
                calls: (state.watch.calls, model.calls),
                violations: (flow.violations.map(\.kind.rawValue), model.violations),
                outcome: (flow.outcome?.description, model.outcome),
                watch: state.watch
            )
            if let problem = comparison.problem(afterStep: index, step) { return problem }
            if state.unredacted > 0 {
                return "after step \(index + 1) (\(step)): A2: the merchant saw an unredacted shipping contact"
            }
        }
        return personalDataLeak(in: flow.transcript, steps: steps.count)
    }

    static func generate(_ random: inout SeededGenerator) -> [Step] {
        let answers: [Content] = [
            .plain, .blockingError, .cardError, .couponError, .fewerMethods, .unknownError, .noMethods, .invalid,
        ]
        let results: [Content] = [
            .success, .failure, .failureShippingError, .failureBillingError, .pinRequired, .pinLockout,
        ]
        func inline() -> Content? {
            Int.random(in: 0..<3, using: &random) == 0 ? answers.randomElement(using: &random) : nil
        }
        var steps: [Step] = Int.random(in: 0..<20, using: &random) == 0 ? [] : [.present]
        var opened = 0
        for _ in 0..<Int.random(in: 1...30, using: &random) {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<12:
                steps.append(.contact(inline: inline()))
                opened += 1
            case 12..<20:
                steps.append(
                    .method(["ground", "express", "overnight"].randomElement(using: &random)!, inline: inline()))
                opened += 1
            case 20..<27:
                steps.append(.card(inline: inline()))
                opened += 1
            case 27..<33:
                steps.append(.coupon(inline: inline()))
                opened += 1
            case 33..<45:
                let result = Int.random(in: 0..<3, using: &random) == 0 ? results.randomElement(using: &random) : nil
                steps.append(.authorize(inline: result))
                opened += 1
            case 45..<50:
                steps.append(.cancel)
            case 50..<90:
                guard opened > 0 else { continue }
                // Mostly the latest callback; sometimes an older one (late or repeated).
                let id =
                    Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 1...opened, using: &random) : opened
                let content = (answers + results).randomElement(using: &random)!
                steps.append(
                    .answer(
                        id: id,
                        content,
                        fromAnotherThread: Int.random(in: 0..<4, using: &random) == 0,
                        twice: Int.random(in: 0..<8, using: &random) == 0
                    )
                )
            case 90..<97:
                steps.append(.advance(Int.random(in: 0...45, using: &random)))
            default:
                steps.append(.present)
            }
        }
        return steps
    }

    // spec E1-E9, A1-A9: random sessions agree with the reference model at every step.
    func testRandomSessionsAgreeWithTheModel() {
        runSessions(
            "authorization",
            sessions: sessionCount(default: 3_000),
            generate: Self.generate,
            run: { Self.run($0) }
        )
    }

    // spec A5, E4: without coupon support and without deadlines too.
    func testRandomSessionsWithoutCouponsOrDeadlinesAgreeWithTheModel() {
        runSessions(
            "authorization (no coupons, no deadlines)",
            sessions: sessionCount(default: 3_000) / 4,
            generate: Self.generate,
            run: { Self.run($0, couponsSupported: false, timeout: nil) }
        )
    }

    /// The harness can fail: against a model that forgets E2's repeated completions, a session
    /// that answers twice disagrees, and random sessions find such a session.
    func testTheHarnessCanFail() {
        let steps: [Step] = [
            .present, .contact(inline: nil), .answer(id: 1, .plain, fromAnotherThread: false, twice: true),
        ]
        XCTAssertNil(Self.run(steps))
        XCTAssertEqual(
            Self.run(steps, mutant: true),
            "after step 3 (answer #1 with plain, twice): violations [\"completionCalledTwice\"], the model says [\"lateCompletion\"]"
        )
        var found = false
        for seed in 0..<200 {
            var random = SeededGenerator(seed: UInt64(seed))
            if Self.run(Self.generate(&random), mutant: true) != nil {
                found = true
                break
            }
        }
        XCTAssertTrue(found, "random sessions find the mutant")
    }
}
