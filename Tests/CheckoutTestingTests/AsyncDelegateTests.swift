import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutPayContextTesting
import CheckoutTesting
import XCTest

/// Parks an async delegate method until its task is cancelled, and records, for each method that
/// returned, whether its task was cancelled then.
private final class CancellationGate: Sendable {
    private struct State {
        var cancelled = false
        var parked: CheckedContinuation<Void, Never>?
        var entered = false
        var enterWaiters: [CheckedContinuation<Void, Never>] = []
        var sawCancellation: [Bool] = []
    }

    private let state = LockedValue(State())

    /// For each parked method that returned, whether its task was cancelled then.
    var sawCancellation: [Bool] { state.withLock { $0.sawCancellation } }

    /// Returns once a method has entered ``park()``.
    func waitUntilEntered() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.entered { return true }
                state.enterWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Returns once the calling task is cancelled.
    func park() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (resumeNow, waiters) = state.withLock { state in
                    state.entered = true
                    defer { state.enterWaiters = [] }
                    if state.cancelled { return (true, state.enterWaiters) }
                    state.parked = continuation
                    return (false, state.enterWaiters)
                }
                for waiter in waiters { waiter.resume() }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let parked = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.cancelled = true
                defer { state.parked = nil }
                return state.parked
            }
            parked?.resume()
        }
        let cancelled = Task.isCancelled
        state.withLock { $0.sawCancellation.append(cancelled) }
    }
}

/// An async merchant whose address check waits until its task is cancelled.
private final class WaitsForCancellation: AsyncShippingAddressDelegate {
    let gate = CancellationGate()

    /// For each address check that returned, whether its task was cancelled then.
    var sawCancellation: [Bool] { gate.sawCancellation }

    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {}

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didFinishWith address: Contact, shippingMethod: ShippingMethod?
    ) {}

    func shippingAddressFlow(_ flow: ShippingAddressFlow, didEnter address: Contact) async -> ShippingAddressValidation
    {
        await gate.park()
        return .valid
    }
}

/// An async pay-context merchant whose intent creation waits until its task is cancelled.
private final class PayContextWaitsForCancellation: AsyncPayContextDelegate {
    let gate = CancellationGate()

    func payContext(
        _ context: PayContext, didCreatePaymentMethod paymentMethod: StripePaymentMethod, paymentInformation: Payment
    ) async -> IntentAnswer {
        await gate.park()
        return .completeWithoutConfirming
    }

    func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {}
}

/// An async merchant that answers every address check at once.
private struct AnswersValid: AsyncShippingAddressDelegate {
    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {}
    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didFinishWith address: Contact, shippingMethod: ShippingMethod?
    ) {}
    func shippingAddressFlow(_ flow: ShippingAddressFlow, didEnter address: Contact) async -> ShippingAddressValidation
    {
        .valid
    }
}

/// The engine's part of the issue, proved through the kit: the flow's end cancels its async
/// delegate tasks, and `waitUntilIdle()` makes a sync driver against an async delegate
/// deterministic.
final class AsyncDelegateTests: XCTestCase {
    private typealias F = KitFixture

