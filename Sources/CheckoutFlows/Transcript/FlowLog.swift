import CheckoutCore
import Synchronization

/// What a state machine keeps besides its state: the transcript, the violations, and the
/// resolutions of callbacks for the driver's `async` actions. Pure data: no clock, no lock.
@usableFromInline
package struct FlowLog: Sendable {
    /// The transcript as recorded: each entry's time and sequence number are taken when it
    /// happens; a completion's answer is described only when the transcript is read. The newest
    /// records; the older ones are in `archive`, in chunks or packed.
    private var records: [Record] = []
    /// Full chunks of earlier records and the merchant's answers, once there are any (nil for a
    /// short transcript without completions, and when transcripts are off).
    private var archive: Archive?
    /// The newest records' first capacity: what a flow records up to its first callback, where a
    /// parked session waits (`present`, the action, its call). Appending doubles it, up to a
    /// chunk: 3, 6, 12, ... 192 (the allocator's rounding adds less than a record). ``compact()``
    /// packs the records and leaves none, so that the next append starts from one.
    private static var firstCapacity: Int { 3 }
    private static var chunkSize: Int { firstCapacity << 6 }
    package let recordsTranscript: Bool
    /// How many violations were recorded: what the engine compares, on every event, to know
    /// whether to report. (The violations themselves are in the archive: most flows have none,
    /// and a list of its own took a word of every flow.)
    @usableFromInline package private(set) var violationCount: Int32 = 0

    /// The violations recorded, in order.
    @usableFromInline package var violations: [Violation] { archive?.violations ?? [] }

    package init(recordsTranscript: Bool) {
        self.recordsTranscript = recordsTranscript
        if recordsTranscript { records.reserveCapacity(Self.firstCapacity) }
    }

    /// The transcript so far (empty when transcripts are off).
    package var transcript: Transcript { entries(describingAnswers: true) }

    /// The transcript so far, the merchant's answers described by `describer`.
    package func transcript(describingAnswersWith describer: any AnswerDescriber) -> Transcript {
        entries(describingAnswers: true, describer: describer)
    }

    /// The transcript so far with the merchant's answers and the deferred values left out (an empty
    /// list where a completion's answer is described when the transcript is read: its updates and
    /// results, the few recorded ready-made keeping theirs; and where an action or a call keeps a
    /// token or a card to describe then, ``record(action:deferred:at:)``): for what reads the calls
    /// and violations alone, without describing what costs more than the rest.
    package var outline: Transcript { entries(describingAnswers: false) }

    private func entries(describingAnswers: Bool, describer: (any AnswerDescriber)? = nil) -> Transcript {
        var entries: [TranscriptEntry] = []
        let chunks = archive?.chunks ?? []
        entries.reserveCapacity(chunks.count * Self.chunkSize + records.count)
        var answers = AnswerCursor(archive: describingAnswers ? archive : nil, describer: describer)
        for record in archive?.packed ?? PackedRecords() { entries.append(record.entry(archive, &answers)) }
        for chunk in chunks {
            for record in chunk { entries.append(record.entry(archive, &answers)) }
        }
        for record in records { entries.append(record.entry(archive, &answers)) }
        return Transcript(entries: entries)
    }

    @inline(__always)
    private mutating func append(_ record: consuming Record) {
        if records.count == Self.chunkSize { startChunk() }
        records.append(record)
    }

    /// Packs the records (``PackedRecords``) and the cards kept to be described later, and keeps
    /// the other deferred values in an array of their size: for a flow that waits long between
    /// events (a relayed session, idle between the page's events), whose records take 64 bytes
    /// each, with up to half as much again unused after doubling. Not on the round trip: the
    /// records are appended as they are, and packed when the relay's event is over (BENCHMARKS.md,
    /// the relay's bytes). The transcript reads the same.
    package mutating func compact() {
        guard hasRecordsToPack else { return }
        pack(uniqueArchive(), answersPacked: [])
    }

    /// Whether the log has records not packed yet (in `records`, or moved into the archive's
    /// chunks).
    private var hasRecordsToPack: Bool {
        recordsTranscript && (!records.isEmpty || archive?.chunks.isEmpty == false)
    }

    /// ``compact()``, the log's answers of type `Answer` packed too (``PackableAnswer``): each
    /// about 40 bytes in the log's array, and its summary's array more, as they are; 15 to 40
    /// packed. An answer that does not pack stays as it is.
    package mutating func compact<Answer: PackableAnswer & CustomStringConvertible & Sendable>(
        packingAnswersOf _: Answer.Type
    ) {
        guard hasRecordsToPack else { return }
        guard archiveIs(AnswerArchive<Answer>.self) else { return pack(uniqueArchive(), answersPacked: []) }
        // Whether the default gave each answer not packed yet: the records', oldest first.
        var byDefault: [Bool] = []
        for record in archive.unsafelyUnwrapped.chunks.joined() where record.kind == .answer {
            byDefault.append(record.byDefault)
        }
        for record in records where record.kind == .answer { byDefault.append(record.byDefault) }
        let archive = uniqueArchive()
        pack(
            archive,
            answersPacked: unsafeDowncast(archive, to: AnswerArchive<Answer>.self).packAnswers(byDefault: byDefault))
    }

    /// Packs the records into `archive`, the log's own (unique: asked for once, as a reference
    /// held across a second `uniqueArchive()` would make it look shared, and copied), each of
    /// `answersPacked`'s flags saying whether the answer of the next ``Record/Kind/answer`` record
    /// was packed, and the cards recorded to be described later as text in the records that hold
    /// them.
    private mutating func pack(_ archive: Archive, answersPacked: [Bool]) {
        var extras = PackedExtras(
            answersPacked: answersPacked[...], cards: archive.packCards(of: archive.chunks + [records])[...])
        for chunk in archive.chunks { archive.packed.append(chunk, extras: &extras) }
        archive.chunks = []
        archive.packed.append(records, extras: &extras)
        records = []
        archive.compact()
    }

    /// Moves the full newest chunk to the archive. Out of line, as is all that is not the append
    /// itself: a machine's code that records stays small (with this inlined too, the optimizer
    /// stopped inlining a machine's own helpers, 167 instructions a round trip with transcripts
    /// off).
    @inline(never)
    private mutating func startChunk() {
        uniqueArchive().chunks.append(records)
        records = []
        records.reserveCapacity(Self.chunkSize)
    }

    /// Appends a record of these parts.
    @inline(__always)
    private mutating func append(
        _ kind: Record.Kind,
        _ name: consuming String,
        id: UInt64,
        value: consuming TranscriptValue?,
        byDefault: Bool,
        at now: FlowInstant
    ) {
        append(Record(kind, time: now, name: name, id: id, value: value, byDefault: byDefault))
    }

    /// The archive, made if there is none and copied if another log shares it, to be changed.
    private mutating func uniqueArchive() -> Archive {
        if archive == nil {
            archive = Archive()
        } else if !isKnownUniquelyReferenced(&archive) {
            archive = archive.unsafelyUnwrapped.copy()
        }
        return archive.unsafelyUnwrapped
    }

    @usableFromInline package mutating func record(_ event: @autoclosure () -> TranscriptEvent, at now: FlowInstant) {
        guard recordsTranscript else { return }
        let event = event()
        append(record(event, time: now, sequence: TranscriptEntry.nextSequence()))
    }

    /// Records `.action(name, [argument])`, keeping the argument without its array until read.
    package mutating func record(
        action name: String, _ argument: @autoclosure () -> TranscriptValue, at now: FlowInstant
    ) {
        guard recordsTranscript else { return }
        append(.action, name, id: 0, value: argument(), byDefault: false, at: now)
    }

    /// Records `.call(method, callbackID: id, [argument])`, keeping the argument without its array
    /// until read.
    package mutating func record(
        call method: String,
        callbackID id: UInt64?,
        _ argument: @autoclosure () -> TranscriptValue,
        at now: FlowInstant
    ) {
        guard recordsTranscript else { return }
        append(.call, method, id: id ?? 0, value: argument(), byDefault: false, at: now)
    }

    /// Records `.action(name, [value.described])`, describing `value` only when the transcript is
    /// read, as an answer not of the archive's own type is: describing a token or a card (their
    /// text and JSON) costs more than a whole session does without it, and a description is a
    /// pure function of the value, so the text is the same.
    @inline(never)
    package mutating func record(action name: String, deferred value: DeferredTranscriptValue, at now: FlowInstant) {
        guard recordsTranscript else { return }
        keepDeferred(value, unlessIdenticalToLast: false)
        append(.deferredAction, name, id: 0, value: nil, byDefault: false, at: now)
    }

    /// Records `.call(method, callbackID: id, [value.described])`, describing `value` only when the
    /// transcript is read (see ``record(action:deferred:at:)``). A value that is the last one
    /// kept, to the byte (the card an action selected, whose call follows), is kept once.
    @inline(never)
    package mutating func record(
        call method: String, callbackID id: UInt64, deferred value: DeferredTranscriptValue, at now: FlowInstant
    ) {
        guard recordsTranscript else { return }
        // The archive is let go of before the append, which may move a chunk into it.
        let repeated = keepDeferred(value, unlessIdenticalToLast: true)
        append(repeated ? .repeatedDeferredCall : .deferredCall, method, id: id, value: nil, byDefault: false, at: now)
    }

    /// Keeps `value` to be described later; true, keeping nothing, when `unlessIdenticalToLast` and
    /// it is the last one kept, to the byte.
    @discardableResult
    private mutating func keepDeferred(_ value: DeferredTranscriptValue, unlessIdenticalToLast: Bool) -> Bool {
        let archive = uniqueArchive()
        if unlessIdenticalToLast, case .value(let last) = archive.describedLater.last, last.isIdentical(to: value) {
            return true
        }
        archive.describedLater.append(.value(value))
        return false
    }

    /// Records `.call(method, callbackID: id, [.contact(contact.redactedForShipping())])`, keeping
    /// the full contact, which the flow holds already, and redacting it when the transcript is
    /// read: redaction is a pure function of the contact, so the text is the same, and a parked
    /// session does not keep a second contact for its transcript (spec A2).
    package mutating func record(
        call method: String,
        callbackID id: UInt64,
        redactingForShipping contact: Contact,
        at now: FlowInstant
    ) {
        guard recordsTranscript else { return }
        append(.redactedCall, method, id: id, value: .contact(contact), byDefault: false, at: now)
    }

    /// Records a completion that took effect: `.completion(method, callbackID: id,
    /// [TranscriptValue.answer(answer)], byDefault: byDefault)`, with the answer described when the
    /// transcript is read rather than now (describing an update, with its amounts, costs more than
    /// the rest of a delegate round trip). The answer is a value, so the text is the same. It is
    /// moved into the log: pass a copy to keep it.
    package mutating func recordCompletion(
        _ method: String,
        callbackID id: UInt64,
        answer: consuming some CustomStringConvertible & Sendable,
        byDefault: Bool,
        at now: FlowInstant
    ) {
        guard recordsTranscript else { return }
        append(keep(answer) ? .answer : .otherAnswer, method, id: id, value: nil, byDefault: byDefault, at: now)
    }

    /// Keeps `answer` in the archive for when the transcript is read: in the column of the
    /// archive's own answer type (true), or, for a log that answers with several types, in a
    /// closure beside it (false). A machine answers with one type: no allocation per answer.
    @inline(__always)
    private mutating func keep<Answer: CustomStringConvertible & Sendable>(_ answer: consuming Answer) -> Bool {
        if archiveIs(AnswerArchive<Answer>.self), isKnownUniquelyReferenced(&archive) {
            unsafeDowncast(archive.unsafelyUnwrapped, to: AnswerArchive<Answer>.self).column.pointee.answers.append(
                consume answer)
            return true
        }
        return keepSlowly(answer)
    }

    /// Whether the archive is of `type` exactly (asked without keeping a reference to it, which
    /// would make it look shared).
    @inline(__always)
    private func archiveIs(_ type: Archive.Type) -> Bool {
        guard let archive else { return false }
        return ObjectIdentifier(Swift.type(of: archive)) == ObjectIdentifier(type)
    }

    /// `keep(_:)` when the archive is missing, shared, or not of `Answer`'s column.
    @inline(never)
    private mutating func keepSlowly<Answer: CustomStringConvertible & Sendable>(_ answer: Answer) -> Bool {
        let archive = archive == nil ? AnswerArchive<Answer>() as Archive : uniqueArchive()
        if let typed = archive as? AnswerArchive<Answer> {
            typed.column.pointee.answers.append(answer)
            self.archive = typed
            return true
        }
        guard archiveIs(Archive.self) else {
            archive.describedLater.append(.answer { TranscriptValue.answer(answer) })
            return false
        }
        // The archive of a log that had no answers yet takes this one's type.
        let typed = AnswerArchive<Answer>(taking: archive)
        typed.column.pointee.answers.append(answer)
        self.archive = typed
        return true
    }

    /// Replaces the latest record of a call of `method` with `event`, keeping its time and sequence
    /// number; false when there is none. For an entry whose meaning is known only after the
    /// delegate call it records (spec A9: a notification whose default implementation ran). It
    /// looks back from the newest record: the call it amends is a few records back. (A call recorded
    /// with a deferred value is not one it amends: its value would be left behind in the archive.)
    @discardableResult
    package mutating func amendLastCall(_ method: String, to event: TranscriptEvent) -> Bool {
        guard recordsTranscript else { return false }
        func isCall(_ record: Record) -> Bool {
            switch record.kind {
            case .call, .redactedCall: record.name == method
            case .event:
                if case .call(method, _, _) = archive.unsafelyUnwrapped.events[Int(record.id)] { true } else { false }
            default: false
            }
        }
        for index in records.indices.reversed() where isCall(records[index]) {
            let amended = record(event, time: records[index].time, sequence: records[index].sequence)
            records[index] = amended
            return true
        }
        guard let chunks = archive?.chunks.indices else { return false }
        for chunk in chunks.reversed() {
            for index in archive.unsafelyUnwrapped.chunks[chunk].indices.reversed()
            where isCall(archive.unsafelyUnwrapped.chunks[chunk][index]) {
                let old = archive.unsafelyUnwrapped.chunks[chunk][index]
                let amended = record(event, time: old.time, sequence: old.sequence)
                uniqueArchive().chunks[chunk][index] = amended
                return true
            }
        }
        guard var packed = archive.map({ Array($0.packed) }) else { return false }
        for index in packed.indices.reversed() where isCall(packed[index]) {
            packed[index] = record(event, time: packed[index].time, sequence: packed[index].sequence)
            var repacked = PackedRecords()
            repacked.append(packed)
            uniqueArchive().packed = repacked
            return true
        }
        return false
    }

    /// The record of a ready-made `event`: in the record itself when it has one of the shapes the
    /// flows record (an action, a call or a completion with at most one value, an outcome), else
    /// kept in the archive, the record holding its index.
    private mutating func record(_ event: TranscriptEvent, time: FlowInstant, sequence: UInt64) -> Record {
        switch event {
        case .action(let name, let values) where values.count < 2:
            return Record(.action, time: time, sequence: sequence, name: name, value: values.first)
        case .call(let method, let id, let values) where values.count < 2 && id != 0:
            return Record(.call, time: time, sequence: sequence, name: method, id: id ?? 0, value: values.first)
        case .completion(let method, let id, let values, let byDefault) where values.count < 2:
            return Record(
                .completion, time: time, sequence: sequence, name: method, id: id, value: values.first,
                byDefault: byDefault)
        case .outcome(let outcome):
            return Record(.outcome, time: time, sequence: sequence, name: outcome)
        default:
            let archive = uniqueArchive()
            archive.events.append(event)
            return Record(.event, time: time, sequence: sequence, id: UInt64(archive.events.count - 1))
        }
    }

    /// One recorded entry, its event in parts put together when read: for the events the flows
    /// record on their hot paths, nothing to build when recorded and little to destroy.
    struct Record: Sendable {
        enum Kind: UInt8 {
            /// `.action(name, [value])` (`[]` without a value).
            case action
            /// `.call(name, callbackID: id, [value])`, a call without a callback id kept with id 0
            /// (ids count from 1).
            case call
            /// `.call(name, callbackID: id, [.contact(contact.redactedForShipping())])`, `value`
            /// the contact in full.
            case redactedCall
            /// `.completion(name, callbackID: id, [value], byDefault: byDefault)`, ready-made.
            case completion
            /// `.completion(name, callbackID: id, [answer], byDefault: byDefault)`, the answer the
            /// next one in the archive's own column (``AnswerArchive``).
            case answer
            /// The same, the answer the next one beside that column.
            case otherAnswer
            /// `.action(name, [value])`, the value described by the next one of the archive's
            /// `describedLater`; or, packed, the card `value` holds as text
            /// (``CheckoutCore/PaymentMethod/packedText``).
            case deferredAction
            /// `.call(name, callbackID: id, [value])`, the value the same.
            case deferredCall
            /// The same, the value the deferred value read last (of a deferred action or call just
            /// before it).
            case repeatedDeferredCall
            /// `.outcome(name)`.
            case outcome
            /// Any other event: the archive's `events[id]`.
            case event
            /// `.completion(name, callbackID: id, [answer], byDefault: byDefault)`, the answer the
            /// next one packed in the archive's own column (``PackableAnswer``).
            case packedAnswer
        }

        let time: FlowInstant
        let sequence: UInt64
        /// The callback's id, or an event's index in the archive.
        let id: UInt64
        let name: String
        let value: TranscriptValue?
        let kind: Kind
        let byDefault: Bool

        /// A record; its sequence number, unless given, taken now.
        @inline(__always)
        init(
            _ kind: Kind,
            time: FlowInstant,
            sequence: UInt64 = TranscriptEntry.nextSequence(),
            name: String = "",
            id: UInt64 = 0,
            value: TranscriptValue? = nil,
            byDefault: Bool = false
        ) {
            self.time = time
            self.sequence = sequence
            self.id = id
            self.name = name
            self.value = value
            self.kind = kind
            self.byDefault = byDefault
        }

        /// The entry; an answer the next one `answers` gives.
        fileprivate func entry(_ archive: Archive?, _ answers: inout AnswerCursor) -> TranscriptEntry {
            func values() -> [TranscriptValue] { value.map { [$0] } ?? [] }
            let event: TranscriptEvent =
                switch kind {
                case .action: .action(name, values())
                case .call: .call(name, callbackID: id == 0 ? nil : id, values())
                case .redactedCall:
                    if case .contact(let contact) = value {
                        .call(name, callbackID: id, [.contact(contact.redactedForShipping())])
                    } else {
                        preconditionFailure("a redacted call without its contact")
                    }
                case .completion: .completion(name, callbackID: id, values(), byDefault: byDefault)
                case .answer, .otherAnswer:
                    .completion(
                        name, callbackID: id, answers.next(ownType: kind == .answer).map { [$0] } ?? [],
                        byDefault: byDefault)
                case .packedAnswer:
                    .completion(
                        name, callbackID: id, answers.nextPacked(byDefault: byDefault).map { [$0] } ?? [],
                        byDefault: byDefault)
                case .deferredAction: .action(name, answers.nextDeferred(packed: value).map { [$0] } ?? [])
                case .deferredCall: .call(name, callbackID: id, answers.nextDeferred(packed: value).map { [$0] } ?? [])
                case .repeatedDeferredCall: .call(name, callbackID: id, answers.repeated().map { [$0] } ?? [])
                case .outcome: .outcome(name)
                case .event: archive.unsafelyUnwrapped.events[Int(id)]
                }
            return TranscriptEntry(time: time.duration, event: event, sequence: sequence)
        }
    }

    /// What a log keeps besides its newest records: full chunks of older records, oldest first
    /// (a long transcript grows by chunks: its records are never copied again, and no array
    /// outgrows the size that the allocator serves from its heap), and the merchant's answers,
    /// in the order recorded. Shared by copies of the log until one of them changes it (copy on
    /// write: changed only through a log that holds the only reference).
    fileprivate class Archive: @unchecked Sendable {
        final var chunks: [[Record]] = []
        /// The records packed by ``FlowLog/compact()``: the oldest, before `chunks`.
        final var packed = PackedRecords()
        /// The ready-made events recorded in no shape of a record's own (``Record/Kind/event``).
        final var events: [TranscriptEvent] = []
        /// What is described only when the transcript is read, in the order recorded: the answers
        /// not of the archive's own type (``AnswerArchive``) and the values of
        /// ``Record/Kind/deferredAction`` and ``Record/Kind/deferredCall`` records not packed yet
        /// (a packed record holds its card as text; a token stays here).
        final var describedLater: [DescribedLater] = []
        /// The violations recorded (``FlowLog/violations``).
        final var violations: [Violation] = []

        init() {}

        init(taking archive: Archive) {
            chunks = archive.chunks
            packed = archive.packed
            events = archive.events
            describedLater = archive.describedLater
            violations = archive.violations
        }

        func copy() -> Archive { Archive(taking: self) }

        /// The cards of the deferred records among `lists` (records about to be packed) as text,
        /// one for each record of a deferred value, nil for a value that stays; those cards taken
        /// out of `describedLater` (a card costs an entry there, and the array, where its text
        /// is about 20 bytes).
        final func packCards(of lists: [[Record]]) -> [String?] {
            var pending = 0
            var deferred = 0
            for record in lists.joined() {
                switch record.kind {
                case .otherAnswer: pending += 1
                case .deferredAction where record.value == nil, .deferredCall where record.value == nil:
                    pending += 1
                    deferred += 1
                default: break
                }
            }
            guard deferred > 0 else { return [] }
            var index = describedLater.count - pending
            var kept = Array(describedLater[..<index])
            var cards: [String?] = []
            cards.reserveCapacity(deferred)
            for record in lists.joined() {
                switch record.kind {
                case .otherAnswer: kept.append(describedLater[index])
                case .deferredAction where record.value == nil, .deferredCall where record.value == nil:
                    if case .value(.paymentMethod(let card)) = describedLater[index] {
                        cards.append(card.packedText)
                    } else {
                        cards.append(nil)
                        kept.append(describedLater[index])
                    }
                default: continue
                }
                index += 1
            }
            describedLater = kept
            return cards
        }

        /// Keeps what is described later in an array of its size (``FlowLog/compact()``). (Not the
        /// answers: a flow answers once an event or so, and their array, grown by doubling, would
        /// be copied on most events.)
        final func compact() {
            describedLater.shrinkToFit()
        }

        /// The archive's own answer at `index`, described by `describer` or by itself.
        func answer(at index: Int, describer: (any AnswerDescriber)?) -> TranscriptValue {
            preconditionFailure("an archive without answers of its own")
        }

        /// The archive's own answer packed at `offset`, described by `describer` or by itself;
        /// `offset` moved past it.
        func packedAnswer(at offset: inout Int, byDefault: Bool, describer: (any AnswerDescriber)?)
            -> TranscriptValue
        {
            preconditionFailure("an archive without answers of its own")
        }

    }

    /// An archive with a column of answers of one type: a machine's answers, kept as they are.
    fileprivate final class AnswerArchive<Answer: CustomStringConvertible & Sendable>: Archive, @unchecked Sendable {
        /// The answers as they are, and those packed.
        struct Column {
            var answers: [Answer] = []
            /// The answers packed by ``FlowLog/compact()``, oldest first (``PackableAnswer``).
            var packed: [UInt8] = []
        }

        /// The column, in a cell of its own: a stored property of a class is checked for
        /// exclusive access at run time, on each answer (about 120 instructions), a pointer's
        /// memory is not. (Changed only through a log that holds the only reference.)
        let column = UnsafeMutablePointer<Column>.allocate(capacity: 1)

        override init() {
            column.initialize(to: Column())
            super.init()
        }

        override init(taking archive: Archive) {
            column.initialize(to: Column())
            super.init(taking: archive)
        }

        deinit {
            column.deinitialize(count: 1)
            column.deallocate()
        }

        override func copy() -> Archive {
            let copy = AnswerArchive(taking: self)
            copy.column.pointee = column.pointee
            return copy
        }

        override func answer(at index: Int, describer: (any AnswerDescriber)?) -> TranscriptValue {
            let answer = column.pointee.answers[index]
            return describer?.describe(answer) ?? TranscriptValue.answer(answer)
        }

        override func packedAnswer(at offset: inout Int, byDefault: Bool, describer: (any AnswerDescriber)?)
            -> TranscriptValue
        {
            var reader = PackedAnswerReader(bytes: column.pointee.packed, at: offset)
            guard let type = Answer.self as? any PackableAnswer.Type,
                let answer = type.unpack(from: &reader, byDefault: byDefault) as? Answer
            else { preconditionFailure("a packed answer that does not read back") }
            offset = reader.index
            return describer?.describe(answer) ?? TranscriptValue.answer(answer)
        }
    }

    /// A value the transcript describes when it is read.
    fileprivate enum DescribedLater: Sendable {
        /// A token or a payment method (``FlowLog/record(action:deferred:at:)``).
        case value(DeferredTranscriptValue)
        /// An answer not of the archive's own type, described by the closure.
        case answer(@Sendable () -> TranscriptValue)

        var described: TranscriptValue {
            switch self {
            case .value(let value): value.described
            case .answer(let describe): describe()
            }
        }
    }

    /// Reads the archive's answers and deferred values in the order they were recorded; none when
    /// not describing.
    fileprivate struct AnswerCursor {
        let archive: Archive?
        let describer: (any AnswerDescriber)?
        var own = 0
        var other = 0
        /// Where the next packed answer begins.
        var packed = 0

        /// The deferred value read last.
        var lastDeferred: TranscriptValue? = nil

        /// The deferred value read last, again.
        func repeated() -> TranscriptValue? { lastDeferred }

        /// The next deferred value: the card `packed` holds as text, else the next described later.
        mutating func nextDeferred(packed: TranscriptValue?) -> TranscriptValue? {
            guard archive != nil else { return nil }
            if case .text(let text)? = packed {
                guard let card = PaymentMethod(packedText: text) else {
                    preconditionFailure("a packed card that does not read")
                }
                lastDeferred = DeferredTranscriptValue.paymentMethod(card).described
            } else {
                lastDeferred = next(ownType: false)
            }
            return lastDeferred
        }

        mutating func next(ownType: Bool) -> TranscriptValue? {
            guard let archive else { return nil }
            if ownType {
                defer { own += 1 }
                return archive.answer(at: own, describer: describer)
            }
            defer { other += 1 }
            return archive.describedLater[other].described
        }

        mutating func nextPacked(byDefault: Bool) -> TranscriptValue? {
            archive?.packedAnswer(at: &packed, byDefault: byDefault, describer: describer)
        }
    }

    /// Records a violation and returns it.
    @discardableResult
    @usableFromInline package mutating func violation(
        _ kind: Violation.Kind,
        _ method: String,
        id: UInt64,
        at now: FlowInstant,
        _ detail: String = ""
    ) -> Violation {
        let violation = Violation(kind: kind, callback: method, callbackID: id, time: now.duration, detail: detail)
        let archive = uniqueArchive()
        archive.violations.append(violation)
        violationCount = Int32(clamping: archive.violations.count)
        record(.violation(violation), at: now)
        return violation
    }

    /// Records a refusal and returns it as the driver's answer.
    @inlinable package mutating func refuse<Call>(_ action: String, _ refusal: Refusal, at now: FlowInstant) -> Effect<
        Call
    > {
        record(.refused(action, refusal), at: now)
        return .refused(.refused(refusal))
    }
}

