/// The time source of a flow's deadlines (spec E4): a flow knows its clock through this protocol
/// alone.
///
/// A clock tells the time since its own origin and calls an action when a deadline passes. One
/// clock serves any number of flows, which arm their deadlines as the clock's
/// ``deadlineArming`` says. Use ``SystemClock/shared`` in production and a ``ManualClock`` in
/// tests, which fires deadlines only when its virtual time is advanced. A clock of your own needs
/// ``now``, ``schedule(at:_:)`` and ``cancel(_:)``; the other requirements have defaults.
public protocol CheckoutClock: Sendable {
    /// The time elapsed since the clock's origin.
    var now: Duration { get }

    /// Calls `action` once `now` has reached `deadline`, unless ``cancel(_:)`` was called with the
    /// returned ticket before. The action runs on a thread of the clock's choosing, never inside
    /// `schedule`.
    func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> DeadlineTicket

    /// Forgets a deadline that is no longer needed. Cancelling a ticket that already fired, or
    /// twice, does nothing.
    func cancel(_ ticket: DeadlineTicket)

    /// How a flow arms its callbacks' deadlines on this clock, read once when the flow is made.
    /// By default ``DeadlineArming/exact``.
    var deadlineArming: DeadlineArming { get }

    /// ``now`` in whole nanoseconds, rounded down: what a flow reads on every event. By default
    /// converted from ``now``; a clock that keeps nanoseconds gives them without the division.
    var nanosecondsSinceOrigin: Int64 { get }

    /// ``schedule(at:_:)`` at `deadline` nanoseconds since the origin, in the group of timers that
    /// `shard` picks (any number; a flow passes the same one for all its deadlines, so a clock that
    /// keeps its timers in shards keeps one flow's in one). By default the shard is not used.
    func schedule(atNanoseconds deadline: Int64, shard: Int, _ action: @escaping @Sendable () -> Void)
        -> DeadlineTicket
}

/// How a flow arms its callbacks' deadlines on a clock (``CheckoutClock/deadlineArming``).
public enum DeadlineArming: Hashable, Sendable {
    /// Each callback's deadline is scheduled when its delegate call starts and cancelled when the
    /// callback closes, so that actions due at the same instant run in the order they were
    /// scheduled: for a test's virtual clock.
    case exact
    /// A flow keeps one timer for its whole life: a callback whose deadline falls at or after the
    /// armed one leaves the timer alone, and a timer that fires early times nothing out and re-arms
    /// for the callback outstanding then. A callback answered in time schedules and cancels
    /// nothing; the timer is cancelled when the flow ends. For a production clock.
    case lazy
}

extension CheckoutClock {
    /// Deadlines armed exactly.
    public var deadlineArming: DeadlineArming { .exact }

    /// ``now``, rounded down to whole nanoseconds.
    public var nanosecondsSinceOrigin: Int64 { FlowInstant(roundingDown: now).nanoseconds }

    /// ``schedule(at:_:)``, at the deadline rounded up to a `Duration` of whole nanoseconds.
    public func schedule(atNanoseconds deadline: Int64, shard: Int, _ action: @escaping @Sendable () -> Void)
        -> DeadlineTicket
    {
        schedule(at: FlowInstant(nanoseconds: deadline).duration, action)
    }
}
