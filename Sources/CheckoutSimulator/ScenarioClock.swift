import CheckoutFlows

/// The virtual clock of a scenario run: a ``ManualClock`` that fires its deadlines one at a time
/// and lets the runner settle in between.
///
/// A `wait` step can cross several deadlines: a late answer of the merchant's, then a callback's
/// deadline. What the first one starts may run on other threads (the pay context's backend
/// requests, an answer from another thread) and takes no virtual time, so it must be over before
/// the next deadline fires; ``ManualClock/advance(to:)`` fires every due deadline in one go, and a
/// run would then depend on which thread wins (the same seed giving another ending, a timeout
/// that virtual time does not explain). Firing one deadline, settling, and only then looking for
/// the next keeps a run the same on every machine (spec E4: tests run in virtual time).
package final class ScenarioClock: CheckoutClock {
    private struct Pending {
        let deadline: Duration
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        /// The live deadlines by their ticket's number, which is their scheduling order. A run
        /// keeps a handful live at a time (one a callback outstanding, a late answer or two), so
        /// the earliest is found by looking at each.
        var pending: [UInt64: Pending] = [:]
        var next: UInt64 = 1

        /// Removes and returns the earliest deadline due at `instant` or before (the first
        /// scheduled among equal ones).
        mutating func popDue(at instant: Duration) -> Pending? {
            var best: (order: UInt64, deadline: Duration)?
            for (order, entry) in pending where entry.deadline <= instant {
                if let known = best, (known.deadline, known.order) < (entry.deadline, order) { continue }
                best = (order, entry.deadline)
            }
            return best.flatMap { pending.removeValue(forKey: $0.order) }
        }
    }

    private let state = LockedValue(State())

    package init() {}

    package var now: Duration { state.withLock { $0.now } }

    /// How many deadlines are waiting to fire.
    package var pendingDeadlines: Int { state.withLock { $0.pending.count } }

    package func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> DeadlineTicket {
        state.withLock { state in
            let order = state.next
            state.next += 1
            state.pending[order] = Pending(deadline: deadline, action: action)
            return DeadlineTicket(rawValue: order)
        }
    }

    package func cancel(_ ticket: DeadlineTicket) {
        let removed = state.withLock { $0.pending.removeValue(forKey: ticket.rawValue) }
        _ = removed  // its action is released here, outside the lock
    }

    /// Moves virtual time forward by `duration`: fires each deadline that falls due, in deadline
    /// order, with ``now`` at its deadline, and awaits `settle` after each before the next is
    /// looked for (a deadline scheduled by what fired, and due, fires too).
    package func advance(by duration: Duration, settling settle: () async -> Void) async {
        let target = now + duration
        while true {
            let due: Pending? = state.withLock { state in
                guard let entry = state.popDue(at: target) else {
                    state.now = max(state.now, target)
                    return nil
                }
                state.now = max(state.now, entry.deadline)
                return entry
            }
            guard let due else { return }
            due.action()
            await settle()
        }
    }

    /// Forgets every scheduled deadline without firing it: the run is over, and what the actions
    /// captured (flows, the merchant's late answers) is released.
    package func discardPendingDeadlines() {
        let discarded = state.withLock { state in
            defer { state.pending = [:] }
            return state.pending
        }
        _ = discarded  // released here, outside the lock
    }
}
