import CheckoutCore
import Synchronization

/// What a state machine keeps besides its state: the transcript, the violations, and the
/// resolutions of callbacks for the driver's `async` actions. Pure data: no clock, no lock.
package struct FlowLog: Sendable {
    /// The transcript as recorded: each entry's time and sequence number are taken when it
    /// happens; a completion's answer is described only when the transcript is read.
    private var records: [Record] = []
    /// Full chunks of earlier records, `chunkSize` each, oldest first. A long transcript grows by
    /// chunks: its records are never copied again, and no array outgrows the size that the
    /// allocator serves from its heap (a larger one is mapped and unmapped, page by page).
    private var olderRecords: [[Record]] = []
    private static var chunkSize: Int { 256 }
    package private(set) var violations: [Violation] = []
    /// (Last: a machine's flag after the log fills the rest of its word.)
    package let recordsTranscript: Bool
    /// How many violations were recorded: what the engine compares to know whether to report.
    package var violationCount: Int { violations.count }

    package init(recordsTranscript: Bool) { self.recordsTranscript = recordsTranscript }

    /// The transcript so far (empty when transcripts are off).
    package var transcript: Transcript { entries(describingAnswers: true) }

    /// The transcript so far with the merchant's answers left out (an empty list where a
    /// completion's answer is described when the transcript is read: its updates and results;
    /// the few recorded ready-made keep theirs): for what reads the calls and violations alone,
    /// without describing the answers, which costs more than the rest.
    package var outline: Transcript { entries(describingAnswers: false) }

    private func entries(describingAnswers: Bool) -> Transcript {
        var entries: [TranscriptEntry] = []
        entries.reserveCapacity(olderRecords.count * Self.chunkSize + records.count)
        for chunk in olderRecords { entries.append(contentsOf: chunk.lazy.map { $0.entry(describingAnswers) }) }
        entries.append(contentsOf: records.lazy.map { $0.entry(describingAnswers) })
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
            Record(time: now, sequence: TranscriptEntry.nextSequence(), event: .call(method, id ?? 0, argument)))
    }

    /// Records `.call(method, callbackID: id, [.contact(contact.redactedForShipping())])`, keeping
    /// the full contact, which the flow holds already, and redacting it when the transcript is
    /// read: redaction is a pure function of the contact, so the text is the same, and a parked
    /// session does not keep a second contact for its transcript (spec A2).
    package mutating func record(
        call method: String,
        callbackID id: UInt64,
        redactingForShipping contact: Contact,
        at now: Duration
    ) {
        guard recordsTranscript else { return }
        append(
            Record(
                time: now, sequence: TranscriptEntry.nextSequence(), event: .redactedCall(method, id, contact)))
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
            case .ready(.call(method, _, _)), .call(method, _, _), .redactedCall(method, _, _):
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
            /// `.call(method, callbackID: id, [argument])`, a call without a callback id kept with
            /// id 0 (ids count from 1): as an optional, the id made every record 8 bytes larger.
            case call(String, UInt64, TranscriptValue)
            /// `.call(method, callbackID: id, [.contact(contact.redactedForShipping())])`.
            case redactedCall(String, UInt64, Contact)
            /// `.completion(method, callbackID: id, [describe()], byDefault: byDefault)`.
            case completion(String, UInt64, @Sendable () -> TranscriptValue, Bool)
        }

        let time: Duration
        let sequence: UInt64
        let event: Event

        func entry(_ describingAnswer: Bool) -> TranscriptEntry {
            switch event {
            case .ready(let event):
                return TranscriptEntry(time: time, event: event, sequence: sequence)
            case .action(let name, let argument):
                return TranscriptEntry(time: time, event: .action(name, [argument]), sequence: sequence)
            case .call(let method, let id, let argument):
                return TranscriptEntry(
                    time: time, event: .call(method, callbackID: id == 0 ? nil : id, [argument]), sequence: sequence)
            case .redactedCall(let method, let id, let contact):
                let argument = TranscriptValue.contact(contact.redactedForShipping())
                return TranscriptEntry(time: time, event: .call(method, callbackID: id, [argument]), sequence: sequence)
            case .completion(let method, let id, let describe, let byDefault):
                let event = TranscriptEvent.completion(
                    method, callbackID: id, describingAnswer ? [describe()] : [], byDefault: byDefault)
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
        return .refused(.refused(refusal))
    }
}

extension FlowLog {
    /// Records the violation an answer that is not taken makes (spec E2, E4), with `detail`; the
    /// effect of such an answer is none.
    package mutating func violated<Call>(
        _ kind: Violation.Kind, _ method: String, id: UInt64, at now: Duration, _ detail: String
    ) -> Effect<Call> {
        violation(kind, method, id: id, at: now, detail)
        return .none
    }
}
