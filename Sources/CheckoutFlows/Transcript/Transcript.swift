import CheckoutCore
import Foundation
import Synchronization

/// The ordered record of a flow (spec E8): driver actions, refusals, delegate calls,
/// completions with what they carried, violations, the outcome, with virtual timestamps.
///
/// Renderings mask personal data (street, name, email, phone) unless asked for, and always mask
/// client secrets.
public struct Transcript: Hashable, Sendable {
    /// The entries, in the order they were recorded.
    public var entries: [TranscriptEntry]

    /// A transcript of these entries.
    public init(entries: [TranscriptEntry] = []) { self.entries = entries }

    /// The entries of several transcripts in the order they were recorded.
    public static func merged(_ transcripts: [Transcript]) -> Transcript {
        Transcript(entries: transcripts.flatMap(\.entries).sorted { $0.sequence < $1.sequence })
    }

    /// A pay context's record and its sheet's as one (spec E8): in the order they were recorded,
    /// with one numbering of callbacks (`#1`, `#2`, ... in the order they were called, the sheet's,
    /// the pay context's and the backend's alike, so that no two share a number), and with the
    /// sheet's `present` and `cancel`, which only the pay context drives (the customer's are
    /// recorded by the pay context), told as the pay context's own: the duplicate `present` is
    /// left out and the sheet's `cancel` is the flow's `dismissSheet`.
    public static func payContext(sheet: Transcript, context: Transcript) -> Transcript {
        var numbers: [CallbackKey: UInt64] = [:]
        var next: UInt64 = 0
        func key(_ fromSheet: Bool, _ method: String, _ id: UInt64) -> CallbackKey {
            let space = method.hasPrefix("backend.") || method.hasPrefix("sheet.") ? method : ""
            return CallbackKey(fromSheet: fromSheet, space: space, id: id)
        }
        func fresh(_ key: CallbackKey) -> UInt64 {
            next += 1
            numbers[key] = next
            return next
        }
        func number(_ key: CallbackKey) -> UInt64 { numbers[key] ?? fresh(key) }
        var entries: [TranscriptEntry] = []
        entries.reserveCapacity(sheet.entries.count + context.entries.count)
        for place in recordedOrder(sheet.entries, context.entries) {
            var entry = place.inSheet ? sheet.entries[place.index] : context.entries[place.index]
            let fromSheet = place.fromSheet
            switch entry.event {
            case .action("present", let arguments) where fromSheet && arguments.isEmpty:
                continue
            case .action("cancel", let arguments) where fromSheet && arguments.isEmpty:
                entry.event = .action("dismissSheet", [])
                entry.actor = .flow
            case .action("sheet ended", _), .action("ignored", _):
                // The pay context's own notes: the sheet ended during a confirmation, a late
                // backend answer ignored.
                entry.actor = .flow
            case .completion(let method, let id, let answer, let byDefault)
            where fromSheet && method == DelegateMethod.didAuthorizePayment.name:
                // The sheet's merchant is the pay context: its answer is the flow's, not the
                // merchant's.
                entry.event = .completion(
                    method, callbackID: number(key(fromSheet, method, id)), answer, byDefault: byDefault)
                entry.actor = .flow
            case .call(let method, .some(let id), let arguments):
                entry.event = .call(method, callbackID: fresh(key(fromSheet, method, id)), arguments)
            case .call(let method, nil, let arguments) where method.hasPrefix("backend."):
                // A backend request is numbered like a callback, so its answer names it.
                entry.event = .call(method, callbackID: fresh(key(fromSheet, method, 0)), arguments)
            case .completion(let method, let id, let answer, let byDefault):
                let space = method.hasPrefix("backend.") ? key(fromSheet, method, 0) : key(fromSheet, method, id)
                entry.event = .completion(method, callbackID: number(space), answer, byDefault: byDefault)
            case .violation(var violation):
                violation.callbackID = number(key(fromSheet, violation.callback, violation.callbackID))
                entry.event = .violation(violation)
            default:
                break
            }
            entries.append(entry)
        }
        return Transcript(entries: entries)
    }

    /// A callback of a pay context's record as ``payContext(sheet:context:)`` numbers it: whose
    /// record it is in, the backend's or the sheet's method (its own space of ids) or "" (the
    /// merchant's, one space), and its id there.
    private struct CallbackKey: Hashable {
        let fromSheet: Bool
        let space: String
        let id: UInt64
    }

    /// Where an entry of a pay context's record is: in the sheet's transcript or the pay
    /// context's, at `index`; and whether it is told as the sheet's (one of its sequence numbers).
    private struct Place {
        let inSheet: Bool
        let index: Int
        var fromSheet: Bool
    }

