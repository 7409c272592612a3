import Synchronization

/// A delegate callback whose completion is outstanding: which one and its id.
///
/// Each flow's state machine keeps the outstanding callback inside the state case that waits for
/// it, so that leaving the state ends it: exactly-once holds by construction. Ids count up from 1
/// in each flow, so a stale or repeated completion is recognised by its id (spec E2). Its deadline
/// is kept by the ``CallbackLedger`` that opened it.
package struct Outstanding<Callback: Sendable>: Sendable {
    package let id: UInt64
    package let callback: Callback
    /// The delegate method's name, for refusals, violations and the transcript.
    package let method: String
}

/// Hands out callback ids, and keeps the deadline of the callback opened last.
///
/// A callback's deadline starts when its delegate method is called (``called(_:at:)``), not when
/// the state machine opens it: the call may wait behind the delegate call the flow is making, and
/// each callback gets its own full deadline (spec E4).
package struct CallbackLedger: Sendable {
    private var lastID: UInt64 = 0
    /// Whether the callback opened last has a deadline of its own.
    private var lastIsTimed = false
    /// The deadline of the callback opened last, once its delegate call has started.
    private var lastDeadline: Duration?
    package let timeout: Duration?

    package init(timeout: Duration?) { self.timeout = timeout }

    /// Opens a callback; `timed: false` opens it without a deadline of its own (one that runs
    /// under an enclosing deadline, as the pay context's callbacks run under the sheet's).
    package mutating func open<Callback>(_ callback: Callback, _ method: String, timed: Bool = true)
        -> Outstanding<Callback>
    {
        lastID += 1
        lastIsTimed = timed && timeout != nil
        lastDeadline = nil
        return Outstanding(id: lastID, callback: callback, method: method)
    }

    /// The delegate method of callback `id` is being called at `now`: its deadline starts, once.
    package mutating func called(_ id: UInt64, at now: Duration) {
        guard id == lastID, lastIsTimed, lastDeadline == nil, let timeout else { return }
        lastDeadline = now + timeout
    }

    /// When callback `id` times out: nil before its delegate call, without a deadline, or when it
    /// is not the callback opened last.
    package func deadline(of id: UInt64) -> Duration? {
        id == lastID ? lastDeadline : nil
    }

    /// How an answer to callback `id` is to be taken at time `now`.
    package func arrival(of id: UInt64, at now: Duration) -> Arrival {
        if let deadline = deadline(of: id), now >= deadline { return .pastDeadline }
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

/// The completion of one delegate callback: its exactly-once guard (the first call claims it,
/// every later call is a repeat, spec E2) and its way back to the flow, in one object.
///
/// Make the delegate's closure where the types are concrete, `{ completion.complete($0) }`: it
/// captures this object alone, so a callback costs a single allocation. (A closure made inside
/// this generic class would need a context of its own for the type's metadata.)
package final class Completion<Shell: AnyObject & Sendable, Value: Sendable>: Sendable {
    package let id: UInt64
    private let calls = Atomic<Int>(0)
    private let shell: Shell
    /// Takes the answer to the flow: the shell, the callback id, whether this call is the first,
    /// and the value. A closure that captures nothing, so that it needs no allocation of its own.
    private let deliver: @Sendable (Shell, UInt64, Bool, Value) -> Void

    package init(id: UInt64, shell: Shell, deliver: @escaping @Sendable (Shell, UInt64, Bool, Value) -> Void) {
        self.id = id
        self.shell = shell
        self.deliver = deliver
    }

    /// Claims the completion (true for the first call only) and hands the answer to the flow.
    package func complete(_ value: Value) {
        let first = calls.add(1, ordering: .relaxed).oldValue == 0
        deliver(shell, id, first, value)
    }
}

/// How an outstanding callback ended, for the driver's `async` actions.
/// Boxed (`indirect`): a machine keeps one only for an awaiting driver, and inline it would make
/// every session larger by the size of an answer.
package indirect enum Resolution<Answer: Sendable>: Sendable {
    case answered(Answer)
    case ended(CallbackEnded)
}

/// What a state machine keeps besides its state: the transcript, the violations, and the
/// resolutions of callbacks for the driver's `async` actions. Pure data: no clock, no lock.
package struct FlowLog: Sendable {
    package let recordsTranscript: Bool
    /// The transcript as recorded: each entry's time and sequence number are taken when it
    /// happens; a completion's answer is described only when the transcript is read.
    private var records: [Record] = []
    /// Full chunks of earlier records, `chunkSize` each, oldest first. A long transcript grows by
    /// chunks: its records are never copied again, and no array outgrows the size that the
    /// allocator serves from its heap (a larger one is mapped and unmapped, page by page).
    private var olderRecords: [[Record]] = []
    private static var chunkSize: Int { 256 }
    package private(set) var violations: [Violation] = []
    /// How many violations were recorded: what the engine compares to know whether to report.
    package var violationCount: Int { violations.count }

    package init(recordsTranscript: Bool) { self.recordsTranscript = recordsTranscript }

    /// The transcript so far (empty when transcripts are off).
    package var transcript: Transcript {
        var entries: [TranscriptEntry] = []
        entries.reserveCapacity(olderRecords.count * Self.chunkSize + records.count)
        for chunk in olderRecords { entries.append(contentsOf: chunk.lazy.map(\.entry)) }
        entries.append(contentsOf: records.lazy.map(\.entry))
        return Transcript(entries: entries)
    }

    @inline(__always)
    private mutating func append(_ record: consuming Record) {
        if records.count == Self.chunkSize {
            olderRecords.append(records)
            records = []
            records.reserveCapacity(Self.chunkSize)
        }
        records.append(record)
    }

    package mutating func record(_ event: @autoclosure () -> TranscriptEvent, at now: Duration) {
        guard recordsTranscript else { return }
        let event = event()
        append(Record(time: now, sequence: TranscriptEntry.nextSequence(), event: .ready(event)))
    }

    /// Records `.action(name, [argument])`, keeping the argument without its array until read.
    package mutating func record(action name: String, _ argument: @autoclosure () -> TranscriptValue, at now: Duration)
    {
        guard recordsTranscript else { return }
        let argument = argument()
        append(Record(time: now, sequence: TranscriptEntry.nextSequence(), event: .action(name, argument)))
    }

    /// Records `.call(method, callbackID: id, [argument])`, keeping the argument without its array
    /// until read.
    package mutating func record(
        call method: String,
        callbackID id: UInt64?,
        _ argument: @autoclosure () -> TranscriptValue,
        at now: Duration
    ) {
        guard recordsTranscript else { return }
        let argument = argument()
        append(
            Record(time: now, sequence: TranscriptEntry.nextSequence(), event: .call(method, id, argument)))
    }

    /// Records a completion that took effect: `.completion(method, callbackID: id,
    /// [TranscriptValue.answer(answer)], byDefault: byDefault)`, with the answer described when the
    /// transcript is read rather than now (describing an update, with its amounts, costs more than
    /// the rest of a delegate round trip). The answer is a value, so the text is the same.
    package mutating func recordCompletion(
        _ method: String,
        callbackID id: UInt64,
        answer: some CustomStringConvertible & Sendable,
        byDefault: Bool,
        at now: Duration
    ) {
        guard recordsTranscript else { return }
        let describe: @Sendable () -> TranscriptValue = { TranscriptValue.answer(answer) }
        append(
            Record(
                time: now, sequence: TranscriptEntry.nextSequence(),
                event: .completion(method, id, describe, byDefault)))
    }

    /// Replaces the latest record of a call of `method` with `event`, keeping its time and sequence
    /// number; false when there is none. For an entry whose meaning is known only after the
    /// delegate call it records (spec A9: a notification whose default implementation ran). It
    /// looks back from the newest record: the call it amends is a few records back.
    @discardableResult
    package mutating func amendLastCall(_ method: String, to event: TranscriptEvent) -> Bool {
        guard recordsTranscript else { return false }
        func amended(_ record: Record) -> Record? {
            switch record.event {
            case .ready(.call(method, _, _)), .call(method, _, _):
                Record(time: record.time, sequence: record.sequence, event: .ready(event))
            default: nil
            }
        }
        for index in records.indices.reversed() {
            if let record = amended(records[index]) {
                records[index] = record
                return true
            }
        }
        for chunk in olderRecords.indices.reversed() {
            for index in olderRecords[chunk].indices.reversed() {
                if let record = amended(olderRecords[chunk][index]) {
                    olderRecords[chunk][index] = record
                    return true
                }
            }
        }
        return false
    }

    /// One recorded entry: a transcript event, or the parts of one, put together when read.
    private struct Record: Sendable {
        enum Event: Sendable {
            case ready(TranscriptEvent)
            /// `.action(name, [argument])`.
            case action(String, TranscriptValue)
            /// `.call(method, callbackID: id, [argument])`.
            case call(String, UInt64?, TranscriptValue)
            /// `.completion(method, callbackID: id, [describe()], byDefault: byDefault)`.
            case completion(String, UInt64, @Sendable () -> TranscriptValue, Bool)
        }

        let time: Duration
        let sequence: UInt64
        let event: Event

        var entry: TranscriptEntry {
            switch event {
            case .ready(let event):
                return TranscriptEntry(time: time, event: event, sequence: sequence)
            case .action(let name, let argument):
                return TranscriptEntry(time: time, event: .action(name, [argument]), sequence: sequence)
            case .call(let method, let id, let argument):
                return TranscriptEntry(time: time, event: .call(method, callbackID: id, [argument]), sequence: sequence)
            case .completion(let method, let id, let describe, let byDefault):
                let event = TranscriptEvent.completion(
                    method, callbackID: id, [describe()], byDefault: byDefault)
                return TranscriptEntry(time: time, event: event, sequence: sequence)
            }
        }
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
    indirect case refused(Refusal)
    /// Call this delegate method.
    case call(Call)
}
