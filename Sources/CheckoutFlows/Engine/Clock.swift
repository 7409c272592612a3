import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

/// Identifies a scheduled deadline.
public struct DeadlineTicket: Hashable, Sendable {
    /// The deadline's place in scheduling order: unique within its heap for the life of its clock.
    package let rawValue: UInt64
    // 32 bits each, so that a ticket, kept by every flow with a deadline, takes 16 bytes. A slot
    // number beyond them (two billion live deadlines in one heap) would only make its cancel miss:
    // the heap checks the ticket's order against the slot's.
    private let storedSlot: Int32
    private let storedShard: Int32

    /// Where the clock keeps the deadline while it is live (a ``DeadlineHeap`` slot).
    package var slot: Int { Int(storedSlot) }
    /// Which of the clock's heaps holds it (``SystemClock`` keeps several).
    package var shard: Int { Int(storedShard) }

    package init(rawValue: UInt64, slot: Int = 0, shard: Int = 0) {
        self.rawValue = rawValue
        self.storedSlot = Int32(truncatingIfNeeded: slot)
        self.storedShard = Int32(truncatingIfNeeded: shard)
    }
}

/// A min-heap of deadlines, earliest first and, at equal deadlines, first scheduled first, with
/// cancellation in place: a ticket names the slot that holds its deadline's action and position in
/// the heap, so cancelling removes the deadline from the heap at once and releases what its action
/// captured (a flow). Nothing is hashed; memory holds the live deadlines plus the free slots left
/// by the most that were ever live at once, given back when the heap empties.
package struct DeadlineHeap: Sendable {
    package struct Entry: Sendable {
        let deadline: Duration
        let ticket: UInt64
        let action: @Sendable () -> Void
    }

    /// A heap element: what orders it, and the slot holding the rest.
    private struct Node: Sendable {
        let deadline: Duration
        let order: UInt64
        let slot: Int
    }

    /// A live deadline's action and its position in `heap`; `order` 0 marks a free slot.
    private struct Slot: Sendable {
        var order: UInt64
        var position: Int
        var action: (@Sendable () -> Void)?
    }

    private var heap: [Node] = []
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var nextOrder: UInt64 = 1

    package init() {}

    /// How many deadlines are live (neither fired nor cancelled).
    package var count: Int { heap.count }

    /// The earliest live deadline.
    package var earliest: Duration? { heap.first?.deadline }

    package mutating func insert(_ deadline: Duration, _ action: @escaping @Sendable () -> Void)
        -> DeadlineTicket
    {
        let order = nextOrder
        nextOrder += 1
        let position = heap.count
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = Slot(order: order, position: position, action: action)
        } else {
            slot = slots.count
            slots.append(Slot(order: order, position: position, action: action))
        }
        heap.append(Node(deadline: deadline, order: order, slot: slot))
        siftUp(position)
        return DeadlineTicket(rawValue: order, slot: slot)
    }

    /// Removes the deadline of `ticket` if it is still live and returns it, for the caller to
    /// release its action outside its lock (the action may hold the last reference to a flow); a
    /// ticket that fired or was cancelled is ignored.
    @discardableResult
    package mutating func cancel(_ ticket: DeadlineTicket) -> Entry? {
        guard ticket.slot >= 0, ticket.slot < slots.count, ticket.rawValue != 0,
            slots[ticket.slot].order == ticket.rawValue
        else { return nil }
        return remove(at: slots[ticket.slot].position)
    }

    /// Removes and returns the earliest live entry due at `now` or before.
    package mutating func popDue(at now: Duration) -> Entry? {
        guard let first = heap.first, first.deadline <= now else { return nil }
        return remove(at: 0)
    }

    /// Removes the heap element at `position`, frees its slot and returns it.
    private mutating func remove(at position: Int) -> Entry {
        let node = heap[position]
        let action = slots[node.slot].action
        slots[node.slot] = Slot(order: 0, position: -1, action: nil)
        freeSlots.append(node.slot)
        let last = heap.removeLast()
        if position < heap.count {
            place(last, at: position)
            siftDown(position)
            siftUp(slots[last.slot].position)
        }
        if heap.isEmpty, slots.count > 64 {
            // Nothing is live: give back what a burst of deadlines left behind.
            slots = []
            freeSlots = []
        }
        guard let action else { preconditionFailure("a live deadline has its action") }
        return Entry(deadline: node.deadline, ticket: node.order, action: action)
    }

    private mutating func place(_ node: Node, at position: Int) {
        heap[position] = node
        slots[node.slot].position = position
    }

    private func precedes(_ a: Node, _ b: Node) -> Bool {
        (a.deadline, a.order) < (b.deadline, b.order)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        let node = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(node, heap[parent]) else { break }
            place(heap[parent], at: child)
            child = parent
        }
        place(node, at: child)
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let node = heap[parent]
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            let right = left + 1
            let child = right < heap.count && precedes(heap[right], heap[left]) ? right : left
            guard precedes(heap[child], node) else { break }
            place(heap[child], at: parent)
            parent = child
        }
        place(node, at: parent)
    }
}

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
    private struct State {
        var now: Duration = .zero
        var heap = DeadlineHeap()
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
            defer { state.heap = DeadlineHeap() }
            return state.heap
        }
        _ = discarded  // released here, outside the lock
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