extension FlowLog {
    /// Records the violation an answer that is not taken makes (spec E2, E4), with `detail`; the
    /// effect of such an answer is none.
    @inlinable package mutating func violated<Call>(
        _ kind: Violation.Kind, _ method: String, id: UInt64, at now: FlowInstant, _ detail: String
    ) -> Effect<Call> {
        violation(kind, method, id: id, at: now, detail)
        return .none
    }
}

extension FlowLog.AnswerArchive where Answer: PackableAnswer {
    /// Packs the answers not packed yet, the last `byDefault.count` of the column, each with its
    /// record's flag; those that do not pack stay, in order. Whether each was packed, oldest first.
    func packAnswers(byDefault: [Bool]) -> [Bool] {
        guard !byDefault.isEmpty else { return [] }
        let first = column.pointee.answers.count - byDefault.count
        var packed: [Bool] = []
        packed.reserveCapacity(byDefault.count)
        for (offset, flag) in byDefault.enumerated() {
            packed.append(
                column.pointee.answers[first + offset].pack(appendingTo: &column.pointee.packed, byDefault: flag))
        }
        if packed.allSatisfy({ $0 }) {
            column.pointee.answers.removeSubrange(first...)
        } else {
            column.pointee.answers =
                Array(column.pointee.answers[..<first])
                + zip(column.pointee.answers[first...], packed).filter { !$0.1 }.map(\.0)
        }
        if column.pointee.answers.isEmpty { column.pointee.answers = [] }
        column.pointee.packed.shrinkToFit()
        return packed
    }
}
