import Synchronization

/// Hands out callback ids, and keeps the deadline of the callback opened last.
///
/// A callback's deadline starts when its delegate method is called (``called(_:at:)``), not when
/// the state machine opens it: the call may wait behind the delegate call the flow is making, and
/// each callback gets its own full deadline (spec E4).
package struct CallbackLedger: Sendable {
    private var lastID: UInt64 = 0
    /// Whether the callback opened last has a deadline of its own.
    private var lastIsTimed = false
    /// The deadline of the callback opened last, once its delegate call has started.
    private var lastDeadline: Duration?
    package let timeout: Duration?

    package init(timeout: Duration?) { self.timeout = timeout }

    /// The id of the callback opened last: the outstanding one, while a machine waits for an answer
    /// (a machine reads it rather than copying its state's payload to read the id).
    package var lastOpenedID: UInt64 { lastID }

    /// Opens a callback; `timed: false` opens it without a deadline of its own (one that runs
    /// under an enclosing deadline, as the pay context's callbacks run under the sheet's).
    package mutating func open<Callback>(_ callback: Callback, _ method: String, timed: Bool = true)
        -> Outstanding<Callback>
    {
        lastID += 1
        lastIsTimed = timed && timeout != nil
        lastDeadline = nil
        return Outstanding(id: lastID, callback: callback, method: method)
    }

    /// The delegate method of callback `id` is being called at `now`: its deadline starts, once.
    package mutating func called(_ id: UInt64, at now: Duration) {
        guard id == lastID, lastIsTimed, lastDeadline == nil, let timeout else { return }
        lastDeadline = now + timeout
    }

    /// When callback `id` times out: nil before its delegate call, without a deadline, or when it
    /// is not the callback opened last.
    package func deadline(of id: UInt64) -> Duration? {
        id == lastID ? lastDeadline : nil
    }

    /// How an answer to callback `id` is to be taken at time `now`.
    package func arrival(of id: UInt64, at now: Duration) -> Arrival {
        if let deadline = deadline(of: id), now >= deadline { return .pastDeadline }
        return .inTime
    }

    package enum Arrival {
        /// Apply it.
        case inTime
        /// The deadline has passed, even if its timer has not fired yet: an answer arriving
        /// exactly at the deadline is late (spec E4).
        case pastDeadline
    }
}
