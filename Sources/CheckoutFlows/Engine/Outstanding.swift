import Synchronization

/// A delegate callback whose completion is outstanding: which one and its id.
///
/// Each flow's state machine keeps the outstanding callback inside the state case that waits for
/// it, so that leaving the state ends it: exactly-once holds by construction. Ids count up from 1
/// in each flow, so a stale or repeated completion is recognised by its id (spec E2). Its deadline
/// is kept by the ``CallbackLedger`` that opened it.
package struct Outstanding<Callback: Sendable>: Sendable {
    package let id: UInt64
    package let callback: Callback
    /// The delegate method's name, for refusals, violations and the transcript.
    package let method: String
}
