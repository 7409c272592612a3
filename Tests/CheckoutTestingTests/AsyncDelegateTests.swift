import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import XCTest

/// An async merchant whose address check waits until its task is cancelled, and says whether it
/// saw the cancellation.
private final class WaitsForCancellation: AsyncShippingAddressDelegate {
    private struct State {
        var cancelled = false
        var parked: CheckedContinuation<Void, Never>?
        var sawCancellation: [Bool] = []
    }

    private let state = LockedValue(State())

    /// For each address check that returned, whether its task was cancelled then.
    var sawCancellation: [Bool] { state.withLock { $0.sawCancellation } }

    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {}

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didFinishWith address: Contact, shippingMethod: ShippingMethod?
    ) {}

    func shippingAddressFlow(_ flow: ShippingAddressFlow, didEnter address: Contact) async -> ShippingAddressValidation
    {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.cancelled { return true }
                    state.parked = continuation
                    return false
                }
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
        return .valid
    }
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
}
