import CheckoutCore
import CheckoutFlows
import CheckoutSimulator
import Dispatch
import Foundation
import XCTest

/// How many random sessions a test runs: `CHECKOUT_SESSIONS` (CI sets 100,000), else `local`.
func sessionCount(default local: Int) -> Int {
    ProcessInfo.processInfo.environment["CHECKOUT_SESSIONS"].flatMap(Int.init) ?? local
}

/// The first seed: `CHECKOUT_SEED`, else a fixed one, so that runs are reproducible.
func firstSeed() -> UInt64 {
    ProcessInfo.processInfo.environment["CHECKOUT_SEED"].flatMap(UInt64.init) ?? 20_261_130
}

/// Runs `sessions` random sessions; on the first failure, shrinks its steps and fails the test
/// with the seed and the shrunk list.
func runSessions<Step: CustomStringConvertible>(
    _ name: String,
    sessions: Int,
    generate: (inout SeededGenerator) -> [Step],
    run: ([Step]) -> String?,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let base = firstSeed()
    for index in 0..<sessions {
        let seed = base &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
        var random = SeededGenerator(seed: seed)
        let steps = generate(&random)
        guard let problem = run(steps) else { continue }
        // Shrink: drop steps one at a time while the session still fails.
        var shrunk = steps
        var position = 0
        while position < shrunk.count {
            var candidate = shrunk
            candidate.remove(at: position)
            if run(candidate) != nil { shrunk = candidate } else { position += 1 }
        }
        let list = shrunk.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
        XCTFail(
            "\(name): session \(index) (seed \(seed); rerun with CHECKOUT_SEED=\(seed) CHECKOUT_SESSIONS=1) failed: "
                + "\(problem)\n  first problem of the shrunk session: \(run(shrunk) ?? "?")\nsteps:\n\(list)",
            file: file,
            line: line
        )
        return
    }
}

/// Watches delegate calls: overlapping or nested calls, and calls after the terminal one.
struct CallWatch {
    var calls: [String] = []
    var inside = 0
    var overlaps = 0
    var afterTerminal = 0
    var terminals = 0

    mutating func enter(_ method: String, terminal: Bool = false) {
        if inside > 0 { overlaps += 1 }
        if terminals > 0 { afterTerminal += 1 }
        if terminal { terminals += 1 }
        inside += 1
        calls.append(method)
    }

    mutating func exit() { inside -= 1 }

    /// The invariants of E1, E5, E6 that the watch sees.
    func problems(ended: Bool) -> String? {
        if overlaps > 0 { return "E6: \(overlaps) delegate calls overlapped or nested" }
        if afterTerminal > 0 { return "E5: \(afterTerminal) delegate calls after the terminal one" }
        if ended && terminals != 1 { return "E5: \(terminals) terminal calls" }
        if !ended && terminals != 0 { return "E5: a terminal call before the end" }
        return nil
    }
}

/// A contact with every kind of personal data, to check redaction and masking.
let sessionContact = Contact(
    name: "Ada Lovelace",
    emailAddress: "ada@example.com",
    phoneNumber: "+44 20 7946 0000",
    postalAddress: Address(
        line1: "12 St James's Square",
        city: "London",
        postalCode: "SW1Y 4LB",
        country: try? CountryCode("GB")
    )
)

/// E8: a masked rendering shows none of the contact's personal data. The JSON rendering is the
/// slow part of a session, so it is checked in one session out of eight (by step count).
func personalDataLeak(in transcript: Transcript, steps: Int) -> String? {
    let renderings = steps % 8 == 0 ? [transcript.text(), transcript.json()] : [transcript.text()]
    for secret in ["Ada Lovelace", "ada@example.com", "7946", "St James"] {
        if renderings.contains(where: { $0.contains(secret) }) { return "E8: a masked rendering shows \(secret)" }
    }
    return nil
}

/// What the real flow showed after one step beside what the model says: the first disagreement
/// or broken invariant, as a line naming the step, or nil.
struct StepComparison {
    /// The step's refusal code and the model's; nil when the step was no driver action.
    var refusal: (actual: String?, expected: String?)?
    var calls: (actual: [String], expected: [String])
    var violations: (actual: [String], expected: [String])
    var outcome: (actual: String?, expected: String?)
    var watch: CallWatch

    func problem(afterStep index: Int, _ step: some CustomStringConvertible) -> String? {
        let prefix = "after step \(index + 1) (\(step)): "
        if let refusal, refusal.actual != refusal.expected {
            return prefix + "refusal \(refusal.actual ?? "none"), the model says \(refusal.expected ?? "none")"
        }
        if calls.actual != calls.expected {
            return prefix + "delegate calls \(calls.actual), the model says \(calls.expected)"
        }
        if violations.actual != violations.expected {
            return prefix + "violations \(violations.actual), the model says \(violations.expected)"
        }
        if outcome.actual != outcome.expected {
            return prefix + "outcome \(outcome.actual ?? "none"), the model says \(outcome.expected ?? "none")"
        }
        return watch.problems(ended: outcome.expected != nil).map { prefix + $0 }
    }
}

/// Runs `body` here, or on another thread and waits for it, so that the session stays
/// deterministic either way.
func runAnswer(fromAnotherThread: Bool, _ body: @escaping @Sendable () -> Void) {
    guard fromAnotherThread else { return body() }
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body()
        done.signal()
    }
    done.wait()
}

/// Ends a session's life: a session that stopped with a callback outstanding keeps its flow, the
/// merchant and the clock alive in a cycle (the flow holds the merchant until its terminal call,
/// the merchant holds the completions, the clock holds the deadline), and a soak of millions of
/// sessions would keep them all. Forgets the clock's deadlines and, in `forgetCompletions`, the
/// completions the merchant still holds.
func releaseSession(_ clock: ManualClock, forgetCompletions: () -> Void) {
    clock.discardPendingDeadlines()
    forgetCompletions()
}
