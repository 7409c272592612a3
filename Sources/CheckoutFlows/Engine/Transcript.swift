import CheckoutCore
import Foundation
import Synchronization

/// A value recorded in a transcript. Contacts, payments and secrets keep their type so that a
/// rendering can mask them.
public enum TranscriptValue: Hashable, Sendable {
    /// Plain text without personal data.
    case text(String)
    /// A contact or address: name, email, phone and street are masked unless asked for.
    indirect case contact(Contact)
    /// An authorized payment: its contacts are masked unless asked for, its token data always.
    indirect case payment(Payment)
    /// A client secret: always masked.
    indirect case secret(IntentClientSecret)
    /// A model value without personal data (an update, a result, an address check's answer): its
    /// short description for people, and `json`, its own JSON (CheckoutCore's shapes), for
    /// machines.
    case model(description: String, json: String)

    /// The value as text: contacts masked unless `showingPersonalData`, secrets always masked.
    public func rendered(showingPersonalData: Bool) -> String {
        switch self {
        case .text(let text): text
        case .model(let description, _): description
        case .contact(let contact): showingPersonalData ? contact.unmaskedDescription : contact.description
        case .payment(let payment):
            "Payment(\(payment.token)"
                + (payment.billingContact.map { ", billing: " + Self.contact($0, showingPersonalData) } ?? "")
                + (payment.shippingContact.map { ", shipping: " + Self.contact($0, showingPersonalData) }
                    ?? "")
                + (payment.shippingMethod.map { ", method: \($0.identifier)" } ?? "") + ")"
        case .secret(let secret): secret.description
        }
    }

    private static func contact(_ contact: Contact, _ unmasked: Bool) -> String {
        unmasked ? contact.unmaskedDescription : contact.description
    }

    /// The value as JSON text (spec E8): a contact or a payment in CheckoutCore's own JSON (the
    /// shape scenario files and the models use), with name, email, phone and street masked as
    /// `•••` unless `showingPersonalData` and the payment's token data always masked; a secret
    /// masked, and text, as JSON strings. Written as `JSONSerialization` writes it (sorted keys).
    public func json(showingPersonalData: Bool) -> String {
        func model(_ value: some Encodable) -> String? { Self.modelJSON(value) }
        func string(_ text: String) -> String {
            var writer = JSONWriter()
            writer.string(text)
            return writer.output
        }
        switch self {
        case .text(let text):
            return string(text)
        case .model(_, let json):
            return json
        case .secret:
            return string(rendered(showingPersonalData: false))
        case .contact(let contact):
            return model(Self.masked(contact, showingPersonalData))
                ?? string(rendered(showingPersonalData: showingPersonalData))
        case .payment(var payment):
            payment.token.paymentData = "•••"
            payment.billingContact = payment.billingContact.map { Self.masked($0, showingPersonalData) }
            payment.shippingContact = payment.shippingContact.map { Self.masked($0, showingPersonalData) }
            return model(payment) ?? string(rendered(showingPersonalData: showingPersonalData))
        }
    }

    /// A merchant's answer as recorded: a ``model(description:json:)`` when it has a JSON shape of
    /// its own (``TranscriptModel``), else its description as text.
    package static func answer(_ answer: some CustomStringConvertible & Sendable) -> TranscriptValue {
        guard let model = answer as? any TranscriptModel, let json = model.transcriptJSON else {
            return .text(answer.description)
        }
        return .model(description: answer.description, json: json)
    }

    /// `value` in CheckoutCore's JSON shape, keys sorted as `JSONSerialization` writes them.
    package static func modelJSON(_ value: some Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            let again = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return nil }
        return String(decoding: again, as: UTF8.self)
    }

    /// `contact` with name, email, phone and street as `•••`, unless `unmasked`.
    private static func masked(_ contact: Contact, _ unmasked: Bool) -> Contact {
        guard !unmasked else { return contact }
        var copy = contact
        let mask: (String) -> String = { _ in "•••" }
        copy.name = copy.name.map(mask)
        copy.emailAddress = copy.emailAddress.map(mask)
        copy.phoneNumber = copy.phoneNumber.map(mask)
        if var address = copy.postalAddress {
            address.line1 = address.line1.map(mask)
            address.line2 = address.line2.map(mask)
            copy.postalAddress = address
        }
        return copy
    }
}

