import CheckoutFlows
import XCTest

extension FlowOptions {
    /// Options for a delegate author's tests: deadlines on `clock` (virtual time, moved by the
    /// test), strict mode (the first violation ends the flow), and every violation fails the test
    /// at `file` and `line` with ``FlowChecks/violationFailure(_:)``.
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let flow = PaymentAuthorizationFlow(request: request, delegate: Shop(), options: .testing(clock: clock))
    /// ```
    public static func testing(
        clock: ManualClock = ManualClock(),
        callbackTimeout: Duration? = .seconds(30),
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> FlowOptions {
        FlowOptions(
            callbackTimeout: callbackTimeout,
            clock: clock,
            onViolation: { violation in
                guard violation.kind.isDelegateFault else { return }
                XCTFail(FlowChecks.violationFailure(violation), file: file, line: line)
            }
        )
    }
}
