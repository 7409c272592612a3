import Synchronization

/// A delegate callback whose completion is outstanding: which one and its id.
///
/// Each flow's state machine keeps the outstanding callback inside the state case that waits for
/// it, so that leaving the state ends it: exactly-once holds by construction. Ids count up from 1
/// in each flow, so a stale or repeated completion is recognised by its id (spec E2). The
/// ``CallbackLedger`` that opened it keeps its deadline, and its id as the one opened last: while
/// the state waits, that is the outstanding callback's id, which the machines compare answers and
/// deadlines with (``CallbackLedger/admit(_:first:outstanding:at:)``) without copying the state.
@usableFromInline
package struct Outstanding<Callback: Sendable>: Sendable {
    @usableFromInline package let id: UInt64
    @usableFromInline package let callback: Callback
    /// The delegate method's name (``DelegateMethod/name``), for refusals, violations and the
    /// transcript. (Kept as its string: as a one-byte ``DelegateMethod`` it saved 16 bytes a
    /// session but made every state change copy the state through its tag, 60 instructions a
    /// round trip.)
    @usableFromInline package let method: String

    @inlinable
    package init(id: UInt64, callback: Callback, method: String) {
        self.id = id
        self.callback = callback
        self.method = method
    }
}
