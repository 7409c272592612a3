import CheckoutFlows

/// The checks behind the XCTest assertions of this library, as plain functions: each returns the
/// failure message, or nil when the check passes. Use them to build assertions of your own, or
/// with another test framework.
public enum FlowChecks {
    /// Checks that the transcript's delegate calls (`Transcript.delegateCalls`) are exactly
    /// `expected`, in order. The message shows both lists and the transcript.
    public static func delegateCallsFailure(_ transcript: Transcript, _ expected: [String]) -> String? {
        let actual = transcript.delegateCalls
        guard actual != expected else { return nil }
        return "delegate calls \(actual) are not \(expected)\n" + transcriptText([transcript])
    }

    /// Checks that no transcript records a violation. The message lists the violations and shows
    /// each transcript.
    public static func violationsFailure(_ transcripts: [Transcript]) -> String? {
        let violations = transcripts.flatMap(\.violations)
        guard !violations.isEmpty else { return nil }
        return "\(violations.count) violation(s): "
            + violations.map(\.description).joined(separator: "; ") + "\n" + transcriptText(transcripts)
    }

    /// Checks that a trace of `>method` / `<method` marks (``RecordingDelegate/trace``) shows
    /// delegate calls that never nest nor overlap: each entry is followed by the exit of the same
    /// method before anything else, and every call has returned.
    public static func nestingFailure(_ trace: [String]) -> String? {
        for index in stride(from: 0, to: trace.count, by: 2) {
            let enter = trace[index]
            guard enter.hasPrefix(">") else {
                return "mark \(index) (\(enter)) should enter a method, in \(trace)"
            }
            guard index + 1 < trace.count else {
                return "\(enter.dropFirst()) has not returned, in \(trace)"
            }
            let exit = trace[index + 1]
            guard exit == "<" + enter.dropFirst() else {
                return "a delegate call nested in or overlapped \(enter.dropFirst()) at mark \(index + 1), in \(trace)"
            }
        }
        return nil
    }

    /// The failure message for a violation reported to `FlowOptions.onViolation` by the options
    /// of ``CheckoutFlows/FlowOptions/testing(clock:callbackTimeout:file:line:)``.
    public static func violationFailure(_ violation: Violation) -> String {
        "contract violation: \(violation)"
    }

    private static func transcriptText(_ transcripts: [Transcript]) -> String {
        transcripts.map { "transcript:\n" + $0.text() }.joined(separator: "\n")
    }
}
