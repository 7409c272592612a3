import CheckoutFlows

/// The checks behind the assertions of this library, as plain functions: each returns the
/// failure message, or nil when the check passes. Use them to build assertions of your own
/// (report with ``reportTestFailure(_:fileID:filePath:line:column:)``).
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

    /// Checks that the merchant's delegate calls (``/CheckoutFlows/CheckoutFlow/delegateCalls``)
    /// are exactly `expected`, in order. The message shows both lists and the flow's transcript.
    public static func delegateCallsFailure(_ flow: some CheckoutFlow, _ expected: [String]) -> String? {
        let actual = flow.delegateCalls
        guard actual != expected else { return nil }
        return "delegate calls \(actual) are not \(expected)\n" + transcriptText([flow.transcript])
    }

    /// The failure message of strict mode for a violation that is the delegate's fault
    /// (`FlowOptions.testing()`).
    public static func violationFailure(_ violation: Violation) -> String {
        "contract violation: \(violation)"
    }

    /// The failure message of strict mode for an expected violation that had not happened when
    /// the flow ended (`FlowOptions.testing(expecting:)`).
    public static func missingViolationFailure(_ kind: Violation.Kind) -> String {
        "expected violation \(kind) did not happen before the flow ended"
    }

    /// The failure message of strict mode for an optional callback its protocol's default answered
    /// in the merchant's place (`FlowOptions.testing()`, spec E11).
    public static func defaultAnswerFailure(_ method: DelegateMethod) -> String {
        "the protocol's default answered \(method.name) in the merchant's place: implement it (a method spelled "
            + "nearly like the requirement is never called), or declare it in FlowOptions.testing("
            + "expectingDefaultAnswers:)"
    }

    /// The failure message of strict mode for an expected default answer that had not happened
    /// when the flow ended (`FlowOptions.testing(expectingDefaultAnswers:)`).
    public static func missingDefaultAnswerFailure(_ method: DelegateMethod) -> String {
        "expected default answer to \(method.name) did not happen before the flow ended"
    }

    /// The flow's last refused driver action in `transcript`, as `action: refusal`, or nil.
    public static func lastRefusal(_ transcript: Transcript) -> String? {
        for entry in transcript.entries.reversed() {
            if case .refused(let action, let refusal) = entry.event { return "\(action): \(refusal)" }
        }
        return nil
    }

    /// The failure message of a wait that timed out: what it waited for, what it saw (`seen`),
    /// and, when there is a flow, its last refusal and its transcript.
    public static func waitFailure(
        _ waitedFor: String,
        timeout: Duration,
        seen: String,
        transcript: Transcript?
    ) -> String {
        var message = "timed out after \(timeout) waiting for \(waitedFor); \(seen)"
        if let transcript {
            message += "\nlast refusal: " + (lastRefusal(transcript) ?? "none")
            message += "\n" + transcriptText([transcript])
        }
        return message
    }

    static func transcriptText(_ transcripts: [Transcript]) -> String {
        transcripts.map { "transcript:\n" + $0.text() }.joined(separator: "\n")
    }
}
