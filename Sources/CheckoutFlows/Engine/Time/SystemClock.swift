import CheckoutCore
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real monotonic clock. One serial Dispatch queue serves every flow that uses it: its timers
/// sleep until the earliest deadlines and run what falls due there. A flow on this clock keeps one
/// timer, re-armed lazily, for as long as it lives (see ``CheckoutClock``).
///
/// The deadlines are kept in a few shards, each with its own lock, heap and timer; a flow keeps
/// its deadlines in one shard (other callers' go to the shard of the scheduling thread), so that
/// flows answered from a pool of threads mostly take different locks.
public final class SystemClock: CheckoutClock {
    /// The box its flows share.
    package let sharedBox = SharedClockBox()

    /// The clock every flow uses unless told otherwise.
    public static let shared = SystemClock()

    private struct State {
        /// Deadlines in nanoseconds since `origin` (``FlowInstant``), rounded up: the clock's time
        /// is whole nanoseconds, so one falls due exactly when its `Duration` would.
        var heap = DeadlineHeap<Int64>()
        var timer: (any DispatchSourceTimer)?
        var armedFor: Int64?
    }

    private static let shardCount = 8

    private let origin = SystemClock.monotonicNanoseconds()
    private let queue = DispatchQueue(label: "Checkout.SystemClock")
    private let shards: [LockedValue<State>]

    /// A clock whose origin is now.
    public init() {
        shards = (0..<Self.shardCount).map { _ in LockedValue(State()) }
    }

    /// The monotonic time elapsed since this clock was created. (Inlined: a flow reads it on every
    /// event.)
    @inline(__always)
    public var now: Duration { Self.duration(nanoseconds: instant.nanoseconds) }

    /// A flow keeps one timer on this clock, armed lazily.
    public var deadlineArming: DeadlineArming { .lazy }

    /// ``now`` in nanoseconds, read without a division.
    @inline(__always)
    public var nanosecondsSinceOrigin: Int64 { instant.nanoseconds }

    /// ``schedule(at:_:)`` at `deadline` nanoseconds, in the shard `shard` picks.
    public func schedule(atNanoseconds deadline: Int64, shard: Int, _ action: @escaping @Sendable () -> Void)
        -> DeadlineTicket
    {
        schedule(at: FlowInstant(nanoseconds: deadline), shard: shard, action)
    }

    /// ``now`` as the flow engine keeps time.
    @inline(__always)
    package var instant: FlowInstant {
        FlowInstant(nanoseconds: Int64(bitPattern: Self.monotonicNanoseconds() &- origin))
    }

    /// `Duration.nanoseconds(nanoseconds)`, made without the standard library's checked 128-bit
    /// multiplication (a flow reads the time on every event): a count of nanoseconds times 10^9
    /// always fits 128 bits, so one full-width multiplication gives the attoseconds exactly, in
    /// the two halves a `Duration` is made of.
    @inline(__always)
    @usableFromInline package static func duration(nanoseconds: Int64) -> Duration {
        let attoseconds = nanoseconds.multipliedFullWidth(by: 1_000_000_000)
        return Duration(_high: attoseconds.high, low: attoseconds.low)
    }

    /// The clock Dispatch's timers run on, read directly (`DispatchTime.now()` reads the same, at
    /// twice the cost; a flow reads it on every event): on Linux `CLOCK_MONOTONIC`; on Darwin the
    /// uptime clock, which, like Dispatch's, stops while the machine sleeps (`CLOCK_MONOTONIC`
    /// there counts the sleep, and a deadline would pass by `now` long before its timer fires).
    @inline(__always)
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
        schedule(at: FlowInstant(roundingUp: deadline), shard: Self.currentShard(), action)
    }

    /// ``schedule(at:_:)`` in the shard `shard` picks (any number: it is reduced), for a caller
    /// that keeps its deadlines together: the flow engine, so that a flow's schedules and cancels,
    /// from whichever threads, take the same lock, and other flows mostly take others.
    package func schedule(at deadline: FlowInstant, shard: Int, _ action: @escaping @Sendable () -> Void)
        -> DeadlineTicket
    {
        let shard = Int(truncatingIfNeeded: (UInt(bitPattern: shard) &* 0x9E37_79B9_7F4A_7C15) >> 61)
        return shards[shard].withLock { state in
            let ticket = state.heap.insert(deadline.nanoseconds, action)
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
        let now = instant.nanoseconds
        let wait = earliest <= now ? 0 : earliest &- now
        timer.schedule(deadline: .now() + .nanoseconds(Int(clamping: wait)), leeway: .milliseconds(1))
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
        while let entry = state.withLock({ $0.heap.popDue(at: instant.nanoseconds) }) {
            entry.action()
        }
        state.withLock { rearm(&$0, shard) }
    }
}

extension SystemClock: SharesClockBox {}