/// A merchant's answer that a transcript's JSON writes in its own JSON shape (spec E8), not as its
/// description.
package protocol TranscriptModel {
    /// The answer's JSON, or nil when it cannot be written.
    var transcriptJSON: String? { get }
}

/// One event of a flow (spec E8).
public enum TranscriptEvent: Hashable, Sendable {
    /// The driver's accepted action, with its arguments.
    case action(String, [TranscriptValue])
    /// The driver's refused action and why.
    indirect case refused(String, Refusal)
    /// A delegate method called; `callbackID` is nil for a notification (no completion).
    case call(String, callbackID: UInt64?, [TranscriptValue])
    /// A completion that took effect, with what it carried; `byDefault` when the delegate does
    /// not implement the optional method and the flow answered for it (spec A9).
    case completion(String, callbackID: UInt64, [TranscriptValue], byDefault: Bool)
    /// A contract violation.
    indirect case violation(Violation)
    /// How the flow ended.
    case outcome(String)
}

/// Who did what a transcript entry records (spec E8), so that a transcript never shows the
/// customer doing what the library did.
public enum TranscriptActor: String, Hashable, Sendable, CaseIterable {
    /// The customer's actions on the sheet (and their refusals).
    case customer
    /// What the flow (or the pay context) did on its own: calling the merchant or the backend,
    /// answering for a delegate that does not implement a method, dismissing the sheet after a
    /// result, a deadline, the outcome.
    case flow
    /// The merchant's answers, and the merchant's violations of the contract.
    case merchant
    /// The payment backend's answers (Stripe).
    case backend

    /// Who did `event`, as the flows record it.
    public init(of event: TranscriptEvent) {
        switch event {
        case .action, .refused: self = .customer
        case .call, .outcome: self = .flow
        case .completion(let method, _, _, let byDefault):
            if method.hasPrefix("backend.") {
                self = .backend
            } else if byDefault || method.hasPrefix("sheet.") {
                self = .flow
            } else {
                self = .merchant
            }
        case .violation(let violation):
            self = violation.kind == .completionTimedOut ? .flow : .merchant
        }
    }
}

/// One line of a transcript: an event and when it happened on the flow's clock.
public struct TranscriptEntry: Hashable, Sendable {
    /// When, on the flow's clock.
    public var time: Duration
    /// What happened.
    public var event: TranscriptEvent
    /// Who did it: by default, who does `event` (``TranscriptActor/init(of:)``).
    public var actor: TranscriptActor
    /// A process-wide counter taken when the entry was recorded: it orders the entries of flows
    /// that work together (a pay context and its sheet) when their clocks show the same time.
    public var sequence: UInt64

    /// An entry recorded now; `actor` defaults to who does `event`.
    public init(time: Duration, event: TranscriptEvent, actor: TranscriptActor? = nil) {
        self.init(time: time, event: event, sequence: Self.nextSequence(), actor: actor)
    }

    /// An entry recorded earlier, with the sequence number it took then.
    package init(time: Duration, event: TranscriptEvent, sequence: UInt64, actor: TranscriptActor? = nil) {
        self.time = time
        self.event = event
        self.sequence = sequence
        self.actor = actor ?? TranscriptActor(of: event)
    }

    /// Takes the next process-wide sequence number.
    package static func nextSequence() -> UInt64 {
        transcriptSequence.add(1, ordering: .relaxed).newValue
    }
}

