/// The time source of a flow's deadlines (spec E4).
///
/// A clock tells the time as a `Duration` since its own origin and calls an action when a deadline
/// passes. One clock serves any number of flows. How a flow uses it depends on the clock: on the
/// ``SystemClock`` a flow keeps one timer for its whole life, armed lazily (a callback whose
/// deadline falls at or after the armed one leaves the timer alone; a timer that fires early
/// times nothing out and re-arms for the callback outstanding then), so a callback answered in
/// time schedules and cancels nothing, and the timer is cancelled when the flow ends. On any other
/// clock (a ``ManualClock`` in tests) each callback's deadline is scheduled exactly when its
/// delegate call starts and cancelled when the callback closes. Use ``SystemClock/shared`` in
/// production and a ``ManualClock`` in tests, which fires deadlines only when its virtual time is
/// advanced.
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
}
