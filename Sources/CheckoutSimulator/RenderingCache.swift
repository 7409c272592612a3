import CheckoutFlows
import Foundation

/// The four renderings the P7 check searches (text and JSON, masked and not) of the transcript
/// entries an exploration has seen, so that a transcript is put together from its entries' instead
/// of being rendered whole each time: sessions of one scenario repeat many of their entries, and
/// pick their contacts from a handful.
///
/// The result is byte for byte what ``Transcript`` renders (a test compares both), because the
/// renderings are made of their entries' (spec E8): the text has one line an entry, joined by line
/// feeds; the JSON is an array of one object an entry, without spaces. An entry's renderings are
/// made by ``Transcript`` itself, from a transcript of that entry alone, with its contacts and
/// payments, which cost the most to render, rendered once an exploration (see ``StandIns``).
///
/// Entries are told apart by their time, event and actor (the sequence number is not rendered),
/// values by equality. Swift compares strings by canonical equivalence, so two entries that are
/// equal could still differ in their bytes (`é` written as one scalar or two), and so would their
/// renderings: the cache is only made for a scenario whose text is all ASCII, which leaves every
/// string of a session's entries either ASCII or the engine's own.
package final class RenderingCache: Sendable {
    /// An entry without its sequence number, with its hash worked out before a lock is taken.
    private struct Key: Hashable {
        let time: Duration
        let event: TranscriptEvent
        let actor: TranscriptActor
        let hash: Int

        init(_ entry: TranscriptEntry) {
            time = entry.time
            event = entry.event
            actor = entry.actor
            var hasher = Hasher()
            hasher.combine(time)
            hasher.combine(event)
            hasher.combine(actor)
            hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.hash == rhs.hash && lhs.time == rhs.time && lhs.event == rhs.event && lhs.actor == rhs.actor
        }
    }

    /// One entry's renderings, in the order of ``Renderings/whole``: its text line, masked and not,
    /// and its JSON object, masked and not.
    fileprivate final class Pieces: Sendable {
        let pieces: [String]

        init(_ masked: TranscriptEntry, _ unmasked: TranscriptEntry) {
            let masked = Transcript(entries: [masked])
            let unmasked = Transcript(entries: [unmasked])
            pieces = [
                masked.text(), unmasked.text(showingPersonalData: true),
                Self.object(masked.json()), Self.object(unmasked.json(showingPersonalData: true)),
            ]
        }

        /// The one object of a JSON array of one: without its `[` and `]`.
        private static func object(_ array: String) -> String {
            String(Substring(array.utf8.dropFirst().dropLast()))
        }
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
    private let shards: [LockedValue<[Key: Pieces]>] = (0..<16).map { _ in LockedValue([:]) }
    private let valueShards: [LockedValue<[TranscriptValue: StandIns]>] = (0..<16).map { _ in LockedValue([:]) }

    /// A cache for the sessions of `scenario`, or nil when some of its text is not ASCII.
    package init?(for scenario: Scenario) {
        // JSONEncoder writes strings as they are (only quotes, backslashes, slashes and control
        // characters escaped), so every scalar of the scenario's text shows in the bytes.
        guard let data = try? JSONEncoder().encode(scenario), data.allSatisfy({ $0 < 0x80 }) else { return nil }
    }

    /// The renderings of a transcript, from its entries'.
    package struct Renderings {
        fileprivate let entries: [Pieces]

        /// `transcript.text()`, `transcript.text(showingPersonalData: true)`, `transcript.json()`
        /// and `transcript.json(showingPersonalData: true)`, in this order.
        package var whole: [String] {
            (0..<4).map { kind in
                let json = kind >= 2
                var rendering = json ? "[" : ""
                for (index, entry) in entries.enumerated() {
                    if index > 0 { rendering += json ? "," : "\n" }
                    rendering += entry.pieces[kind]
                }
                if json { rendering += "]" }
                return rendering
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
            return entries.contains { entry in entry.pieces.contains { Invariants.occurs(needle, in: $0) } }
        }
    }

    /// The renderings of `transcript`, its entries' looked up or made.
    package func renderings(of transcript: Transcript) -> Renderings {
        Renderings(entries: transcript.entries.map(pieces(of:)))
    }

    private func pieces(of entry: TranscriptEntry) -> Pieces {
        let key = Key(entry)
        let shard = shards[Int(UInt(bitPattern: key.hash) % UInt(shards.count))]
        if let known = shard.withLock({ $0[key] }) { return known }
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
        let made = Pieces(masked, unmasked)
        shard.withLock { table in
            if table.count < Self.capacity / shards.count { table[key] = made }
        }
        return made
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
