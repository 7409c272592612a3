import Synchronization

/// What the engine needs to know of a flow's state machine.
package protocol FlowMachine: Sendable {
    /// A delegate call the machine asks for.
    associatedtype Call: Sendable
    /// What a completion carries.
    associatedtype Answer: Sendable

    var log: FlowLog { get }
    /// The callback whose completion is outstanding, if any: its id, and its deadline once its
    /// delegate call has started (nil before, and when it has none).
    var pending: (id: UInt64, deadline: Duration?)? { get }
    /// Whether the flow has ended (its terminal call has been asked for).
    var isEnded: Bool { get }
    /// The engine is about to perform `call` at `now`: a callback's deadline starts here, not when
    /// the machine asked for the call, which may have waited behind another (spec E4).
    mutating func delegateCalled(_ call: Call, at now: Duration)
    /// The outstanding callback `id` reached its deadline at `now`.
    mutating func deadlinePassed(_ id: UInt64, at now: Duration) -> Effect<Call>
    /// Whether the machine keeps how each callback ended, for ``takeResolution()``: off until a
    /// driver first awaits an answer (keeping it costs a copy of every answer).
    var keepsResolutions: Bool { get set }
    /// How the callback that ended during the last event ended, once (nil unless
    /// ``keepsResolutions``).
    mutating func takeResolution() -> (id: UInt64, resolution: Resolution<Answer>)?
}
