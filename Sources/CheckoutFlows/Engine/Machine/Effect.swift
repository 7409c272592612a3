import Synchronization

/// What a state machine tells its shell to do after an event.
@usableFromInline
package enum Effect<Call: Sendable>: Sendable {
    /// Nothing to call; the event was taken (or was a stale completion, already recorded).
    case none
    /// The driver's action is refused; nothing changed. Carried as the driver's answer, always
    /// ``DriverResponse/refused(_:)``: boxed already, so that an effect is no larger than its call
    /// (a refusal inline made every effect, the common ones included, 105 bytes to return and
    /// move), and the runner hands it on as it is.
    case refused(DriverResponse)
    /// Call this delegate method.
    case call(Call)
}
