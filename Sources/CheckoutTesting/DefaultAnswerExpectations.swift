import CheckoutFlows

/// The default answers a test of `FlowOptions.testing(expectingDefaultAnswers:)` expects, and
/// those seen so far (spec E11).
final class DefaultAnswerExpectations: Sendable {
    private struct State {
        var seen: Set<DelegateMethod> = []
        var reportedMissing: Set<DelegateMethod> = []
    }

    private let expected: Set<DelegateMethod>
    private let state = LockedValue(State())

    init(_ expected: Set<DelegateMethod>) { self.expected = expected }

    /// Notes the default answer; whether it fails the test (its method not expected).
    func isFailure(_ method: DelegateMethod) -> Bool {
        state.withLock { _ = $0.seen.insert(method) }
        return !expected.contains(method)
    }

    /// The expected methods no default has answered and not yet reported missing, in name order;
    /// they are reported missing from now on.
    func missingMethodsToReport() -> [DelegateMethod] {
        state.withLock { state in
            let missing = expected.subtracting(state.seen).subtracting(state.reportedMissing)
            state.reportedMissing.formUnion(missing)
            return missing.sorted { $0.rawValue < $1.rawValue }
        }
    }
}
