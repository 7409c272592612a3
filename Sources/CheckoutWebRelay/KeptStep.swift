import CheckoutCore
import Foundation

/// What a session keeps of the events that reached its flow, until a snapshot is written (spec
/// W6): each event in its smaller form, with the merchant's answers or the flow's refusal, and the
/// page's text of the events kept as text one after another in one buffer. A snapshot writes the
/// steps out as ``RecordedStep``s, the same bytes whichever form each was kept in.
struct KeptSteps: Sendable {
    private var steps: [KeptStep] = []
    /// The page's text of the events kept as text, one after another.
    private var text: [UInt8] = []

    /// No step yet.
    init() {}

    /// A snapshot's steps, kept decoded.
    init(_ recorded: [RecordedStep]) {
        steps.reserveCapacity(recorded.count)
        for step in recorded {
            append(
                .decoded(step.event.payload), of: step.event.payload, answer: step.answer, refusal: step.refusal,
                laterAnswers: step.laterAnswers)
        }
    }

    /// How many steps are kept.
    var count: Int { steps.count }

    /// Keeps an event with the merchant's answer (the first, and for an event that leads to several,
    /// spec W9, the later ones) or the flow's refusal. Both buffers grow by an eighth (at least what
    /// is added) rather than doubling: a session keeps its steps as long as it is open, most of it
    /// idle.
    /// `payload` is the event as decoded, kept when its text cannot be.
    mutating func append(
        _ event: KeptEvent, of payload: RelayEvent.Payload, answer: RecordedAnswer? = nil, refusal: String? = nil,
        laterAnswers: [RecordedAnswer]? = nil
    ) {
        let kept: KeptStep.Event
        switch event {
        case .page(let type, let members) where text.count + members.count <= UInt32.max:
            let start = text.count
            if text.capacity < start + members.count {
                text.reserveCapacity(start + max(members.count, start / 8))
            }
            text.append(contentsOf: members)
            kept = .page(type, start: UInt32(start), count: UInt32(members.count))
        case .page, .decoded:
            // Past four gigabytes of text (a limit raised that far) the event is kept decoded.
            kept = .decoded(payload)
        }
        if steps.count == steps.capacity { steps.reserveCapacity(steps.count + max(1, steps.count / 8)) }
        steps.append(
            KeptStep(
                event: kept, answer: answer,
                rest: refusal == nil && laterAnswers == nil
                    ? nil : KeptStep.Rest(refusal: refusal, laterAnswers: laterAnswers)))
    }

    /// The steps as a snapshot writes them, for session `session`.
    ///
    /// - Throws: ``RelayError`` with ``RelayError/Code/snapshotUnsupported`` naming the step whose
    ///   text no longer reads (never for text kept from an event that was read).
    func recorded(session: String) throws -> [RecordedStep] {
        try steps.enumerated().map { index, step in
            let payload: RelayEvent.Payload
            switch step.event {
            case .decoded(let decoded):
                payload = decoded
            case .page(let type, let start, let count):
                let members = Array(text[Int(start)..<Int(start) + Int(count)])
                do {
                    payload = try KeptEvent.page(type, members: members).payload()
                } catch {
                    throw RelayError(
                        code: .snapshotUnsupported,
                        message: "steps[\(index)]'s event no longer reads as the page sent it: \(error)",
                        field: "steps[\(index)]", value: session)
                }
            }
            return RecordedStep(
                event: RelayEvent(session: session, payload), answer: step.answer, refusal: step.rest?.refusal,
                laterAnswers: step.rest?.laterAnswers)
        }
    }
}

/// One kept step: the event, the merchant's first answer, and what is rarer in a box of its own.
private struct KeptStep: Sendable {
    enum Event: Sendable {
        /// The page's text, at `start` in the session's buffer.
        case page(RelayEventType, start: UInt32, count: UInt32)
        /// The event as decoded: one given to the relay as a value, or read from a snapshot.
        case decoded(RelayEvent.Payload)
    }

    /// The flow's refusal code, and the answers after the first of an event that leads to several.
    final class Rest: Sendable {
        let refusal: String?
        let laterAnswers: [RecordedAnswer]?

        init(refusal: String?, laterAnswers: [RecordedAnswer]?) {
            self.refusal = refusal
            self.laterAnswers = laterAnswers
        }
    }

    var event: Event
    /// The merchant's answer, for an event the flow accepted.
    var answer: RecordedAnswer?
    var rest: Rest?
}

/// An event as the relay hands it to the session that keeps it (``KeptSteps``).
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
