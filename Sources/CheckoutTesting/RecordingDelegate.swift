import CheckoutFlows

/// What the recording delegates (``RecordingShippingAddressDelegate``,
/// ``RecordingPaymentAuthorizationDelegate``, and `RecordingPayContextDelegate` in
/// `CheckoutPayContextTesting`) have in common: the ordered record of their calls, the
/// enter/exit trace, and a way to wait for a call.
public protocol RecordingDelegate: AnyObject, Sendable {
    /// Every delegate call, in order, with its arguments.
    var calls: [RecordedCall] { get }

    /// `>method` when a delegate method is entered and `<method` when it returns, in order. Calls
    /// that never nest nor overlap give pairs: `[">didEnterAddress", "<didEnterAddress", ...]`;
    /// ``assertNoNesting(_:fileID:filePath:line:column:)`` checks it.
    var trace: [String] { get }

    /// Returns true once `method` has been called `times` times in all and each of those calls
    /// has returned, or false when `timeout` (real time) passes first. Reports nothing: the
    /// assertion form is ``waitUntilCalled(_:times:timeout:flow:fileID:filePath:line:column:)``.
    func wait(for method: String, times: Int, timeout: Duration) async -> Bool
}

extension RecordingDelegate {
    /// The names of the methods called, in order, such as `["didEnterAddress", "didFinish"]`.
    public var calledMethods: [String] { calls.map(\.method) }

    /// Returns once `method` has been called `times` times in all and each of those calls has
    /// returned: for flows whose delegate calls come from other threads (the pay context, async
    /// drivers). Never sleeps, and never hangs: after `timeout` (real time) it fails the test with
    /// the calls made so far (and, given the `flow`, its last refusal and its transcript) and
    /// returns false.
    @discardableResult
    public func waitUntilCalled(
        _ method: String,
        times: Int = 1,
        timeout: Duration = .seconds(10),
        flow: (any CheckoutFlow)? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Bool {
        let reporter = TestFailureReporter.current
        guard await wait(for: method, times: times, timeout: timeout) else {
            reporter.report(
                FlowChecks.waitFailure(
                    "\(method) to be called \(times) time(s) and return", timeout: timeout,
                    seen: "calls so far: \(calledMethods)", transcript: flow?.transcript),
                at: TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column)
            )
            return false
        }
        return true
    }
}
