import CheckoutCore
import Dispatch

/// A clock whose time moves only when a test advances it (spec E4: tests run in virtual time and
/// never sleep). Advancing fires every deadline that falls due, in deadline order, each with
/// ``now`` set to its own deadline, on the advancing thread.
///
/// ```swift
/// let clock = ManualClock()
/// let flow = try ShippingAddressFlow(configuration: config, delegate: delegate,
///                                    options: FlowOptions(clock: clock))
/// clock.advance(by: .seconds(30))   // the outstanding callback times out now
/// ```
public final class ManualClock: CheckoutClock {
    /// The box its flows share.
    package let sharedBox = SharedClockBox()

    private struct State {
        var now: Duration = .zero {
            didSet { instant = FlowInstant(roundingDown: now) }
        }
        /// `now` as the flow engine reads it, kept beside it (read on every event of a flow).
        var instant = FlowInstant.zero
        var heap = DeadlineHeap<Duration>()
    }

    private let state = LockedValue(State())

    /// Whether flows on this clock arm their deadlines as they do on the ``SystemClock`` (one
    /// timer per flow, re-armed when it fires early) rather than exactly, per callback: for tests
    /// of that mechanism in virtual time.
    package let armsTimersLazily: Bool

    /// A clock at virtual time zero.
    public init() { armsTimersLazily = false }

    /// A clock at virtual time zero whose flows arm their deadlines lazily, as on the system clock.
    package init(armsTimersLazily: Bool) { self.armsTimersLazily = armsTimersLazily }

    /// The virtual time: zero at creation, moved only by ``advance(by:)`` and
    /// ``advance(to:)``.
    public var now: Duration { state.withLock { $0.now } }

    /// ``now`` as the flow engine keeps time: rounded down to the nanosecond.
    package var instant: FlowInstant { state.withLock { $0.instant } }

    /// ``now`` in nanoseconds, kept so (no division on a flow's events).
    public var nanosecondsSinceOrigin: Int64 { instant.nanoseconds }

    /// Exact, unless the clock was made to test lazily armed deadlines.
    public var deadlineArming: DeadlineArming { armsTimersLazily ? .lazy : .exact }

    /// How many deadlines are waiting to fire.
    public var pendingDeadlines: Int { state.withLock { $0.heap.count } }

    /// Schedules `action` for when virtual time reaches `deadline`. It runs during a later
    /// ``advance(by:)`` or ``advance(to:)``, on the advancing thread; never inside this call.
    public func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> DeadlineTicket {
        state.withLock { $0.heap.insert(deadline, action) }
    }

    /// Forgets a deadline. Cancelling a ticket that already fired, or twice, does nothing.
    public func cancel(_ ticket: DeadlineTicket) {
        let removed = state.withLock { $0.heap.cancel(ticket) }
        _ = removed  // its action is released here, outside the lock
    }

    /// Moves virtual time forward by `duration`, firing what falls due on the way.
    public func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    /// Forgets every scheduled deadline without firing it, releasing what the actions captured:
    /// for a test or a simulation that is over while callbacks are still outstanding (their flows
    /// would otherwise stay alive with the clock).
    public func discardPendingDeadlines() {
        let discarded = state.withLock { state in
            defer { state.heap = DeadlineHeap<Duration>() }
            return state.heap
        }
        _ = discarded  // released here, outside the lock
    }

    /// Moves virtual time forward to `instant` (never backward), firing what falls due on the way,
    /// in deadline order. A deadline scheduled by a fired action that is also due fires too.
    public func advance(to instant: Duration) {
        while let due = popDue(at: instant) { due.action() }
    }

    /// Moves virtual time forward by `duration` as ``advance(by:)`` does, but awaits `settle`
    /// after each deadline it fires, before it looks for the next: for a simulation in which what
    /// a deadline starts runs on other threads (a pay context's backend requests, an answer from
    /// another thread) and takes no virtual time, so it must be over before the next deadline
    /// fires, or a run would depend on which thread wins (spec E4: tests run in virtual time).
    package func advance(by duration: Duration, settling settle: () async -> Void) async {
        let target = now + duration
        while let due = popDue(at: target) {
            due.action()
            await settle()
        }
    }

    /// Removes the earliest deadline due at `instant` or before, with ``now`` moved to it; with
    /// none due, moves ``now`` to `instant` (never backward) and returns nil.
    private func popDue(at instant: Duration) -> DeadlineHeap<Duration>.Entry? {
        state.withLock { state in
            guard let entry = state.heap.popDue(at: instant) else {
                state.now = max(state.now, instant)
                return nil
            }
            state.now = max(state.now, entry.deadline)
            return entry
        }
    }
}

extension ManualClock: SharesClockBox {}
