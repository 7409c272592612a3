import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import CheckoutTesting
import XCTest

/// A merchant that is an actor (spec E10): its synchronous methods satisfy the isolated
/// requirements, and its `var` state needs no lock. Each method checks that it runs on the actor
/// and that no other call of the merchant is running.
actor ActorMerchant: ActorShippingAddressDelegate, ActorPaymentAuthorizationDelegate, ActorPayContextDelegate {
    private(set) var calls: [String] = []
    private var inCall = false
    private(set) var overlaps = 0
    let secret: IntentClientSecret?

    init(secret: IntentClientSecret? = nil) { self.secret = secret }

    private func enter(_ name: String) {
        preconditionIsolated()
        if inCall { overlaps += 1 }
        inCall = true
        calls.append(name)
    }

    private func exit() { inCall = false }

    // Shipping address
    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didEnter address: Contact,
        completion: @escaping @Sendable (ShippingAddressValidation) -> Void
    ) {
        enter("didEnterAddress")
        defer { exit() }
        completion(IsolatedAnswers.validation)
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didFinishWith address: Contact, shippingMethod: ShippingMethod?
    ) {
        enter("didFinish")
        exit()
    }

    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {
        enter("didCancel")
        exit()
    }

    // Authorization
    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {
        enter("didFinish")
        exit()
    }

    func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {
        enter("willAuthorizePayment")
        exit()
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        enter("didSelectShippingContact")
        defer { exit() }
        // Answered from a task of the actor's, later.
        Task { handler(ShippingContactUpdate(summaryItems: IsolatedAnswers.contactSummary)) }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        enter("didSelectShippingMethod")
        defer { exit() }
        handler(ShippingMethodUpdate(summaryItems: IsolatedAnswers.methodSummary))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        enter("didAuthorizePayment")
        defer { exit() }
        handler(.success)
    }

    // Pay context
    func payContext(
        _ context: PayContext, didCreatePaymentMethod paymentMethod: StripePaymentMethod,
        paymentInformation: Payment, completion: @escaping @Sendable (IntentAnswer) -> Void
    ) {
        enter("didCreatePaymentMethod")
        defer { exit() }
        completion(secret.map(IntentAnswer.secret) ?? .completeWithoutConfirming)
    }

    func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {
        enter("didComplete")
        exit()
    }

    func payContext(
        _ context: PayContext, didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        enter("didSelectShippingContact")
        defer { exit() }
        handler(ShippingContactUpdate(summaryItems: IsolatedAnswers.contactSummary))
    }

    func payContext(
        _ context: PayContext, willCompleteWith result: PaymentAuthorizationResult,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        enter("willComplete")
        defer { exit() }
        handler(result)
    }
}

/// Every flow with an actor merchant (spec E10).
final class ActorMerchantTests: XCTestCase {
    private typealias F = FlowsFixture
    private typealias S = IsolatedSessions

    func testAShippingSessionCallsTheMerchantOnItsActor() async throws {
        let merchant = ActorMerchant()
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: merchant, options: S.options())
        let outcome = try await S.shipping(flow)
        XCTAssertEqual(outcome.description, "finished(method: express)")
        let calls = await merchant.calls
        XCTAssertEqual(calls, S.shippingCalls)
        XCTAssertEqual(calls, flow.delegateCalls)
        let overlaps = await merchant.overlaps
        XCTAssertEqual(overlaps, 0)
    }

    func testAnAuthorizationSessionCallsTheMerchantOnItsActor() async throws {
        let merchant = ActorMerchant()
        let flow = try PaymentAuthorizationFlow(request: F.request(), delegate: merchant, options: S.options())
        let outcome = try await S.authorization(flow)
        XCTAssertEqual(outcome.description, "success")
        let calls = await merchant.calls
        XCTAssertEqual(calls, S.authorizationCalls)
        let overlaps = await merchant.overlaps
        XCTAssertEqual(overlaps, 0)
    }

    func testAPayContextSessionCallsTheMerchantOnItsActor() async throws {
        let (backend, secret) = try S.backend()
        let merchant = ActorMerchant(secret: secret)
        let context = try PayContext(request: F.request(), backend: backend, delegate: merchant, options: S.options())
        let outcome = try await S.payContext(context)
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(backend.intent(secret.intentID)?.status, .succeeded)
        let calls = await merchant.calls
        XCTAssertEqual(calls, S.payContextCalls)
        XCTAssertEqual(calls, context.delegateCalls)
    }

    // spec E10, E6: many sessions at once, each with its own actor merchant, driven from many
    // tasks: every merchant sees its calls in order, one at a time.
    func testConcurrentSessionsEachKeepTheirOrder() async throws {
        try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let merchant = ActorMerchant()
                    let flow = try PaymentAuthorizationFlow(
                        request: F.request(), delegate: merchant, options: S.options())
                    _ = try await S.authorization(flow)
                    let overlaps = await merchant.overlaps
                    XCTAssertEqual(overlaps, 0)
                    return await merchant.calls
                }
            }
            for try await calls in group { XCTAssertEqual(calls, S.authorizationCalls) }
        }
    }
}