    /// The entries of `sheet` and `context` in the order of ``merged(_:)``. Each record is in the
    /// order it was recorded, so the two are merged as they are; else (a transcript put together
    /// otherwise, or sharing a sequence number with the other) sorted as ``merged(_:)`` sorts.
    private static func recordedOrder(_ sheet: [TranscriptEntry], _ context: [TranscriptEntry]) -> [Place] {
        func rises(_ entries: [TranscriptEntry]) -> Bool {
            entries.indices.dropFirst().allSatisfy { entries[$0 - 1].sequence < entries[$0].sequence }
        }
        var order: [Place] = []
        order.reserveCapacity(sheet.count + context.count)
        if rises(sheet), rises(context) {
            var (s, c) = (0, 0)
            while s < sheet.count || c < context.count {
                if c == context.count || (s < sheet.count && sheet[s].sequence < context[c].sequence) {
                    order.append(Place(inSheet: true, index: s, fromSheet: true))
                    s += 1
                } else if s == sheet.count || context[c].sequence < sheet[s].sequence {
                    order.append(Place(inSheet: false, index: c, fromSheet: false))
                    c += 1
                } else {
                    break  // a sequence number in both
                }
            }
            if order.count == sheet.count + context.count { return order }
        }
        func sequence(_ place: Place) -> UInt64 {
            place.inSheet ? sheet[place.index].sequence : context[place.index].sequence
        }
        let sheetSequences = Set(sheet.map(\.sequence))
        order =
            sheet.indices.map { Place(inSheet: true, index: $0, fromSheet: true) }
            + context.indices.map { Place(inSheet: false, index: $0, fromSheet: false) }
        order.sort { sequence($0) < sequence($1) }
        for position in order.indices {
            order[position].fromSheet = sheetSequences.contains(sequence(order[position]))
        }
        return order
    }

    /// The delegate methods the flow called, in order: every callback, an optional one included
    /// when the protocol's default answered it for a merchant that does not implement it (its
    /// completion entry says `[default answer]`), and the notifications, except one the merchant
    /// does not implement, whose default ran (spec A9). It is what the flow called, not only what
    /// the merchant's own code received.
    public var delegateCalls: [String] {
        entries.compactMap { entry in
            if case .call(let method, _, _) = entry.event { return method }
            return nil
        }
    }

    /// The violations recorded, in order.
    public var violations: [Violation] {
        entries.compactMap { entry in
            if case .violation(let violation) = entry.event { return violation }
            return nil
        }
    }