/// The real monotonic clock. One serial Dispatch queue serves every flow that uses it: its timers
/// sleep until the earliest deadlines and run what falls due there. A flow on this clock keeps one
/// timer, re-armed lazily, for as long as it lives (see ``CheckoutClock``).
///
/// The deadlines are kept in a few shards, each with its own lock, heap and timer; a flow keeps
/// its deadlines in one shard (other callers' go to the shard of the scheduling thread), so that
/// flows answered from a pool of threads mostly take different locks.
public final class SystemClock: CheckoutClock {
    /// The clock every flow uses unless told otherwise.
    public static let shared = SystemClock()

    private struct State {
        var heap = DeadlineHeap()
        var timer: (any DispatchSourceTimer)?
        var armedFor: Duration?
    }

    private static let shardCount = 8

    private let origin = SystemClock.monotonicNanoseconds()
    private let queue = DispatchQueue(label: "Checkout.SystemClock")
    private let shards: [LockedValue<State>]

    /// A clock whose origin is now.
    public init() {
        shards = (0..<Self.shardCount).map { _ in LockedValue(State()) }
    }

    /// The monotonic time elapsed since this clock was created.
    public var now: Duration {
        .nanoseconds(Int64(bitPattern: Self.monotonicNanoseconds() &- origin))
    }

    /// The clock Dispatch's timers run on, read directly (`DispatchTime.now()` reads the same, at
    /// twice the cost; a flow reads it on every event): on Linux `CLOCK_MONOTONIC`; on Darwin the
    /// uptime clock, which, like Dispatch's, stops while the machine sleeps (`CLOCK_MONOTONIC`
    /// there counts the sleep, and a deadline would pass by `now` long before its timer fires).
    private static func monotonicNanoseconds() -> UInt64 {
        #if canImport(Darwin)
            return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
        #else
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        #endif
    }

    /// Schedules `action` for when `deadline` has passed; it runs on the clock's own queue.
    public func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> DeadlineTicket {
        schedule(at: deadline, shard: Self.currentShard(), action)
    }

    /// ``schedule(at:_:)`` in the shard `shard` picks (any number: it is reduced), for a caller
    /// that keeps its deadlines together: the flow engine, so that a flow's schedules and cancels,
    /// from whichever threads, take the same lock, and other flows mostly take others.
    package func schedule(at deadline: Duration, shard: Int, _ action: @escaping @Sendable () -> Void)
        -> DeadlineTicket
    {
        let shard = Int(truncatingIfNeeded: (UInt(bitPattern: shard) &* 0x9E37_79B9_7F4A_7C15) >> 61)
        return shards[shard].withLock { state in
            let ticket = state.heap.insert(deadline, action)
            rearm(&state, shard)
            return DeadlineTicket(rawValue: ticket.rawValue, slot: ticket.slot, shard: shard)
        }
    }

    /// Forgets a deadline. Cancelling a ticket that already fired, or twice, does nothing.
    public func cancel(_ ticket: DeadlineTicket) {
        guard shards.indices.contains(ticket.shard) else { return }
        let removed = shards[ticket.shard].withLock { $0.heap.cancel(ticket) }
        _ = removed  // its action is released here, outside the lock
    }

    /// The shard of the calling thread.
    private static func currentShard() -> Int {
        #if canImport(Darwin)
            let thread = UInt(bitPattern: pthread_self())
        #else
            let thread = UInt(pthread_self())
        #endif
        // Thread descriptors are page-aligned and far apart.
        return Int(truncatingIfNeeded: thread >> 12)
    }

    /// Under the shard's lock: arms its timer for its earliest deadline unless it is armed for it
    /// or earlier already.
    private func rearm(_ state: inout State, _ shard: Int) {
        guard let earliest = state.heap.earliest else { return }
        if let armed = state.armedFor, armed <= earliest { return }
        state.timer?.cancel()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let wait = max(.zero, earliest - now)
        let (seconds, attoseconds) = wait.components
        let nanos = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanos), leeway: .milliseconds(1))
        // A strong capture: a weak one gives the clock a side table, and every retain of the
        // clock, shared by every flow, would then go through it. An armed timer keeps the clock
        // alive until it fires or is replaced.
        timer.setEventHandler { [self] in fire(shard) }
        state.timer = timer
        state.armedFor = earliest
        timer.resume()
    }

    private func fire(_ shard: Int) {
        let state = shards[shard]
        state.withLock { state in
            state.timer?.cancel()
            state.timer = nil
            state.armedFor = nil
        }
        while let entry = state.withLock({ $0.heap.popDue(at: now) }) {
            entry.action()
        }
        state.withLock { rearm(&$0, shard) }
    }
}