private let transcriptSequence = Atomic<UInt64>(0)

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
            case .completion("didAuthorizePayment", let id, let answer, let byDefault) where fromSheet:
                // The sheet's merchant is the pay context: its answer is the flow's, not the
                // merchant's.
                entry.event = .completion(
                    "didAuthorizePayment", callbackID: number(key(fromSheet, "didAuthorizePayment", id)), answer,
                    byDefault: byDefault)
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
        var writer = JSONWriter()
        writer.raw("[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { writer.raw(",") }
            let time = JSONWriter.Value.number(entry.time.secondsString)
            let actor = JSONWriter.Value.string(entry.actor.rawValue)
            func values(_ values: [TranscriptValue]) -> JSONWriter.Value {
                .raw(values.map { $0.json(showingPersonalData: showingPersonalData) })
            }
            switch entry.event {
            case .action(let name, let arguments):
                writer.object([
                    ("action", .string(name)), ("actor", actor), ("arguments", values(arguments)),
                    ("kind", .string("action")), ("time", time),
                ])
            case .refused(let name, let refusal):
                writer.object([
                    ("action", .string(name)), ("actor", actor), ("kind", .string("refused")),
                    ("message", .string(refusal.message)), ("reason", .string(refusal.code.rawValue)), ("time", time),
                ])
            case .call(let method, let id, let arguments):
                var fields: [(String, JSONWriter.Value)] = [
                    ("actor", actor), ("arguments", values(arguments)),
                ]
                if let id { fields.append(("callbackID", .number(String(id)))) }
                fields += [("kind", .string("call")), ("method", .string(method)), ("time", time)]
                writer.object(fields)
            case .completion(let method, let id, let answer, let byDefault):
                writer.object([
                    ("actor", actor), ("answer", values(answer)), ("byDefault", .bool(byDefault)),
                    ("callbackID", .number(String(id))), ("kind", .string("completion")), ("method", .string(method)),
                    ("time", time),
                ])
            case .violation(let violation):
                writer.object([
                    ("actor", actor), ("callbackID", .number(String(violation.callbackID))),
                    ("detail", .string(violation.detail)), ("kind", .string("violation")),
                    ("method", .string(violation.callback)), ("time", time),
                    ("violation", .string(violation.kind.rawValue)),
                ])
            case .outcome(let outcome):
                writer.object([
                    ("actor", actor), ("kind", .string("outcome")), ("outcome", .string(outcome)), ("time", time),
                ])
            }
        }
        writer.raw("]")
        return writer.output
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

/// Writes JSON as `JSONSerialization` does (see ``Transcript/json(showingPersonalData:)``); the
/// caller gives each object's keys in sorted order.
private struct JSONWriter {
    enum Value {
        case string(String)
        case strings([String])
        /// An array of values written already (as JSON text).
        case raw([String])
        /// A JSON number, as its text.
        case number(String)
        case bool(Bool)
    }

    private(set) var output = ""

    mutating func raw(_ text: String) { output += text }

    mutating func object(_ fields: [(String, Value)]) {
        output += "{"
        for (index, (key, value)) in fields.enumerated() {
            if index > 0 { output += "," }
            string(key)
            output += ":"
            switch value {
            case .string(let text): string(text)
            case .strings(let texts):
                output += "["
                for (index, text) in texts.enumerated() {
                    if index > 0 { output += "," }
                    string(text)
                }
                output += "]"
            case .number(let number): output += number
            case .raw(let pieces): output += "[" + pieces.joined(separator: ",") + "]"
            case .bool(let flag): output += flag ? "true" : "false"
            }
        }
        output += "}"
    }

    mutating func string(_ text: String) {
        output += "\""
        let plain = text.utf8.allSatisfy { byte in
            byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "/")
        }
        if plain {
            output += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "/": output += "\\/"
                case "\u{8}": output += "\\b"
                case "\u{c}": output += "\\f"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                case "\t": output += "\\t"
                case "\u{0}"..."\u{f}": output += "\\u000" + String(scalar.value, radix: 16)
                case "\u{10}"..."\u{1f}": output += "\\u00" + String(scalar.value, radix: 16)
                default: output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
