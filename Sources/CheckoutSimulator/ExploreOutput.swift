import Foundation

/// What `checkout-sim explore` prints: the same bytes for the same scenario, seed and count of
/// sessions (no timings unless `--rate` asks, on standard error), each distinct problem once, with
/// a replay command that runs as printed.
package struct ExploreOutput {
    let report: ExploreReport
    let scenario: Scenario
    let file: String
    let seed: UInt64

    /// `checkout-sim explore 'FILE' --sessions 1 --seed SEED`.
    func replay(_ seed: UInt64) -> String {
        "checkout-sim explore \(Self.shellQuoted(file)) --sessions 1 --seed \(seed)"
    }

    /// A word the shell reads back as `text`: as it is when it holds only safe characters, in
    /// single quotes otherwise.
    package static func shellQuoted(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (CharacterSet.alphanumerics.contains(scalar) || "-_./:@%+=,".unicodeScalars.contains(scalar))
        }
        if safe, !text.isEmpty { return text }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    static func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }

    /// Why a session can be `running`: explore's steps are random, and most lists end before an
    /// ending step.
    var runningNote: String {
        "the session's random steps ran out while the flow was still open (no done, cancel or "
            + "authorization ended it), which is not a problem"
    }

    func lines() -> [String] {
        var lines = ["explored \(Self.plural(report.sessions, "session")) of '\(scenario.name)' (seed \(seed))"]
        lines.append("how the sessions ended:")
        for (outcome, count) in report.outcomes.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(outcome): \(count)")
        }
        if let running = report.outcomes["running"], running > 0 {
            lines.append("  running means \(runningNote):")
            for (callback, count) in report.running.sorted(by: { $0.key < $1.key }) {
                lines.append(
                    callback.isEmpty
                        ? "    \(count) with the sheet open and no answer owed"
                        : "    \(count) waiting for the merchant's answer to \(callback) (a late or missing answer, "
                            + "or steps that ended before the deadline)")
            }
        }
        if report.failures.isEmpty {
            lines.append("no invariant broke and the merchant kept the contract in every session")
            return lines
        }
        lines.append(
            "\(Self.plural(report.failedSessions, "session")) failed; "
                + "\(Self.plural(report.failures.count, "distinct problem")):")
        for (index, failure) in report.failures.enumerated() {
            lines.append("\(index + 1). \(failure.problems.joined(separator: "; "))")
            lines.append("   seen in \(Self.plural(failure.sessions, "session")); first with seed \(failure.seed)")
            lines.append("   replay: \(replay(failure.seed))")
            lines.append("   shortest steps: " + failure.steps.map(\.description).joined(separator: " → "))
            if !failure.merchantVariation.isEmpty {
                let variation = failure.merchantVariation.map { "\($0.callback): \($0.kind.rawValue)" }
                lines.append("   merchant: " + variation.joined(separator: ", "))
            }
        }
        return lines
    }

    /// The sessions still `running` at the end of their steps, as `--json` gives them:
    /// `{"noAnswerOwed": N, "waitingFor": {"didEnterAddress": M}}`.
    var runningObject: [String: Any] {
        var waiting = report.running
        let idle = waiting.removeValue(forKey: "") ?? 0
        return ["noAnswerOwed": idle, "waitingFor": waiting]
    }

    func json() -> String {
        let object: [String: Any] = [
            "scenario": scenario.name, "file": file, "seed": seed, "sessions": report.sessions,
            "outcomes": report.outcomes, "failedSessions": report.failedSessions, "running": runningObject,
            "problems": report.failures.map { failure -> [String: Any] in
                [
                    "problems": failure.problems, "seed": failure.seed, "sessions": failure.sessions,
                    "replay": replay(failure.seed), "steps": failure.steps.map(\.description),
                    "merchant": failure.merchantVariation.map { ["callback": $0.callback, "kind": $0.kind.rawValue] },
                ]
            },
        ]
        let data =
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
