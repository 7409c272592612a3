import CheckoutFlows

extension FlowOptions {
    /// Options for a delegate author's tests (strict mode, spec E2): deadlines on `clock`
    /// (virtual time, moved by the test), and every violation that is the delegate's fault
    /// (``/CheckoutFlows/Violation/Kind/delegateFaults``: `completionCalledTwice`,
    /// `completionTimedOut`, `invalidUpdate`) fails the test, pointing at the caller of
    /// `testing()`. The flow behaves exactly as it would without these options; `lateCompletion`
    /// alone is not a failure.
    ///
    /// Violations of the kinds in `expecting` are not failures; an expected kind that has not
    /// happened by the time the flow ends (its terminal delegate call has returned) fails the
    /// test then. The options may be shared by the flows of one test: the violations of all of
    /// them count, and the expectations are checked each time one of them ends, each missing kind
    /// reported once. A flow that never ends checks nothing: end it, or use
    /// `waitUntilEnded(_:timeout:)`.
    ///
    /// An optional callback answered by its protocol's default (the merchant does not implement it,
    /// or spelled it nearly like the requirement: spec A9, E11) fails the test too, unless its
    /// method is in `expectingDefaultAnswers`; an expected method that no default has answered by
    /// the time the flow ends fails the test then, as a missing violation does. A recording
    /// delegate's ``ScriptedAnswer/protocolDefault`` is the test's own answer, not a default.
    ///
    /// The failures go where ``TestFailureReporter/current`` sends them when the options are
    /// made (an installed ``TestFailureRecorder``, Swift Testing, or XCTest), also when a
    /// violation is reported later from another thread.
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let options = FlowOptions.testing(clock: clock, expecting: [.completionTimedOut])
    /// let lenient = FlowOptions.testing(expectingDefaultAnswers: [.willAuthorizePayment])
    /// ```
    public static func testing(
        clock: ManualClock = ManualClock(),
        callbackTimeout: Duration? = .seconds(30),
        expecting expected: Set<Violation.Kind> = [],
        expectingDefaultAnswers expectedDefaults: Set<DelegateMethod> = [],
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> FlowOptions {
        let reporter = TestFailureReporter.current
        let location = TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column)
        let expectations = ViolationExpectations(expected)
        let defaults = DefaultAnswerExpectations(expectedDefaults)
        return FlowOptions(
            callbackTimeout: callbackTimeout,
            clock: clock,
            onViolation: { violation in
                guard expectations.isFailure(violation) else { return }
                reporter.report(FlowChecks.violationFailure(violation), at: location)
            },
            onEnd: {
                for kind in expectations.missingKindsToReport() {
                    reporter.report(FlowChecks.missingViolationFailure(kind), at: location)
                }
                for method in defaults.missingMethodsToReport() {
                    reporter.report(FlowChecks.missingDefaultAnswerFailure(method), at: location)
                }
            },
            onDefaultAnswer: { method in
                guard defaults.isFailure(method) else { return }
                reporter.report(FlowChecks.defaultAnswerFailure(method), at: location)
            }
        )
    }
}

/// The violations a test of `FlowOptions.testing(expecting:)` expects, and those seen so far.
final class ViolationExpectations: Sendable {
    private struct State {
        var seen: Set<Violation.Kind> = []
        var reportedMissing: Set<Violation.Kind> = []
    }

    private let expected: Set<Violation.Kind>
    private let state = LockedValue(State())

    init(_ expected: Set<Violation.Kind>) { self.expected = expected }

    /// Notes the violation; whether it fails the test (a delegate fault not expected).
    func isFailure(_ violation: Violation) -> Bool {
        state.withLock { _ = $0.seen.insert(violation.kind) }
        return violation.kind.isDelegateFault && !expected.contains(violation.kind)
    }

    /// The expected kinds not seen and not yet reported missing, in name order; they are
    /// reported missing from now on.
    func missingKindsToReport() -> [Violation.Kind] {
        state.withLock { state in
            let missing = expected.subtracting(state.seen).subtracting(state.reportedMissing)
            state.reportedMissing.formUnion(missing)
            return missing.sorted { $0.rawValue < $1.rawValue }
        }
    }
}
