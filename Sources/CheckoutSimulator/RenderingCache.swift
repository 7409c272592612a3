import CheckoutFlows
import Foundation

/// The four renderings the P7 check searches (text and JSON, masked and not) of the transcript
/// entries an exploration has seen, so that a transcript is put together from its entries' instead
/// of being rendered whole each time: sessions of one scenario repeat most of their entries, at
/// other times and with other callback numbers, and pick their contacts from a handful.
///
/// The result is byte for byte what ``Transcript`` renders (a test compares both), because the
/// renderings are made of their entries' (spec E8): the text has one line an entry, joined by line
/// feeds; the JSON is an array of one object an entry, without spaces. An entry's renderings are
/// made by ``Transcript`` itself, from a transcript of that entry alone, with its contacts and
/// payments, which cost the most to render, rendered once an exploration (see ``StandIns``).
///
/// An entry other than a violation is kept as a ``Template``: its renderings with holes where its
/// time and callback number go, found by rendering it a second time at a time and with a number no
/// session has, and kept only when, filled with the entry's own, it gives the entry's renderings.
/// A violation (whose text tells its time and number again) is kept with its time and number.
///
/// Entries are told apart by their event and actor (the sequence number is not rendered), values
/// by equality. Swift compares strings by canonical equivalence, so two entries that are equal
/// could still differ in their bytes (`é` written as one scalar or two), and so would their
/// renderings: the cache is only made for a scenario whose text is all ASCII, which leaves every
/// string of a session's entries either ASCII or the engine's own.
package final class RenderingCache: Sendable {
    /// An entry without its sequence number, with its hash worked out before a lock is taken; for
    /// a template, without its time and callback number too.
    private struct Key: Hashable {
        let time: Duration
        let event: TranscriptEvent
        let actor: TranscriptActor
        let isTemplate: Bool
        let hash: Int

        init(time: Duration, event: TranscriptEvent, actor: TranscriptActor, isTemplate: Bool) {
            self.time = time
            self.event = event
            self.actor = actor
            self.isTemplate = isTemplate
            var hasher = Hasher()
            hasher.combine(time)
            hasher.combine(event)
            hasher.combine(actor)
            hasher.combine(isTemplate)
            hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.hash == rhs.hash && lhs.isTemplate == rhs.isTemplate && lhs.time == rhs.time
                && lhs.event == rhs.event && lhs.actor == rhs.actor
        }
    }

    /// Where an entry's time or callback number goes in one of its renderings.
    private enum Hole: Sendable {
        /// The time in seconds, padded with spaces to eight bytes (the text's first column).
        case paddedTime
        /// The time in seconds (JSON's `time`).
        case time
        /// The callback number.
        case id
    }

    /// One rendering of an entry with holes for its time and callback number: `parts[0]`, the first
    /// hole, `parts[1]`, ...
    private struct Template: Sendable {
        let parts: [[UInt8]]
        let holes: [Hole]

        func filled(time: [UInt8], id: [UInt8]) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(parts.reduce(time.count + id.count + 8) { $0 + $1.count })
            for (part, hole) in zip(parts, holes) {
                bytes += part
                switch hole {
                case .paddedTime:
                    bytes += time
                    if time.count < 8 { bytes += repeatElement(UInt8(ascii: " "), count: 8 - time.count) }
                case .time: bytes += time
                case .id: bytes += id
                }
            }
            bytes += parts[parts.count - 1]
            return bytes
        }
    }

    /// What is kept of an entry.
    private enum Kept: Sendable {
        /// Its four renderings (see ``Renderings/whole``), at its time and with its number.
        case pieces([[UInt8]])
        /// Its four renderings with holes.
        case templates([Template])
    }

    /// A contact or a payment as what it renders as, masked and with personal data shown: each a
    /// ``TranscriptValue/model(description:json:)`` value, which renders as its description and
    /// its JSON whatever the masking. An entry with its contacts and payments replaced by their
    /// masked stand-ins renders masked as the entry does, and likewise unmasked.
    private struct StandIns: Sendable {
        let masked: TranscriptValue
        let unmasked: TranscriptValue

        init(_ value: TranscriptValue) {
            masked = .model(
                description: value.rendered(showingPersonalData: false), json: value.json(showingPersonalData: false))
            unmasked = .model(
                description: value.rendered(showingPersonalData: true), json: value.json(showingPersonalData: true))
        }

        /// Whether `value` renders differently masked and not (and costs the most to render).
        static func needed(for value: TranscriptValue) -> Bool {
            switch value {
            case .contact, .payment: true
            case .text, .secret, .model: false
            }
        }
    }

    /// How many entries, and how many values, are kept at most; later ones are rendered each time
    /// they come.
    static let capacity = 20_000

    /// The entries and the values by their hash, in shards with a lock each: the sessions running
    /// at once look them up all the time.
    private let shards: [LockedValue<[Key: Kept]>] = (0..<16).map { _ in LockedValue([:]) }
    private let valueShards: [LockedValue<[TranscriptValue: StandIns]>] = (0..<16).map { _ in LockedValue([:]) }
    /// The merchant's answers as described before (``describe(_:)``), by their value.
    private let answerShards: [LockedValue<[AnswerKey: TranscriptValue]>] = (0..<16).map { _ in LockedValue([:]) }

    /// A cache for the sessions of `scenario`, or nil when some of its text is not ASCII.
    package init?(for scenario: Scenario) {
        // JSONEncoder writes strings as they are (only quotes, backslashes, slashes and control
        // characters escaped), so every scalar of the scenario's text shows in the bytes.
        guard let data = try? JSONEncoder().encode(scenario), data.allSatisfy({ $0 < 0x80 }) else { return nil }
    }

    /// The renderings of a transcript, from its entries'.
    package struct Renderings {
        /// Each entry's four renderings, in the order of ``whole``: its text line, masked and not,
        /// and its JSON object, masked and not.
        fileprivate let entries: [[[UInt8]]]

        /// `transcript.text()`, `transcript.text(showingPersonalData: true)`, `transcript.json()`
        /// and `transcript.json(showingPersonalData: true)`, in this order.
        package var whole: [String] {
            (0..<4).map { kind in
                let json = kind >= 2
                var rendering: [UInt8] = json ? [UInt8(ascii: "[")] : []
                for (index, entry) in entries.enumerated() {
                    if index > 0 { rendering.append(json ? UInt8(ascii: ",") : UInt8(ascii: "\n")) }
                    rendering += entry[kind]
                }
                if json { rendering.append(UInt8(ascii: "]")) }
                return String(decoding: rendering, as: UTF8.self)
            }
        }

        /// Whether `needle`'s bytes occur in one of the four renderings (see ``Invariants/occurs``).
        package func contain(_ needle: String) -> Bool {
            // An occurrence that takes in no line feed, comma or bracket lies within one entry's
            // line or object: those are all that the renderings add between and around them.
            let separators: [UInt8] = [UInt8(ascii: "\n"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]")]
            guard !needle.utf8.contains(where: separators.contains) else {
                return whole.contains { Invariants.occurs(needle, in: $0) }
            }
            var needle = needle
            return needle.withUTF8 { needle in
                entries.contains { entry in
                    entry.contains { piece in piece.withUnsafeBufferPointer { Invariants.occurs(needle, in: $0) } }
                }
            }
        }
    }

    /// The renderings of `transcript`, its entries' looked up or made.
    package func renderings(of transcript: Transcript) -> Renderings {
        Renderings(entries: transcript.entries.map(pieces(of:)))
    }

    private func lookUp(_ key: Key) -> Kept? {
        shards[Int(UInt(bitPattern: key.hash) % UInt(shards.count))].withLock { $0[key] }
    }

    private func keep(_ kept: Kept, as key: Key) {
        shards[Int(UInt(bitPattern: key.hash) % UInt(shards.count))].withLock { table in
            if table.count < Self.capacity / shards.count { table[key] = kept }
        }
    }

    private func pieces(of entry: TranscriptEntry) -> [[UInt8]] {
        let template = Self.withoutTimeAndNumber(entry.event).map { event, id in
            (Key(time: .zero, event: event, actor: entry.actor, isTemplate: true), id)
        }
        if let (key, id) = template, case .templates(let templates) = lookUp(key) {
            let time = Array(entry.time.secondsString.utf8)
            let number = id.map { Array(String($0).utf8) } ?? []
            return templates.map { $0.filled(time: time, id: number) }
        }
        let key = Key(time: entry.time, event: entry.event, actor: entry.actor, isTemplate: false)
        if case .pieces(let pieces) = lookUp(key) { return pieces }
        let (masked, unmasked) = standIns(entry)
        let pieces = Self.render(masked, unmasked)
        if let (templateKey, id) = template,
            let templates = Self.templates(masked, unmasked, rendering: pieces, time: entry.time, id: id)
        {
            keep(.templates(templates), as: templateKey)
        } else {
            keep(.pieces(pieces), as: key)
        }
        return pieces
    }

    /// The four renderings of an entry, from its stand-ins.
    private static func render(_ masked: TranscriptEntry, _ unmasked: TranscriptEntry) -> [[UInt8]] {
        let masked = Transcript(entries: [masked])
        let unmasked = Transcript(entries: [unmasked])
        return [
            bytes(masked.text()), bytes(unmasked.text(showingPersonalData: true)),
            bytes(masked.json(), object: true), bytes(unmasked.json(showingPersonalData: true), object: true),
        ]
    }

    /// The UTF-8 bytes of `text`, copied at once; for the one `object` of a JSON array of one,
    /// without the array's `[` and `]`.
    private static func bytes(_ text: String, object: Bool = false) -> [UInt8] {
        var text = text
        return text.withUTF8 { bytes in
            object && bytes.count >= 2 ? Array(bytes[1..<(bytes.count - 1)]) : Array(bytes)
        }
    }

    // MARK: Templates

    /// A time and a callback number no session reaches, which a rendering shows only where the
    /// entry's own go.
    private static let markerTime = Duration.seconds(86_399) + .nanoseconds(123_456_789)
    private static let markerID: UInt64 = 987_654_321_987

    /// `event` with its callback number as 0, and the number; nil for a violation, which is kept
    /// whole.
    private static func withoutTimeAndNumber(_ event: TranscriptEvent) -> (TranscriptEvent, UInt64?)? {
        switch event {
        case .call(let method, let id, let arguments): (.call(method, callbackID: id.map { _ in 0 }, arguments), id)
        case .completion(let method, let id, let answer, let byDefault):
            (.completion(method, callbackID: 0, answer, byDefault: byDefault), id)
        case .action, .refused, .outcome: (event, nil)
        case .violation: nil
        }
    }

    /// `entry` at `time` with callback number `id` (when it has one).
    private static func moved(_ entry: TranscriptEntry, to time: Duration, id: UInt64) -> TranscriptEntry {
        var moved = entry
        moved.time = time
        switch entry.event {
        case .call(let method, .some, let arguments): moved.event = .call(method, callbackID: id, arguments)
        case .completion(let method, _, let answer, let byDefault):
            moved.event = .completion(method, callbackID: id, answer, byDefault: byDefault)
        case .call(_, .none, _), .action, .refused, .violation, .outcome: break
        }
        return moved
    }

    /// The templates of an entry rendered as `rendering` at `time` with number `id`: its renderings
    /// at the marker time and number, with holes where the markers show; nil unless each marker
    /// shows exactly once in each and the templates filled with `time` and `id` give `rendering`.
    private static func templates(
        _ masked: TranscriptEntry,
        _ unmasked: TranscriptEntry,
        rendering: [[UInt8]],
        time: Duration,
        id: UInt64?
    ) -> [Template]? {
        guard time != markerTime, id != markerID else { return nil }
        let marked = render(
            moved(masked, to: markerTime, id: markerID), moved(unmasked, to: markerTime, id: markerID))
        let timeMarker = Array(markerTime.secondsString.utf8)
        let idMarker = Array(String(markerID).utf8)
        let ownTime = Array(time.secondsString.utf8)
        let ownID = id.map { Array(String($0).utf8) } ?? []
        var templates: [Template] = []
        for (kind, bytes) in marked.enumerated() {
            guard let timeRange = onlyOccurrence(of: timeMarker, in: bytes) else { return nil }
            var holes = [(timeRange, kind >= 2 ? Hole.time : .paddedTime)]
            if id != nil {
                guard let idRange = onlyOccurrence(of: idMarker, in: bytes) else { return nil }
                holes.append((idRange, .id))
            }
            holes.sort { $0.0.lowerBound < $1.0.lowerBound }
            var parts: [[UInt8]] = []
            var start = 0
            for (range, _) in holes {
                guard range.lowerBound >= start else { return nil }  // overlapping markers
                parts.append(Array(bytes[start..<range.lowerBound]))
                start = range.upperBound
            }
            parts.append(Array(bytes[start...]))
            let template = Template(parts: parts, holes: holes.map(\.1))
            guard template.filled(time: ownTime, id: ownID) == rendering[kind] else { return nil }
            templates.append(template)
        }
        return templates
    }

    /// Where `marker` occurs in `bytes`, when it does exactly once.
    private static func onlyOccurrence(of marker: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        bytes.withUnsafeBufferPointer { bytes in
            marker.withUnsafeBufferPointer { marker in
                func occurrence(from start: Int) -> Int? {
                    guard start <= bytes.count else { return nil }
                    let rest = UnsafeBufferPointer(rebasing: bytes[start...])
                    return Invariants.firstOccurrence(of: marker, in: rest).map { start + $0 }
                }
                guard let first = occurrence(from: 0), occurrence(from: first + 1) == nil else { return nil }
                return first..<(first + marker.count)
            }
        }
    }

    // MARK: Stand-ins

    /// `entry` with each contact and payment replaced by its stand-ins, masked and not.
    private func standIns(_ entry: TranscriptEntry) -> (TranscriptEntry, TranscriptEntry) {
        var masked = entry
        var unmasked = entry
        switch entry.event {
        case .action(let name, let arguments):
            if let (maskedValues, unmaskedValues) = standIns(arguments) {
                masked.event = .action(name, maskedValues)
                unmasked.event = .action(name, unmaskedValues)
            }
        case .call(let method, let id, let arguments):
            if let (maskedValues, unmaskedValues) = standIns(arguments) {
                masked.event = .call(method, callbackID: id, maskedValues)
                unmasked.event = .call(method, callbackID: id, unmaskedValues)
            }
        case .completion(let method, let id, let answer, let byDefault):
            if let (maskedValues, unmaskedValues) = standIns(answer) {
                masked.event = .completion(method, callbackID: id, maskedValues, byDefault: byDefault)
                unmasked.event = .completion(method, callbackID: id, unmaskedValues, byDefault: byDefault)
            }
        case .refused, .violation, .outcome:
            break
        }
        return (masked, unmasked)
    }

    /// `values` with each contact and payment replaced by its stand-ins, masked and not; nil when
    /// there is none.
    private func standIns(_ values: [TranscriptValue]) -> ([TranscriptValue], [TranscriptValue])? {
        guard values.contains(where: StandIns.needed(for:)) else { return nil }
        var masked = values
        var unmasked = values
        for (index, value) in values.enumerated() where StandIns.needed(for: value) {
            let found = standIns(of: value)
            masked[index] = found.masked
            unmasked[index] = found.unmasked
        }
        return (masked, unmasked)
    }

    private func standIns(of value: TranscriptValue) -> StandIns {
        let shard = valueShards[Int(UInt(bitPattern: value.hashValue) % UInt(valueShards.count))]
        if let known = shard.withLock({ $0[value] }) { return known }
        let made = StandIns(value)
        shard.withLock { table in
            if table.count < Self.capacity / valueShards.count { table[value] = made }
        }
        return made
    }
}