    // spec E3: cancel() while the async address check runs: the check's task is cancelled, the
    // flow becomes idle, and the answer it then gives is late, not a failure.
    func testTheEndCancelsAnAsyncDelegateTask() async throws {
        let merchant = WaitsForCancellation()
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: merchant, options: .testing())
        flow.present()
        XCTAssertTrue(flow.enterAddress(F.jane()).isAccepted)
        XCTAssertEqual(flow.step, .validatingAddress)
        XCTAssertTrue(flow.cancel().isAccepted)
        let idle = await waitUntilIdle(flow)
        XCTAssertTrue(idle, "the cancelled check returned")
        XCTAssertEqual(merchant.sawCancellation, [true])
        XCTAssertEqual(flow.outcome, .cancelled)
        XCTAssertEqual(flow.delegateCalls, ["didEnterAddress", "didCancel"])
        XCTAssertEqual(flow.violations.map(\.kind), [.lateCompletion])
    }

    // Without the cancel, the same merchant keeps the flow busy: waitUntilIdle times out and
    // says so; the cancel then frees it.
    func testWaitUntilIdleFailsWhileAnAsyncDelegateRuns() async throws {
        let merchant = WaitsForCancellation()
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: merchant, options: .testing())
        flow.present()
        flow.enterAddress(F.jane())
        let failures = await withRecordedFailures {
            let idle = await waitUntilIdle(flow, timeout: .milliseconds(50))
            XCTAssertFalse(idle)
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.message.hasPrefix("timed out after 0.05 seconds waiting for the flow to be idle") ?? false)
        XCTAssertEqual(merchant.sawCancellation, [])
        flow.cancel()
        await flow.waitUntilIdle()
        XCTAssertEqual(merchant.sawCancellation, [true])
    }

    // spec E6: the sync driver against an async delegate; after waitUntilIdle the answer has
    // been applied, every time.
    func testASyncDriverAgainstAnAsyncDelegateIsDeterministicAfterWaitUntilIdle() async throws {
        for _ in 0..<200 {
            let flow = try ShippingAddressFlow(configuration: .init(), delegate: AnswersValid(), options: .testing())
            flow.present()
            XCTAssertTrue(flow.enterAddress(F.jane()).isAccepted)
            await flow.waitUntilIdle()
            XCTAssertEqual(flow.outcome, .finished(address: F.jane(), shippingMethod: nil))
            XCTAssertEqual(flow.delegateCalls, ["didEnterAddress", "didFinish"])
        }
    }

    // spec E3: the authorization flow's cancel cancels the task of its async shipping-contact
    // callback too.
    func testTheEndCancelsAnAsyncAuthorizationDelegateTask() async throws {
        let gate = CancellationGate()
        let merchant = F.AsyncAuthorizationMerchant(contact: { flow in
            await gate.park()
            return flow.defaultShippingContactUpdate()
        })
        let flow = try PaymentAuthorizationFlow(request: F.request(), delegate: merchant, options: .testing())
        flow.present()
        XCTAssertTrue(flow.selectShippingContact(F.jane()).isAccepted)
        XCTAssertTrue(flow.cancel().isAccepted)
        let idle = await waitUntilIdle(flow)
        XCTAssertTrue(idle, "the cancelled callback returned")
        XCTAssertEqual(gate.sawCancellation, [true])
        XCTAssertEqual(flow.outcome, .cancelled)
        XCTAssertEqual(flow.delegateCalls, ["didSelectShippingContact", "didFinish"])
        XCTAssertEqual(flow.violations.map(\.kind), [.lateCompletion])
    }

    // spec E3, P5: a cancel before the confirmation cancels the task of the pay context's async
    // didCreatePaymentMethod; its late answer confirms nothing.
    func testTheEndCancelsAnAsyncPayContextDelegateTask() async throws {
        let merchant = PayContextWaitsForCancellation()
        let backend = RecordingPaymentBackend()
        // The merchant leaves the shipping contact to the protocol's default (spec E11).
        let context = try PayContext(
            request: F.request(), backend: backend, delegate: merchant,
            options: .testing(expectingDefaultAnswers: [.didSelectShippingContact]))
        context.present()
        _ = try await context.selectShippingContactAndWait(F.jane())
        let authorized = context.authorize(F.card(.success))
        guard authorized.isAccepted else { return XCTFail("\(authorized)") }
        await merchant.gate.waitUntilEntered()
        let outcome = try await context.cancelAndWait()
        XCTAssertEqual(outcome.status, .userCancellation)
        let idle = await waitUntilIdle(context)
        XCTAssertTrue(idle)
        XCTAssertEqual(merchant.gate.sawCancellation, [true])
        XCTAssertEqual(backend.calledMethods, ["createPaymentMethod"], "nothing confirmed")
        XCTAssertEqual(context.delegateCalls, ["didSelectShippingContact", "didCreatePaymentMethod", "didComplete"])
    }

    // The nondeterminism, on the authorization flow: a sync driver selects a contact and
    // then a method against an async merchant. After waitUntilIdle the first answer has been
    // applied and the second action is accepted, every time (200 runs; before, the method was
    // refused with callbackPending about half the time).
    func testASyncDriverAgainstAnAsyncAuthorizationDelegateIsDeterministic() async throws {
        let merchant = F.AsyncAuthorizationMerchant(
            contact: { _ in ShippingContactUpdate(summaryItems: F.summary("25.00")) },
            method: { _ in ShippingMethodUpdate(summaryItems: F.summary("30.00")) })
        for _ in 0..<200 {
            let flow = try PaymentAuthorizationFlow(request: F.request(), delegate: merchant, options: .testing())
            flow.present()
            XCTAssertTrue(flow.selectShippingContact(F.jane()).isAccepted)
            await flow.waitUntilIdle()
            XCTAssertEqual(flow.sheet?.summaryItems.last?.amount, F.money("25.00"))
            XCTAssertTrue(flow.selectShippingMethod("express").isAccepted)
            await flow.waitUntilIdle()
            XCTAssertEqual(flow.sheet?.summaryItems.last?.amount, F.money("30.00"))
            XCTAssertEqual(flow.cancel(), .accepted)
            XCTAssertEqual(
                flow.delegateCalls, ["didSelectShippingContact", "didSelectShippingMethod", "didFinish"])
            XCTAssertEqual(flow.violations, [])
        }
    }
}
