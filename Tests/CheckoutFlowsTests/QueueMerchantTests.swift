import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import CheckoutTesting
import Dispatch
import XCTest

/// A merchant confined to its own serial queue (spec E10): not `Sendable`, `var` state, no lock.
/// The test hands it to the flow (`sending`) and reads what it saw only through `log`, which the
/// merchant writes on its queue. Each method checks that it runs on the queue.
final class QueueMerchant: ConfinedShippingAddressDelegate, ConfinedPaymentAuthorizationDelegate,
    ConfinedPayContextDelegate
{
    private var calls: [String] = []
    private var inCall = false
    private var overlaps = 0
    private let queue: DispatchQueue
    private let log: LockedValue<(calls: [String], overlaps: Int)>
    private let secret: IntentClientSecret?

    init(queue: DispatchQueue, log: LockedValue<(calls: [String], overlaps: Int)>, secret: IntentClientSecret? = nil) {
        self.queue = queue
        self.log = log
        self.secret = secret
    }

    private func enter(_ name: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        if inCall { overlaps += 1 }
        inCall = true
        calls.append(name)
        log.withLock { $0 = (calls, overlaps) }
    }

    private func exit() { inCall = false }

    // Shipping address
    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didEnter address: Contact,
        completion: @escaping @Sendable (ShippingAddressValidation) -> Void
    ) {
        enter("didEnterAddress")
        defer { exit() }
        // Answered later, on the merchant's queue.
        queue.async { completion(IsolatedAnswers.validation) }
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
        handler(ShippingContactUpdate(summaryItems: IsolatedAnswers.contactSummary))
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

/// Every flow with a merchant confined to its own serial queue (spec E10).
final class QueueMerchantTests: XCTestCase {
    private typealias F = FlowsFixture
    private typealias S = IsolatedSessions
    private typealias Log = LockedValue<(calls: [String], overlaps: Int)>

    private let queue = DispatchQueue(label: "merchant")

    func testAShippingSessionCallsTheMerchantOnItsQueue() async throws {
        let log = Log(([], 0))
        let flow = try ShippingAddressFlow(
            configuration: .init(), delegate: QueueMerchant(queue: queue, log: log), queue: queue,
            options: S.options())
        let outcome = try await S.shipping(flow)
        XCTAssertEqual(outcome.description, "finished(method: express)")
        XCTAssertEqual(log.withLock { $0.calls }, S.shippingCalls)
        XCTAssertEqual(log.withLock { $0.calls }, flow.delegateCalls)
        XCTAssertEqual(log.withLock { $0.overlaps }, 0)
    }

    func testAnAuthorizationSessionCallsTheMerchantOnItsQueue() async throws {
        let log = Log(([], 0))
        let flow = try PaymentAuthorizationFlow(
            request: F.request(), delegate: QueueMerchant(queue: queue, log: log), queue: queue, options: S.options())
        let outcome = try await S.authorization(flow)
        XCTAssertEqual(outcome.description, "success")
        XCTAssertEqual(log.withLock { $0.calls }, S.authorizationCalls)
        XCTAssertEqual(log.withLock { $0.overlaps }, 0)
    }

    func testAPayContextSessionCallsTheMerchantOnItsQueue() async throws {
        let (backend, secret) = try S.backend()
        let log = Log(([], 0))
        let context = try PayContext(
            request: F.request(), backend: backend, delegate: QueueMerchant(queue: queue, log: log, secret: secret),
            queue: queue, options: S.options())
        let outcome = try await S.payContext(context)
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(backend.intent(secret.intentID)?.status, .succeeded)
        XCTAssertEqual(log.withLock { $0.calls }, S.payContextCalls)
        XCTAssertEqual(log.withLock { $0.calls }, context.delegateCalls)
    }

    // spec E10, E3, E4: while the merchant's queue is blocked, a deadline passes and a cancel
    // comes: both take effect at once, and the merchant's calls wait for the queue, in order.
    func testDeadlinesAndCancelsWorkWhileTheQueueIsBusy() async throws {
        let clock = ManualClock()
        let log = Log(([], 0))
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        let flow = try ShippingAddressFlow(
            configuration: .init(), delegate: QueueMerchant(queue: queue, log: log), queue: queue,
            options: .testing(clock: clock, expecting: [.completionTimedOut]))
        flow.present()
        XCTAssertEqual(flow.enterAddress(F.jane()), .accepted)
        clock.advance(by: .seconds(30))
        guard case .address(let error) = flow.step, error != nil else {
            return XCTFail(
                "timed out on the flow's clock, back on the address step with an error (spec E4): \(flow.step)")
        }
        XCTAssertEqual(flow.cancel(), .accepted)
        XCTAssertEqual(flow.outcome, .cancelled)
        XCTAssertEqual(log.withLock { $0.calls }, [], "the queue is blocked")
        gate.signal()
        await flow.waitUntilEnded()
        XCTAssertEqual(log.withLock { $0.calls }, ["didEnterAddress", "didCancel"])
        XCTAssertEqual(log.withLock { $0.overlaps }, 0)
        XCTAssertEqual(flow.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
    }
}
