import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import XCTest

/// The async delegate's task across the flow's end, and `waitUntilIdle()` for a sync driver
/// against an async delegate.
final class AsyncDelegateLifetimeTests: XCTestCase {
    private typealias F = FlowsFixture

    // spec E3, E5: the flow's end cancels the async delegate's task still running; its late answer
    // is recorded as such and changes nothing.
    func testTheEndCancelsTheAsyncDelegatesTask() async throws {
        let merchant = WaitsForCancellation()
        let flow = try ShippingAddressFlow(
            configuration: ShippingAddressConfiguration(), delegate: merchant,
            options: FlowOptions(clock: ManualClock()))
        XCTAssertEqual(flow.present(), .accepted)
        XCTAssertEqual(flow.enterAddress(F.jane()), .accepted)
        XCTAssertEqual(flow.cancel(), .accepted)
        let outcome = await flow.waitUntilEnded()
        XCTAssertEqual(outcome, .cancelled)
        // Without the cancellation the delegate's task never returns: the kit's wait fails then.
        let idle = await waitUntilIdle(flow, timeout: .seconds(10))
        XCTAssertTrue(idle)
        XCTAssertEqual(merchant.sawCancellation, [true])
        XCTAssertEqual(flow.violations.map(\.kind), [.lateCompletion])
        XCTAssertEqual(flow.delegateCalls, ["didEnterAddress", "didCancel"])
    }

    // spec E1: a sync driver against an async delegate is deterministic once it awaits
    // `waitUntilIdle()` between actions: no action is refused with `callbackPending`.
    func testWaitUntilIdleMakesASyncDriverDeterministic() async throws {
        for run in 0..<200 {
            let merchant = AnswersLater()
            let flow = try PaymentAuthorizationFlow(
                request: F.request(), delegate: merchant, options: FlowOptions(clock: ManualClock()))
            XCTAssertEqual(flow.present(), .accepted)
            XCTAssertEqual(flow.selectShippingContact(F.jane()), .accepted)
            await flow.waitUntilIdle()
            XCTAssertEqual(flow.selectShippingMethod("express"), .accepted, "run \(run)")
            await flow.waitUntilIdle()
            XCTAssertEqual(flow.sheet?.selectedShippingMethodID, "express", "run \(run)")
            XCTAssertEqual(flow.authorize(F.token()), .accepted, "run \(run)")
            guard case .success = await flow.waitUntilEnded() else { return XCTFail("run \(run): not authorized") }
            XCTAssertEqual(flow.violations, [], "run \(run)")
        }
    }
}

/// An async shipping delegate that answers only once its task is cancelled, and records whether it
/// was.
private final class WaitsForCancellation: AsyncShippingAddressDelegate {
    private let seen = LockedValue<[Bool]>([])
    private let gate = Gate()

    var sawCancellation: [Bool] { seen.withLock { $0 } }

    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {}

    func shippingAddressFlow(_ flow: ShippingAddressFlow, didEnter address: Contact) async
        -> ShippingAddressValidation
    {
        await withTaskCancellationHandler {
            await gate.wait()
        } onCancel: {
            gate.open()
        }
        let cancelled = Task.isCancelled
        seen.withLock { $0.append(cancelled) }
        return .valid
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didFinishWith address: Contact, shippingMethod: ShippingMethod?
    ) {}
}

/// A one-shot latch: `wait()` returns once `open()` has been called, before or after.
private final class Gate: Sendable {
    private let state = LockedValue<(isOpen: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func wait() async {
        await withCheckedContinuation { continuation in
            let openNow = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiter = continuation
                return false
            }
            if openNow { continuation.resume() }
        }
    }

    func open() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isOpen = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}

/// An async authorization delegate that suspends before each answer, so that the answer arrives
/// after the driver's sync action has returned.
private final class AnswersLater: AsyncPaymentAuthorizationDelegate {
    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}

    func paymentAuthorizationFlow(_ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment) async
        -> PaymentAuthorizationResult
    {
        await Task.yield()
        return .success
    }

    func paymentAuthorizationFlow(_ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact) async
        -> ShippingContactUpdate
    {
        await Task.yield()
        return ShippingContactUpdate(summaryItems: FlowsFixture.summary("20.00"))
    }

    func paymentAuthorizationFlow(_ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod)
        async -> ShippingMethodUpdate
    {
        await Task.yield()
        return ShippingMethodUpdate(summaryItems: FlowsFixture.summary("29.99"))
    }
}
