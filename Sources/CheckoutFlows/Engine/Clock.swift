import Dispatch

/// The time source of a flow's deadlines (spec E4).
///
/// A clock tells the time as a `Duration` since its own origin and calls an action when a deadline
/// passes. One clock serves any number of flows: each outstanding callback costs one entry in the
/// clock's heap of deadlines, removed lazily when the callback is answered in time. Use
/// ``SystemClock/shared`` in production and a ``ManualClock`` in tests, which fires deadlines
/// only when its virtual time is advanced.
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

/// Identifies a scheduled deadline.
public struct DeadlineTicket: Hashable, Sendable {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// A min-heap of deadlines with lazy cancellation: a cancelled entry stays in the heap, marked,
/// until it reaches the top or until cancelled entries make up half the heap, when the heap is
/// rebuilt without them. Memory therefore stays within twice the live deadlines.
package struct DeadlineHeap: Sendable {
    package struct Entry: Sendable {
        let deadline: Duration
        let ticket: UInt64
        let action: @Sendable () -> Void
    }

    /// The heap orders deadlines only; the actions live in `actions` until they fire or are
    /// cancelled, so that a cancelled deadline releases what its action captured (a flow) at once,
    /// even while its heap slot waits to be dropped.
    private struct Slot: Sendable {
        let deadline: Duration
        let ticket: UInt64
    }

    private var slots: [Slot] = []
    private var actions: [UInt64: @Sendable () -> Void] = [:]
    private var nextTicket: UInt64 = 1

    package init() {}

    /// How many deadlines are live (neither fired nor cancelled).
    package var count: Int { actions.count }

    package var earliest: Duration? {
        mutating get {
            dropCancelledTop()
            return slots.first?.deadline
        }
    }

    package mutating func insert(_ deadline: Duration, _ action: @escaping @Sendable () -> Void)
        -> DeadlineTicket
    {
        let ticket = nextTicket
        nextTicket += 1
        slots.append(Slot(deadline: deadline, ticket: ticket))
        actions[ticket] = action
        siftUp(slots.count - 1)
        return DeadlineTicket(rawValue: ticket)
    }

    package mutating func cancel(_ ticket: DeadlineTicket) {
        guard actions.removeValue(forKey: ticket.rawValue) != nil else { return }
        if (slots.count - actions.count) * 2 > slots.count { compact() }
    }

    /// Removes and returns the earliest live entry due at `now` or before.
    package mutating func popDue(at now: Duration) -> Entry? {
        dropCancelledTop()
        guard let first = slots.first, first.deadline <= now,
            let action = actions.removeValue(forKey: first.ticket)
        else { return nil }
        removeTop()
        return Entry(deadline: first.deadline, ticket: first.ticket, action: action)
    }

    private mutating func dropCancelledTop() {
        while let first = slots.first, actions[first.ticket] == nil {
            removeTop()
        }
    }

    private mutating func compact() {
        slots.removeAll { actions[$0.ticket] == nil }
        for index in stride(from: slots.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func removeTop() {
        let last = slots.removeLast()
        if !slots.isEmpty {
            slots[0] = last
            siftDown(0)
        }
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        (slots[a].deadline, slots[a].ticket) < (slots[b].deadline, slots[b].ticket)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(child, parent) else { return }
            slots.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < slots.count, precedes(left, smallest) { smallest = left }
            if right < slots.count, precedes(right, smallest) { smallest = right }
            guard smallest != parent else { return }
            slots.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

/// A clock whose time moves only when a test advances it (spec E4: tests run in virtual time and
/// never sleep). Advancing fires every deadline that falls due, in deadline order, each with
/// ``now`` set to its own deadline, on the advancing thread.
///
/// ```swift
/// let clock = ManualClock()
/// let flow = ShippingAddressFlow(configuration: config, delegate: delegate,
///                                options: FlowOptions(clock: clock))
/// clock.advance(by: .seconds(30))   // the outstanding callback times out now
/// ```
public final class ManualClock: CheckoutClock {
    private struct State {
        var now: Duration = .zero
        var heap = DeadlineHeap()
    }

    private let state = LockedValue(State())

    /// A clock at virtual time zero.
    public init() {}

    /// The virtual time: zero at creation, moved only by ``advance(by:)`` and
    /// ``advance(to:)``.
    public var now: Duration { state.withLock { $0.now } }

    /// How many deadlines are waiting to fire.
    public var pendingDeadlines: Int { state.withLock { $0.heap.count } }

    /// Schedules `action` for when virtual time reaches `deadline`. It runs during a later
    /// ``advance(by:)`` or ``advance(to:)``, on the advancing thread; never inside this call.
    public func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> DeadlineTicket {
        state.withLock { $0.heap.insert(deadline, action) }
    }

    /// Forgets a deadline. Cancelling a ticket that already fired, or twice, does nothing.
    public func cancel(_ ticket: DeadlineTicket) {
        state.withLock { $0.heap.cancel(ticket) }
    }

    /// Moves virtual time forward by `duration`, firing what falls due on the way.
    public func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    /// Moves virtual time forward to `instant` (never backward), firing what falls due on the way,
    /// in deadline order. A deadline scheduled by a fired action that is also due fires too.
    public func advance(to instant: Duration) {
        while true {
            let due: DeadlineHeap.Entry? = state.withLock { state in
                guard let entry = state.heap.popDue(at: instant) else {
                    state.now = max(state.now, instant)
                    return nil
                }
                state.now = max(state.now, entry.deadline)
                return entry
            }
            guard let due else { return }
            due.action()
        }
    }
}

/// The real monotonic clock. One background thread serves every flow that uses it: it sleeps
/// until the earliest deadline and runs what falls due on a Dispatch queue.
public final class SystemClock: CheckoutClock {
    /// The clock every flow uses unless told otherwise.
    public static let shared = SystemClock()

    private struct State {
        var heap = DeadlineHeap()
        var timer: (any DispatchSourceTimer)?
        var armedFor: Duration?
    }

    private let origin = DispatchTime.now()
    private let queue = DispatchQueue(label: "Checkout.SystemClock")
    private let state = LockedValue(State())

    /// A clock whose origin is now.
    public init() {}

    /// The monotonic time elapsed since this clock was created.
    public var now: Duration {
        .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - origin.uptimeNanoseconds))
    }

    /// Schedules `action` for when `deadline` has passed; it runs on the clock's own queue.
    public func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> DeadlineTicket {
        let ticket = state.withLock { $0.heap.insert(deadline, action) }
        rearm()
        return ticket
    }

    /// Forgets a deadline. Cancelling a ticket that already fired, or twice, does nothing.
    public func cancel(_ ticket: DeadlineTicket) {
        state.withLock { $0.heap.cancel(ticket) }
    }

    private func rearm() {
        state.withLock { state in
            guard let earliest = state.heap.earliest else { return }
            if let armed = state.armedFor, armed <= earliest { return }
            state.timer?.cancel()
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let wait = max(.zero, earliest - now)
            let (seconds, attoseconds) = wait.components
            let nanos = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            timer.schedule(deadline: .now() + .nanoseconds(nanos), leeway: .milliseconds(1))
            timer.setEventHandler { [weak self] in self?.fire() }
            state.timer = timer
            state.armedFor = earliest
            timer.resume()
        }
    }

    private func fire() {
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
            state.armedFor = nil
        }
        while let entry = state.withLock({ $0.heap.popDue(at: now) }) {
            entry.action()
        }
        rearm()
    }
}
