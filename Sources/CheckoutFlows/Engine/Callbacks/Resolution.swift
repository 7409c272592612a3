import Synchronization

/// How an outstanding callback ended, for the driver's `async` actions.
/// Boxed (`indirect`): a machine keeps one only for an awaiting driver, and inline it would make
/// every session larger by the size of an answer.
@usableFromInline
package indirect enum Resolution<Answer: Sendable>: Sendable {
    case answered(Answer)
    case ended(CallbackEnded)
}