// MARK: Answers

extension RenderingCache: AnswerDescriber {
    /// A merchant's answer with its hash worked out before a lock is taken. (An answer is
    /// `Sendable`; `AnyHashable` does not say so.)
    private struct AnswerKey: Hashable, @unchecked Sendable {
        let answer: AnyHashable
        let hash: Int

        init(_ answer: AnyHashable) {
            self.answer = answer
            hash = answer.hashValue
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }

        static func == (lhs: AnswerKey, rhs: AnswerKey) -> Bool { lhs.hash == rhs.hash && lhs.answer == rhs.answer }
    }

    /// How many answers the cache keeps described.
    package var describedAnswerCount: Int { answerShards.reduce(0) { $0 + $1.withLock(\.count) } }

    /// `answer` as ``/CheckoutFlows/TranscriptValue/answer(_:)`` describes it, described once an
    /// exploration when it is `Hashable`: the sessions of a scenario answer with the same updates,
    /// whose JSON costs more than the rest of their entries. Equal answers describe alike: their
    /// amounts are whole minor units, and their text is ASCII (the cache is only made for a
    /// scenario whose text is all ASCII).
    package func describe<Answer: CustomStringConvertible & Sendable>(_ answer: Answer) -> TranscriptValue {
        guard let hashable = answer as? AnyHashable else { return .answer(answer) }
        let key = AnswerKey(hashable)
        let shard = answerShards[Int(UInt(bitPattern: key.hash) % UInt(answerShards.count))]
        if let described = shard.withLock({ $0[key] }) { return described }
        let described = TranscriptValue.answer(answer)
        shard.withLock { table in
            if table.count < Self.capacity / answerShards.count { table[key] = described }
        }
        return described
    }
}
