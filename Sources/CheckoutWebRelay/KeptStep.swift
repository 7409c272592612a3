import CheckoutCore
import Foundation

/// What a session keeps of one event that reached its flow, until a snapshot is written (spec
/// W6): the event in its smaller form, with the merchant's answers or the flow's refusal. A
/// snapshot writes it out as a ``RecordedStep``, the same bytes whichever form it was kept in.
struct KeptStep: Sendable {
    var event: KeptEvent
    /// The merchant's answer, for an event the flow accepted.
    var answer: RecordedAnswer?
    /// The answers after ``answer``, for an event that leads to several (spec W9).
    var laterAnswers: [RecordedAnswer]?
    /// The flow's refusal code, for an event it refused.
    var refusal: String?

    init(
        event: KeptEvent, answer: RecordedAnswer? = nil, refusal: String? = nil, laterAnswers: [RecordedAnswer]? = nil
    ) {
        self.event = event
        self.answer = answer
        self.refusal = refusal
        self.laterAnswers = laterAnswers
    }

    /// A snapshot's step, kept decoded.
    init(_ step: RecordedStep) {
        self.init(
            event: .decoded(step.event.payload), answer: step.answer, refusal: step.refusal,
            laterAnswers: step.laterAnswers)
    }

    /// The step as a snapshot writes it, for session `session`.
    ///
    /// - Throws: what reading the page's text again throws (``KeptEvent/payload()``).
    func recorded(session: String) throws -> RecordedStep {
        RecordedStep(
            event: RelayEvent(session: session, try event.payload()), answer: answer, refusal: refusal,
            laterAnswers: laterAnswers)
    }
}

/// An event as a session keeps it for its snapshot (spec W6).
enum KeptEvent: Sendable {
    /// The page's own text of the event's payload members (`"shippingContact": {…}`, every member
    /// ``RelayEvent`` reads but `session` and `type`, joined by commas), read again only when a
    /// snapshot is written: a fraction of the size of the decoded wire values, whose every
    /// optional member takes its place (BENCHMARKS.md).
    case page(RelayEventType, members: [UInt8])
    /// The event as decoded: one given to the relay as a value, or read from a snapshot.
    case decoded(RelayEvent.Payload)

    /// The event's payload: the page's text read again as ``EventJSONDecoder`` and `JSONDecoder`
    /// read it, which gives the payload the page's event gave (the same members' text, every one
    /// the event reads).
    ///
    /// - Throws: the `DecodingError` of text that no longer reads (never for text kept from an
    ///   event that was read).
    func payload() throws -> RelayEvent.Payload {
        switch self {
        case .decoded(let payload):
            return payload
        case .page(let type, let members):
            var document = Array(#"{"session":"","type":""#.utf8)
            document.reserveCapacity(document.count + type.rawValue.utf8.count + members.count + 3)
            document.append(contentsOf: type.rawValue.utf8)
            document.append(UInt8(ascii: "\""))
            if !members.isEmpty {
                document.append(UInt8(ascii: ","))
                document.append(contentsOf: members)
            }
            document.append(UInt8(ascii: "}"))
            let data = Data(document)
            if let event = EventJSONDecoder.decode(RelayEvent.self, from: data) { return event.payload }
            return try JSONDecoder().decode(RelayEvent.self, from: data).payload
        }
    }
}

extension Array where Element == KeptStep {
    /// Appends `step`, growing the storage by an eighth (at least one place) rather than doubling
    /// it: a session keeps its steps for as long as it is open, most of it idle.
    mutating func appendKeeping(_ step: KeptStep) {
        if count == capacity { reserveCapacity(count + Swift.max(1, count / 8)) }
        append(step)
    }
}
