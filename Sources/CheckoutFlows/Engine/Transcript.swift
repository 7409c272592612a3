import CheckoutCore
import Foundation
import Synchronization

/// A value recorded in a transcript. Contacts, payments and secrets keep their type so that a
/// rendering can mask them.
public enum TranscriptValue: Hashable, Sendable {
    /// Plain text without personal data.
    case text(String)
    /// A contact or address: name, email, phone and street are masked unless asked for.
    case contact(Contact)
    /// An authorized payment: its contacts are masked unless asked for, its token data always.
    case payment(Payment)
    /// A client secret: always masked.
    case secret(IntentClientSecret)

    /// The value as text: contacts masked unless `showingPersonalData`, secrets always masked.
    public func rendered(showingPersonalData: Bool) -> String {
        switch self {
        case .text(let text): text
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
}

/// One event of a flow (spec E8).
public enum TranscriptEvent: Hashable, Sendable {
    /// The driver's accepted action, with its arguments.
    case action(String, [TranscriptValue])
    /// The driver's refused action and why.
    case refused(String, Refusal)
    /// A delegate method called; `callbackID` is nil for a notification (no completion).
    case call(String, callbackID: UInt64?, [TranscriptValue])
    /// A completion that took effect, with what it carried; `byDefault` when the delegate does
    /// not implement the optional method and the flow answered for it (spec A9).
    case completion(String, callbackID: UInt64, [TranscriptValue], byDefault: Bool)
    /// A contract violation.
    case violation(Violation)
    /// How the flow ended.
    case outcome(String)
}

/// One line of a transcript: an event and when it happened on the flow's clock.
public struct TranscriptEntry: Hashable, Sendable {
    /// When, on the flow's clock.
    public var time: Duration
    /// What happened.
    public var event: TranscriptEvent
    /// A process-wide counter taken when the entry was recorded: it orders the entries of flows
    /// that work together (a pay context and its sheet) when their clocks show the same time.
    public var sequence: UInt64

    /// An entry recorded now.
    public init(time: Duration, event: TranscriptEvent) {
        self.time = time
        self.event = event
        self.sequence = transcriptSequence.add(1, ordering: .relaxed).newValue
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

    /// The delegate methods called, in order (notifications included).
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
            let time = entry.time.secondsString.padding(toLength: 8, withPad: " ", startingAt: 0)
            let (kind, body) = Self.describe(entry.event, showingPersonalData)
            return time + " " + kind.padding(toLength: 10, withPad: " ", startingAt: 0) + " " + body
        }.joined(separator: "\n")
    }

    /// The transcript for machines: a JSON array of objects with `time` (seconds, as a string),
    /// `kind` (`action`, `refused`, `call`, `completion`, `violation`, `outcome`) and the event's
    /// fields. Keys are sorted, so equal transcripts give equal JSON.
    public func json(showingPersonalData: Bool = false) -> String {
        let objects: [[String: Any]] = entries.map { entry in
            var object: [String: Any] = ["time": entry.time.secondsString]
            func values(_ values: [TranscriptValue]) -> [String] {
                values.map { $0.rendered(showingPersonalData: showingPersonalData) }
            }
            switch entry.event {
            case .action(let name, let arguments):
                object["kind"] = "action"
                object["action"] = name
                object["arguments"] = values(arguments)
            case .refused(let name, let refusal):
                object["kind"] = "refused"
                object["action"] = name
                object["reason"] = refusal.code.rawValue
                object["message"] = refusal.message
            case .call(let method, let id, let arguments):
                object["kind"] = "call"
                object["method"] = method
                if let id { object["callbackID"] = id }
                object["arguments"] = values(arguments)
            case .completion(let method, let id, let answer, let byDefault):
                object["kind"] = "completion"
                object["method"] = method
                object["callbackID"] = id
                object["answer"] = values(answer)
                object["byDefault"] = byDefault
            case .violation(let violation):
                object["kind"] = "violation"
                object["violation"] = violation.kind.rawValue
                object["method"] = violation.callback
                object["callbackID"] = violation.callbackID
                object["detail"] = violation.detail
            case .outcome(let outcome):
                object["kind"] = "outcome"
                object["outcome"] = outcome
            }
            return object
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
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
