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
        let sheetEntries = Set(sheet.entries.map(\.sequence))
        var numbers: [String: UInt64] = [:]
        var next: UInt64 = 0
        func key(_ fromSheet: Bool, _ method: String, _ id: UInt64) -> String {
            let space = method.hasPrefix("backend.") || method.hasPrefix("sheet.") ? method : ""
            return "\(fromSheet ? "s" : "c")|\(space)|\(id)"
        }
        func fresh(_ key: String) -> UInt64 {
            next += 1
            numbers[key] = next
            return next
        }
        func number(_ key: String) -> UInt64 { numbers[key] ?? fresh(key) }
        var entries: [TranscriptEntry] = []
        for var entry in merged([sheet, context]).entries {
            let fromSheet = sheetEntries.contains(entry.sequence)
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

    /// The delegate methods called, in order (notifications included, except one the merchant does
    /// not implement, whose default ran: spec A9).
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
    public func text(showingPersonalData: Bool = false) -> String {
        entries.map { entry in
            let time = Self.padded(entry.time.secondsString, to: 8)
            let (kind, body) = Self.describe(entry.event, showingPersonalData)
            return time + " " + Self.padded(kind, to: 10) + " " + Self.padded(entry.actor.rawValue, to: 8) + " " + body
        }.joined(separator: "\n")
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

    private static func describe(_ event: TranscriptEvent, _ unmasked: Bool) -> (String, String) {
        func list(_ values: [TranscriptValue]) -> String {
            values.map { $0.rendered(showingPersonalData: unmasked) }.joined(separator: ", ")
        }
        switch event {
        case .action(let name, let arguments):
            return ("action", arguments.isEmpty ? name : "\(name)(\(list(arguments)))")
        case .refused(let name, let refusal):
            return ("refused", "\(name): \(refusal)")
        case .call(let method, let id, let arguments):
            return (
                "call",
                method + (id.map { " #\($0)" } ?? "") + (arguments.isEmpty ? "" : " (\(list(arguments)))")
            )
        case .completion(let method, let id, let answer, let byDefault):
            return (
                "completion",
                "\(method) #\(id)" + (byDefault ? " [default answer]" : "") + " → \(list(answer))"
            )
        case .violation(let violation):
            return ("VIOLATION", violation.description)
        case .outcome(let outcome):
            return ("outcome", outcome)
        }
    }
}
