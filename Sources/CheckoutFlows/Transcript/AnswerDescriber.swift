/// Describes the merchant's answers when a transcript is read, in place of
/// ``TranscriptValue/answer(_:)``: for a reader that reads many transcripts whose answers repeat,
/// and keeps what it described (the simulator's explorer, whose sessions of one scenario answer
/// with the same updates). What it returns for an answer must be what
/// ``TranscriptValue/answer(_:)`` returns for it.
package protocol AnswerDescriber: Sendable {
    func describe<Answer: CustomStringConvertible & Sendable>(_ answer: Answer) -> TranscriptValue
}
