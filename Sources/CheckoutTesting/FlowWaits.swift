import CheckoutFlows
import Dispatch

/// Waits until `flow` has ended (its terminal delegate method has returned) and returns the
/// outcome; after `timeout` (real time) fails the test with the merchant's calls so far, the
/// flow's last refusal and its transcript, and returns nil. Never hangs a test run.
///
/// The timeout is real time because what the flow waits for comes from other threads (a
/// backend, an async delegate); virtual deadlines are moved by the test's `ManualClock`.
@discardableResult
public func waitUntilEnded<Flow: CheckoutFlow>(
    _ flow: Flow,
    timeout: Duration = .seconds(10),
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async -> Flow.Outcome? {
    let reporter = TestFailureReporter.current
    let outcome = await withTimeout(timeout) { await flow.waitUntilEnded() }
    if outcome == nil {
        reporter.report(
            FlowChecks.waitFailure(
                "the flow to end", timeout: timeout, seen: "delegate calls so far: \(flow.delegateCalls)",
                transcript: flow.transcript),
            at: TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }
    return outcome
}

/// Waits until no async delegate method or backend call of `flow` is running
/// (``/CheckoutFlows/CheckoutFlow/waitUntilIdle()``) and returns true; after `timeout` (real
/// time) fails the test with the merchant's calls so far, the flow's last refusal and its
/// transcript, and returns false.
@discardableResult
public func waitUntilIdle(
    _ flow: some CheckoutFlow,
    timeout: Duration = .seconds(10),
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async -> Bool {
    let reporter = TestFailureReporter.current
    let idle = await withTimeout(timeout) { await flow.waitUntilIdle() } != nil
    if !idle {
        reporter.report(
            FlowChecks.waitFailure(
                "the flow to be idle", timeout: timeout, seen: "delegate calls so far: \(flow.delegateCalls)",
                transcript: flow.transcript),
            at: TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }
    return idle
}

/// The value of `operation`, or nil when `timeout` (real time) passes first; the operation is
/// then cancelled and left to finish on its own.
func withTimeout<Value: Sendable>(
    _ timeout: Duration,
    _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
        let slot = LockedValue<CheckedContinuation<Value?, Never>?>(continuation)
        let task = Task {
            let value = await operation()
            slot.withLock { $0.take() }?.resume(returning: value)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) {
            guard let expired = slot.withLock({ $0.take() }) else { return }
            task.cancel()
            expired.resume(returning: nil)
        }
    }
}
