import Synchronization

/// What the engine needs to know of a flow's state machine. (`@usableFromInline`, and so are a
/// machine's witnesses: the engine's inlinable code, see ``FlowRunner``, calls them.)
@usableFromInline
package protocol FlowMachine: Sendable {
    /// A delegate call the machine asks for.
    associatedtype Call: Sendable
    /// What a completion carries.
    associatedtype Answer: Sendable

    var log: FlowLog { get }
    /// The callback whose completion is outstanding, if any: its id, and its deadline once its
    /// delegate call has started (nil before, and when it has none).
    var pending: (id: UInt64, deadline: FlowInstant?)? { get }
    /// Whether the flow has ended (its terminal call has been asked for).
    var isEnded: Bool { get }
    /// The engine is about to perform `call` at `now`: a callback's deadline starts here, not when
    /// the machine asked for the call, which may have waited behind another (spec E4).
    mutating func delegateCalled(_ call: Call, at now: FlowInstant)
    /// The outstanding callback `id` reached its deadline at `now`.
    mutating func deadlinePassed(_ id: UInt64, at now: FlowInstant) -> Effect<Call>
    /// The machine's callback bookkeeping: ids, deadlines, how an answer is taken, and how each
    /// callback ended for a driver that awaits it (``CallbackLedger/keepsResolutions``, off until
    /// one first does).
    var ledger: CallbackLedger<Answer> { get set }
}
