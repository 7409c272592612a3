import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import CheckoutTesting
import Dispatch
import XCTest

/// A merchant as an app writes it (spec E10): a `@MainActor` class with `var` state and no lock,
/// for every flow. Each method checks that it runs on the main actor (the main queue) and that no
/// other call of the merchant is running.
@MainActor
final class MainActorMerchant: MainActorShippingAddressDelegate, MainActorPaymentAuthorizationDelegate,
    MainActorPayContextDelegate
{
    var calls: [String] = []
    private var inCall = false
    var overlaps = 0
    let secret: IntentClientSecret?
    /// When set, the authorization is not answered: the completion is kept here.
    var holdsAuthorization = false
    var heldAuthorization: (@Sendable (PaymentAuthorizationResult) -> Void)?

    init(secret: IntentClientSecret? = nil) { self.secret = secret }

    private func enter(_ name: String) {
        MainActor.preconditionIsolated()
        dispatchPrecondition(condition: .onQueue(.main))
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
        // Answered later, from a task of the main actor: a completion may come from anywhere.
        Task { @MainActor in handler(ShippingContactUpdate(summaryItems: IsolatedAnswers.contactSummary)) }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        enter("didSelectShippingMethod")
        defer { exit() }
        // Answered from another thread.
        DispatchQueue.global().async { handler(ShippingMethodUpdate(summaryItems: IsolatedAnswers.methodSummary)) }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        enter("didAuthorizePayment")
        defer { exit() }
        if holdsAuthorization { heldAuthorization = handler } else { handler(.success) }
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

/// Every flow with a `@MainActor` merchant (spec E10), as XCTest runs main-actor tests on Linux:
/// `@MainActor` `async` test methods, which give the main actor back while they wait.
final class MainActorMerchantTests: XCTestCase {
    private typealias F = FlowsFixture
    private typealias S = IsolatedSessions

    @MainActor func testAShippingSessionCallsTheMerchantOnTheMainActor() async throws {
        let merchant = MainActorMerchant()
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: merchant, options: S.options())
        let outcome = try await S.shipping(flow)
        XCTAssertEqual(outcome.description, "finished(method: express)")
        XCTAssertEqual(merchant.calls, S.shippingCalls)
        XCTAssertEqual(merchant.calls, flow.delegateCalls)
        XCTAssertEqual(merchant.overlaps, 0)
    }

    @MainActor func testAnAuthorizationSessionCallsTheMerchantOnTheMainActor() async throws {
        let merchant = MainActorMerchant()
        let flow = try PaymentAuthorizationFlow(request: F.request(), delegate: merchant, options: S.options())
        let outcome = try await S.authorization(flow)
        XCTAssertEqual(outcome.description, "success")
        XCTAssertEqual(merchant.calls, S.authorizationCalls)
        XCTAssertEqual(merchant.overlaps, 0)
        assertNoViolations(flow)
    }

    @MainActor func testAPayContextSessionCallsTheMerchantOnTheMainActor() async throws {
        let (backend, secret) = try S.backend()
        let merchant = MainActorMerchant(secret: secret)
        let context = try PayContext(request: F.request(), backend: backend, delegate: merchant, options: S.options())
        let outcome = try await S.payContext(context)
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(backend.intent(secret.intentID)?.status, .succeeded)
        XCTAssertEqual(merchant.calls, S.payContextCalls)
        XCTAssertEqual(merchant.calls, context.delegateCalls)
        XCTAssertEqual(merchant.overlaps, 0)
    }

    // spec E10, E3, E4: while the main actor is busy (this test holds it, without awaiting), the
    // flow goes on: the deadline of the held authorization passes on the flow's clock and ends
    // the flow at once; the merchant's calls wait for the main actor and come in order after.
    @MainActor func testADeadlinePassesWhileTheMainActorIsBusy() async throws {
        let clock = ManualClock()
        let merchant = MainActorMerchant()
        merchant.holdsAuthorization = true
        let flow = try PaymentAuthorizationFlow(
            request: F.request(requiredShipping: []), delegate: merchant,
            options: .testing(clock: clock, expecting: [.completionTimedOut]))
        flow.present()
        XCTAssertEqual(flow.authorize(F.token()), .accepted)
        XCTAssertEqual(merchant.calls, [], "the merchant is called on the main actor, which this test holds")
        clock.advance(by: .seconds(30))
        XCTAssertEqual(flow.outcome, .timedOut, "decided at the deadline, while the main actor is busy")
        XCTAssertEqual(flow.authorize(F.token()).refusal?.code, .finished)
        let outcome = await flow.waitUntilEnded()
        XCTAssertEqual(outcome, .timedOut)
        XCTAssertEqual(merchant.calls, ["willAuthorizePayment", "didAuthorizePayment", "didFinish"])
        XCTAssertEqual(merchant.overlaps, 0)
        // The held completion is stale now (spec E2): it changes nothing.
        merchant.heldAuthorization?(.success)
        XCTAssertEqual(flow.outcome, .timedOut)
    }

    // spec E10, E3: a cancel while the main actor is busy ends the flow at once; the selection
    // still reaches the merchant, then the terminal call, never nested.
    @MainActor func testACancelWhileTheMainActorIsBusyEndsTheFlowAtOnce() async throws {
        let merchant = MainActorMerchant()
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: merchant, options: S.options())
        flow.present()
        XCTAssertEqual(flow.enterAddress(F.jane()), .accepted)
        XCTAssertEqual(flow.cancel(), .accepted)
        XCTAssertEqual(flow.outcome, .cancelled)
        XCTAssertEqual(merchant.calls, [])
        await flow.waitUntilEnded()
        XCTAssertEqual(merchant.calls, ["didEnterAddress", "didCancel"])
        XCTAssertEqual(merchant.overlaps, 0)
    }
}
