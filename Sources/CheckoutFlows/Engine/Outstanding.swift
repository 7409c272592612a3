import Synchronization

/// A delegate callback whose completion is outstanding: which one, its id and its deadline.
///
/// Each flow's state machine keeps the outstanding callback inside the state case that waits for
/// it, so that leaving the state ends it: exactly-once holds by construction. Ids count up from 1
/// in each flow, so a stale or repeated completion is recognised by its id (spec E2).
package struct Outstanding<Callback: Sendable>: Sendable {
    package let id: UInt64
    package let callback: Callback
    /// The delegate method's name, for refusals, violations and the transcript.
    package let method: String
    /// When it times out, on the flow's clock; nil when deadlines are off.
    package let deadline: Duration?

    /// How an answer carrying this callback's id is to be taken at time `now`.
    package func arrival(at now: Duration) -> Arrival {
        if let deadline, now >= deadline { return .pastDeadline }
        return .inTime
    }

    package enum Arrival {
        /// Apply it.
        case inTime
        /// The deadline has passed, even if its timer has not fired yet: an answer arriving
        /// exactly at the deadline is late (spec E4).
        case pastDeadline
    }
}

/// Hands out callback ids and deadlines.
package struct CallbackLedger: Sendable {
    private var lastID: UInt64 = 0
    package let timeout: Duration?

    package init(timeout: Duration?) { self.timeout = timeout }

    /// Opens a callback at time `now`; `timed: false` opens it without a deadline of its own (one
    /// that runs under an enclosing deadline, as the pay context's callbacks run under the sheet's).
    package mutating func open<Callback>(_ callback: Callback, _ method: String, at now: Duration, timed: Bool = true)
        -> Outstanding<Callback>
    {
        lastID += 1
        let deadline = timed ? timeout.map { now + $0 } : nil
        return Outstanding(id: lastID, callback: callback, method: method, deadline: deadline)
    }
}

/// The exactly-once guard of one completion closure handed to a delegate: the first call claims
/// it, every later call is a repeat (spec E2).
package final class CompletionGate: Sendable {
    package let id: UInt64
    private let calls = Atomic<Int>(0)

    package init(id: UInt64) { self.id = id }

    /// True for the first call only.
    package func claim() -> Bool {
        calls.add(1, ordering: .relaxed).oldValue == 0
    }
}

/// How an outstanding callback ended, for the driver's `async` actions.
package enum Resolution<Answer: Sendable>: Sendable {
    case answered(Answer)
    case ended(CallbackEnded)
}

/// What a state machine keeps besides its state: the transcript, the violations, and the
/// resolutions of callbacks for the driver's `async` actions. Pure data: no clock, no lock.
package struct FlowLog: Sendable {
    package let recordsTranscript: Bool
    package private(set) var transcript = Transcript()
    package private(set) var violations: [Violation] = []

    package init(recordsTranscript: Bool) { self.recordsTranscript = recordsTranscript }

    package mutating func record(_ event: @autoclosure () -> TranscriptEvent, at now: Duration) {
        guard recordsTranscript else { return }
        transcript.entries.append(TranscriptEntry(time: now, event: event()))
    }

    /// Records a violation and returns it.
    @discardableResult
    package mutating func violation(
        _ kind: Violation.Kind,
        _ method: String,
        id: UInt64,
        at now: Duration,
        _ detail: String = ""
    ) -> Violation {
        let violation = Violation(kind: kind, callback: method, callbackID: id, time: now, detail: detail)
        violations.append(violation)
        record(.violation(violation), at: now)
        return violation
    }

    /// Records a refusal and returns it as the driver's answer.
    package mutating func refuse<Call>(_ action: String, _ refusal: Refusal, at now: Duration) -> Effect<Call> {
        record(.refused(action, refusal), at: now)
        return .refused(refusal)
    }
}

/// What a state machine tells its shell to do after an event.
package enum Effect<Call: Sendable>: Sendable {
    /// Nothing to call; the event was taken (or was a stale completion, already recorded).
    case none
    /// The driver's action is refused; nothing changed.
    case refused(Refusal)
    /// Call this delegate method.
    case call(Call)
}
