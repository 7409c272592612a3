import CheckoutCore
import CheckoutFlows

/// One event of a session that reached its flow, with what the flow made of it: the merchant's
/// answer, or the flow's refusal. A snapshot carries these; a resume replays them through a fresh
/// flow (spec W6).
package struct RecordedStep: Codable, Hashable, Sendable {
    /// The event as the page sent it: a resume reads it again as wire input.
    package var event: RelayEvent
    /// The merchant's answer, for an event the flow accepted.
    package var answer: RecordedAnswer?
    /// The flow's refusal code, for an event it refused.
    package var refusal: String?
    // Google Pay
    /// For an event that carries several changes (Google Pay's `onPaymentDataChanged`, spec W9):
    /// the answers after ``answer``, in the order the flow took them.
    package var laterAnswers: [RecordedAnswer]? = nil

    /// Every answer the event led to, in order.
    var answers: [RecordedAnswer] { (answer.map { [$0] } ?? []) + (laterAnswers ?? []) }
}