    /// The transcript for people, one line an event:
    /// `0.000  call     didEnterAddress #1 (Contact(...))`.
    ///
    /// Written as UTF-8 bytes into one array and made a `String` once (the package's `JSONWriter`).
    public func text(showingPersonalData: Bool = false) -> String {
        var writer = JSONWriter(capacity: 160 * entries.count)
        for (index, entry) in entries.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: "\n")) }
            Self.pad(entry.time.secondsString, to: 8, &writer)
            writer.byte(UInt8(ascii: " "))
            Self.pad(Self.kind(of: entry.event), to: 10, &writer)
            writer.byte(UInt8(ascii: " "))
            Self.pad(entry.actor.rawValue, to: 8, &writer)
            writer.byte(UInt8(ascii: " "))
            Self.describe(entry.event, showingPersonalData, to: &writer)
        }
        return writer.output
    }

    /// Writes `text` padded with spaces to `length`, never cut (``padded(_:to:)``).
    private static func pad(_ text: String, to length: Int, _ writer: inout JSONWriter) {
        var text = text
        let ascii = text.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 < 0x80 }) else { return false }
            writer.raw(utf8)
            for _ in utf8.count..<max(length, utf8.count) { writer.byte(UInt8(ascii: " ")) }
            return true
        }
        if !ascii { writer.raw(padded(text, to: length)) }
    }

    /// `text` cut or padded with spaces to `length`, as `NSString`'s
    /// `padding(toLength:withPad:startingAt:)` does (in UTF-16 units); directly for ASCII.
    private static func padded(_ text: String, to length: Int) -> String {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            return text.count >= length ? text : text.padding(toLength: length, withPad: " ", startingAt: 0)
        }
        if utf8.count >= length { return text }  // never cut: a long time stays whole
        return text + String(repeating: " ", count: length - utf8.count)
    }

    /// The transcript for machines: a JSON array of objects with `time` (seconds of the flow's
    /// clock, a number), `actor` (`customer`, `flow`, `merchant`, `backend`), `kind` (`action`,
    /// `refused`, `call`, `completion`, `violation`, `outcome`) and the event's fields, with
    /// `arguments` and `answer` arrays of the values in the models' own JSON
    /// (``TranscriptValue/json(showingPersonalData:)``). Keys are sorted, so equal transcripts
    /// give equal JSON.
    ///
    /// Written directly, byte for byte as `JSONSerialization` writes these objects with
    /// `.sortedKeys` (keys in its case-insensitive order, `/` escaped as `\/`, control characters
    /// as `\uXXXX` or their short escapes, everything else as UTF-8), without building
    /// dictionaries for it to sort and bridge.
    public func json(showingPersonalData: Bool = false) -> String {
        var writer = JSONWriter(capacity: 384 * entries.count + 2)
        writer.byte(UInt8(ascii: "["))
        for (index, entry) in entries.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            Self.write(entry, showingPersonalData, to: &writer)
        }
        writer.byte(UInt8(ascii: "]"))
        return writer.output
    }

    /// The transcript as JSON Lines: each entry's object (as ``json(showingPersonalData:)`` writes
    /// it) on a line of its own, for a log that is appended to entry by entry.
    public func jsonLines(showingPersonalData: Bool = false) -> String {
        var writer = JSONWriter(capacity: 384 * entries.count + 1)
        for entry in entries {
            Self.write(entry, showingPersonalData, to: &writer)
            writer.byte(UInt8(ascii: "\n"))
        }
        return writer.output
    }

    /// Writes one entry's JSON object, its keys in sorted order.
    private static func write(_ entry: TranscriptEntry, _ unmasked: Bool, to writer: inout JSONWriter) {
        func actor() {
            writer.raw("\"actor\":")
            writer.string(entry.actor.rawValue)
        }
        func time() {
            writer.raw(",\"time\":")
            writer.raw(entry.time.secondsString)
        }
        func values(_ key: StaticString, _ values: [TranscriptValue]) {
            writer.raw(key)
            writer.byte(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                value.writeJSON(showingPersonalData: unmasked, to: &writer)
            }
            writer.byte(UInt8(ascii: "]"))
        }
        func field(_ key: StaticString, _ text: String) {
            writer.raw(key)
            writer.string(text)
        }
        func callbackID(_ id: UInt64) {
            writer.raw(",\"callbackID\":")
            writer.integer(id)
        }
        writer.byte(UInt8(ascii: "{"))
        switch entry.event {
        case .action(let name, let arguments):
            field("\"action\":", name)
            writer.byte(UInt8(ascii: ","))
            actor()
            values(",\"arguments\":", arguments)
            writer.raw(",\"kind\":\"action\"")
            time()
        case .refused(let name, let refusal):
            field("\"action\":", name)
            writer.byte(UInt8(ascii: ","))
            actor()
            writer.raw(",\"kind\":\"refused\"")
            field(",\"message\":", refusal.message)
            field(",\"reason\":", refusal.code.rawValue)
            time()
        case .call(let method, let id, let arguments):
            actor()
            values(",\"arguments\":", arguments)
            if let id { callbackID(id) }
            writer.raw(",\"kind\":\"call\"")
            field(",\"method\":", method)
            time()
        case .completion(let method, let id, let answer, let byDefault):
            actor()
            values(",\"answer\":", answer)
            writer.raw(",\"byDefault\":")
            writer.bool(byDefault)
            callbackID(id)
            writer.raw(",\"kind\":\"completion\"")
            field(",\"method\":", method)
            time()
        case .violation(let violation):
            actor()
            callbackID(violation.callbackID)
            field(",\"detail\":", violation.detail)
            writer.raw(",\"kind\":\"violation\"")
            field(",\"method\":", violation.callback)
            time()
            field(",\"violation\":", violation.kind.rawValue)
        case .outcome(let outcome):
            actor()
            writer.raw(",\"kind\":\"outcome\"")
            field(",\"outcome\":", outcome)
            time()
        }
        writer.byte(UInt8(ascii: "}"))
    }

    /// The text's column that tells the kind of `event`.
    private static func kind(of event: TranscriptEvent) -> String {
        switch event {
        case .action: "action"
        case .refused: "refused"
        case .call: "call"
        case .completion: "completion"
        case .violation: "VIOLATION"
        case .outcome: "outcome"
        }
    }

    /// Writes the text's description of `event`.
    private static func describe(_ event: TranscriptEvent, _ unmasked: Bool, to writer: inout JSONWriter) {
        func list(_ values: [TranscriptValue]) {
            for (index, value) in values.enumerated() {
                if index > 0 { writer.raw(", ") }
                writer.raw(value.rendered(showingPersonalData: unmasked))
            }
        }
        switch event {
        case .action(let name, let arguments):
            writer.raw(name)
            guard !arguments.isEmpty else { return }
            writer.byte(UInt8(ascii: "("))
            list(arguments)
            writer.byte(UInt8(ascii: ")"))
        case .refused(let name, let refusal):
            writer.raw(name)
            writer.raw(": ")
            writer.raw(refusal.description)
        case .call(let method, let id, let arguments):
            writer.raw(method)
            if let id {
                writer.raw(" #")
                writer.integer(id)
            }
            guard !arguments.isEmpty else { return }
            writer.raw(" (")
            list(arguments)
            writer.byte(UInt8(ascii: ")"))
        case .completion(let method, let id, let answer, let byDefault):
            writer.raw(method)
            writer.raw(" #")
            writer.integer(id)
            if byDefault { writer.raw(" [default answer]") }
            writer.raw(" → ")
            list(answer)
        case .violation(let violation):
            writer.raw(violation.description)
        case .outcome(let outcome):
            writer.raw(outcome)
        }
    }
}
