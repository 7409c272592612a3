import CheckoutFlows

/// Collects the failures the kit reports instead of reporting them, while installed by
/// ``withRecordedFailures(_:)``: the way to prove that an assertion fails
/// (swift-corelibs-xctest has no `XCTExpectFailure`), under any test framework.
///
/// The recorder is a task-local value: it is seen by the assertions called inside the body on
/// the same task and its child tasks, and by the `FlowOptions.testing()` options made there,
/// which keep it for the violations they report later from any thread.
public final class TestFailureRecorder: Sendable {
    /// The recorder installed on the current task, if any.
    @TaskLocal public static var current: TestFailureRecorder?

    private let recorded = LockedValue<[TestFailure]>([])

    /// An empty recorder.
    public init() {}

    /// The failures recorded so far, in order.
    public var failures: [TestFailure] { recorded.withLock { $0 } }

    /// Records a failure.
    public func record(_ failure: TestFailure) {
        recorded.withLock { $0.append(failure) }
    }
}

/// Runs `body` with a fresh ``TestFailureRecorder`` installed and returns the failures the kit
/// reported meanwhile, instead of failing the test with them.
///
/// ```swift
/// let failures = withRecordedFailures {
///     assertDelegateCalls(Transcript(), ["didFinish"])
/// }
/// ```
public func withRecordedFailures(_ body: () throws -> Void) rethrows -> [TestFailure] {
    let recorder = TestFailureRecorder()
    try TestFailureRecorder.$current.withValue(recorder) { try body() }
    return recorder.failures
}

/// Runs `body` with a fresh ``TestFailureRecorder`` installed and returns the failures the kit
/// reported meanwhile, instead of failing the test with them.
public func withRecordedFailures(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows -> [TestFailure] {
    let recorder = TestFailureRecorder()
    try await TestFailureRecorder.$current.withValue(recorder) { try await body() }
    return recorder.failures
}
