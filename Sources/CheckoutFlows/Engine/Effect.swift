import Synchronization

/// What a state machine tells its shell to do after an event.
package enum Effect<Call: Sendable>: Sendable {
    /// Nothing to call; the event was taken (or was a stale completion, already recorded).
    case none
    /// The driver's action is refused; nothing changed.
    case refused(Refusal)
    /// Call this delegate method.
    case call(Call)
}
