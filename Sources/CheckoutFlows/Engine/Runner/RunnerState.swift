import Synchronization

/// Everything a ``FlowRunner`` keeps, in the runner's own allocation (the header of its
/// `ManagedBuffer`, whose one element is the lock): ``RunnerLocked``, reached only under the lock,
/// and the fields fixed when the flow is made, read without it. One allocation where a runner
/// object and a locked box took two.
@usableFromInline
package struct RunnerState<Machine: FlowMachine> {
    @usableFromInline var locked: RunnerLocked<Machine>
    // (The flag first: it fills what `locked` leaves of its last word.)
    /// Whether the flow keeps one timer, armed lazily (see `FlowRunner.rearm`), as the clock's
    /// ``CheckoutClock/deadlineArming`` says.
    @usableFromInline let armsLazily: Bool
    /// The flow's clock in one word (a ``RunnerClockBox``), retained for the flow's life (the
    /// runner releases it in its `deinit`): the existential took five words of every flow. Read
    /// borrowed (`_withUnsafeGuaranteedRef`): a strong reference read from the runner cost a
    /// retain and a release each time.
    @usableFromInline let clockObject: Unmanaged<RunnerClockBox>
    /// What few flows have, in one box of their own, nil when the flow has none of it (inline, it
    /// cost every flow 40 bytes): ``FlowOptions/onViolation``, ``FlowOptions/onEnd``, and the work
    /// in flight of a flow that starts any.
    @usableFromInline let extras: RunnerExtras?
    /// The completion object kept for reuse. Only the draining thread touches it, or a thread
    /// that holds the lock while no drain is under way (``FlowRunner/compactWhileIdle(_:)``): the
    /// drain is handed from thread to thread under the lock (`RunnerLocked.draining`), and one
    /// drainer makes one delegate call at a time, so no two accesses overlap.
    @usableFromInline var spare = SpareCompletion()
    /// The delegate call an isolated merchant's adapter handed off during the current `perform`
    /// (``FlowRunner/handOff(_:)``): the drainer starts it once `perform` has returned, and the drain
    /// goes on where the call ends, on its isolation. Only the draining thread touches it, as `spare`.
    @usableFromInline var handedOff: DrainHandOff?

    @inlinable
    init(machine: Machine, merchant: MerchantHold, options: FlowOptions, tracksActivity: Bool) {
        locked = RunnerLocked(machine: machine, merchant: merchant)
        clockObject = .passRetained(RunnerClockBox.box(for: options.clock))
        armsLazily = options.clock.deadlineArming == .lazy
        extras =
            options.onViolation == nil && options.onEnd == nil && options.onDefaultAnswer == nil
                && !tracksActivity
            ? nil : RunnerExtras(options, tracksActivity: tracksActivity)
    }
}

/// A flow's clock, boxed so that a runner holds it in one word. The flows on one of the package's
/// clocks share its box (``SharedClockBox``); a flow on any other clock has a box of its own.
@usableFromInline
final class RunnerClockBox: Sendable {
    @usableFromInline let clock: any CheckoutClock

    fileprivate init(_ clock: any CheckoutClock) { self.clock = clock }

    /// The box of `clock`: the one its flows share, or a new one.
    @usableFromInline
    static func box(for clock: any CheckoutClock) -> RunnerClockBox {
        guard let sharing = clock as? any SharesClockBox else { return RunnerClockBox(clock) }
        return sharing.sharedBox.box(for: clock)
    }

    /// The clock's time as the engine keeps it (``FlowInstant``).
    @inlinable @inline(__always)
    var instant: FlowInstant { FlowInstant(nanoseconds: clock.nanosecondsSinceOrigin) }
}

/// A clock whose flows share one box (a box for each flow cost every session 64 bytes).
package protocol SharesClockBox: AnyObject, Sendable {
    var sharedBox: SharedClockBox { get }
}

/// The box the flows on one clock share, held weakly by the clock (the box holds the clock, and
/// lives while a flow holds it).
package final class SharedClockBox: Sendable {
    private struct Weak {
        weak var box: RunnerClockBox?
    }

    private let current = LockedValue(Weak())

    package init() {}

    /// The box the clock's flows hold now, or a new one for `clock`.
    fileprivate func box(for clock: any CheckoutClock) -> RunnerClockBox {
        current.withLock { current in
            if let box = current.box { return box }
            let box = RunnerClockBox(clock)
            current.box = box
            return box
        }
    }
}

/// A flow's ``FlowOptions/onViolation``, ``FlowOptions/onEnd`` and ``FlowOptions/onDefaultAnswer``,
/// and its work in flight.
@usableFromInline
final class RunnerExtras: Sendable {
    @usableFromInline let onViolation: (@Sendable (Violation) -> Void)?
    @usableFromInline let onEnd: (@Sendable () -> Void)?
    @usableFromInline let onDefaultAnswer: (@Sendable (DelegateMethod) -> Void)?
    /// The flow's work in flight (async delegate methods, backend calls), cancelled when the flow
    /// ends; only for flows that start such work.
    @usableFromInline let tracked: ActivityCounter?

    @usableFromInline
    init(_ options: FlowOptions, tracksActivity: Bool) {
        onViolation = options.onViolation
        onEnd = options.onEnd
        onDefaultAnswer = options.onDefaultAnswer
        tracked = tracksActivity ? ActivityCounter() : nil
    }
}

/// What a ``FlowRunner`` keeps under its lock: the state machine, the merchant, the work queue,
/// the armed deadline, and what awaiting drivers wait for.
@usableFromInline
struct RunnerLocked<Machine: FlowMachine> {
    @usableFromInline typealias Work = RunnerWork<Machine.Call>

    // Laid out tight (every flow keeps one): the flags and the two counts, 32 bits each, fill
    // what the machine leaves of its last word.
    @usableFromInline var machine: Machine
    @usableFromInline var terminalDone = false
    /// Whether a thread drains the flow's work: it is in, or about to make, a delegate call,
    /// and comes back under the lock when the call returns (swift-nio's `inDelegateOutcall`).
    /// Only the drainer clears it, in `nextStep`, when it finds nothing left to do.
    @usableFromInline var draining = false
    /// Where the work queue starts: `work[workHead...]` is still to run.
    @usableFromInline var workHead: Int32 = 0
    /// How many of the machine's violations have been queued for ``FlowOptions/onViolation``.
    @usableFromInline var reportedViolations: Int32 = 0
    /// The merchant, held until the terminal call has been made, then let go of (spec E5). Kept
    /// inline, at the fixed address of the runner's state: the draining thread reads it from there
    /// (``FlowRunner``'s `merchantPointer`). The hold is unmanaged (``MerchantHold``), so reading
    /// it costs no reference count.
    @usableFromInline var merchant: MerchantHold?
    /// The work queue. The thread that wins the drain takes an event's call straight from the
    /// event, without queueing it, when nothing is queued before it.
    @usableFromInline var work: [Work] = []
    /// The drivers awaiting an answer or the end, in a box made when the first one waits (most
    /// flows never have one).
    @usableFromInline var waiters: RunnerWaiters<Machine.Answer>?
    /// The flow's armed deadline, due `at`. On a clock other than the system clock, the
    /// deadline of callback `id`; on the system clock, the flow's one timer, which may be
    /// earlier than the outstanding callback's deadline (it then re-arms for it when it fires).
    @usableFromInline var armed: (ticket: DeadlineTicket, id: UInt64, at: FlowInstant)?

    @inlinable
    init(machine: Machine, merchant: MerchantHold) {
        self.machine = machine
        self.merchant = merchant
    }

    @inlinable var hasWork: Bool { Int(workHead) < work.count }

    /// Whether a drainer is needed: work is queued, or the flow has ended and its merchant is
    /// still to be let go of.
    @inlinable var needsDrainer: Bool { hasWork || (machine.isEnded && !terminalDone) }

    /// Takes the next queued work item; the queue's storage is released once it is empty.
    @inlinable mutating func popWork() -> Work {
        guard Int(workHead) < work.count else { return .idle }
        let next = work[Int(workHead)]
        workHead += 1
        if Int(workHead) == work.count {
            work = []
            workHead = 0
        }
        return next
    }
}

/// The drivers awaiting a flow: the answer to a callback their action opened, or the flow's end.
@usableFromInline
final class RunnerWaiters<Answer: Sendable> {
    @usableFromInline var answers: [UInt64: CheckedContinuation<Answer?, any Error>] = [:]
    @usableFromInline var ends: [CheckedContinuation<Answer?, any Error>] = []

    @inlinable init() {}

    /// Whether no driver waits.
    @inlinable var isEmpty: Bool { answers.isEmpty && ends.isEmpty }
}

extension RunnerLocked {
    /// The waiters' box, made now if the flow had none.
    @inlinable var madeWaiters: RunnerWaiters<Machine.Answer> {
        mutating get {
            if let waiters { return waiters }
            let made = RunnerWaiters<Machine.Answer>()
            waiters = made
            return made
        }
    }
}

/// A delegate call or a violation report, queued for the thread that drains; `idle` when there
/// is none (a case rather than an optional: an optional of this enum is copied through its
/// runtime metadata).
@usableFromInline
enum RunnerWork<Call: Sendable>: Sendable {
    case idle
    case call(Call)
    indirect case violation(Violation)

    @inlinable var isIdle: Bool {
        if case .idle = self { return true }
        return false
    }

    /// Moves the item out, leaving `idle`.
    @inlinable mutating func take() -> Self {
        let taken = consume self
        self = .idle
        return taken
    }
}

/// What an event leaves to do outside the lock. (Not copyable: it is never copied. Its two rare
/// objects are held as retained `Unmanaged` references, taken back by ``FlowRunner``'s `finish`,
/// which every event runs: held strongly, they made this value destroyed through its runtime
/// metadata, about 50 instructions an event (BENCHMARKS.md). For the same reason the drain's first
/// work item travels beside it, in a variable of its own.)
@usableFromInline
struct RunnerAfterEvent<Answer: Sendable>: ~Copyable {
    @usableFromInline var cancelTicket: DeadlineTicket?
    /// Whether this thread won the drain; its first step, taken under the event's own lock,
    /// follows.
    @usableFromInline var drains = false
    /// The merchant, borrowed (see `FlowRunner.DrainStep`).
    @usableFromInline var merchant: UnsafeRawPointer?
    /// Set when the drain ended the flow under the event's own lock: what to release and wake.
    @usableFromInline var ending: Unmanaged<RunnerEnding>?
    /// The waiters to wake, rarely any: out of line, made on first use.
    @usableFromInline var wakes: Unmanaged<RunnerWakes<Answer>>?

    @inlinable init() {}

    #if DEBUG
        // Every event's leftovers pass through `FlowRunner.finish`, which takes back both retained
        // references: one left here would be a leak.
        deinit { assert(wakes == nil && ending == nil, "an event's leftovers were not finished") }
    #endif

    @inlinable mutating func resume(_ waiter: (CheckedContinuation<Answer?, any Error>, Result<Answer?, any Error>)) {
        if wakes == nil { wakes = .passRetained(RunnerWakes()) }
        wakes?._withUnsafeGuaranteedRef { $0.resume.append(waiter) }
    }

    /// Keeps `ending`, retained until ``takeEnding()``.
    @inlinable mutating func keep(_ ending: consuming RunnerEnding?) {
        if let ending { self.ending = .passRetained(ending) }
    }

    /// The waiters to wake, once.
    @inlinable mutating func takeWakes() -> RunnerWakes<Answer>? { wakes.take()?.takeRetainedValue() }

    /// The flow's ending, once.
    @inlinable mutating func takeEnding() -> RunnerEnding? { ending.take()?.takeRetainedValue() }
}

/// What the end of a flow leaves to do outside the lock, once its terminal call has returned: the
/// merchant to let go of, and whoever waits for the end (rare: out of line).
///
/// Not generic: a generic class's `deinit` looks up its fields' generic types at run time (an
/// optional merchant, an array of continuations: about 1,100 instructions a flow).
@usableFromInline
final class RunnerEnding {
    @usableFromInline var merchant: MerchantHold?
    /// Wakes whoever waits for the end; nil when nobody does.
    @usableFromInline let wakeEndWaiters: (() -> Void)?

    @usableFromInline
    init(merchant: MerchantHold?, wakeEndWaiters: (() -> Void)?) {
        self.merchant = merchant
        self.wakeEndWaiters = wakeEndWaiters
    }
}

/// The waiters an event wakes outside the lock: the driver's awaited actions, with their answers.
/// (Whoever waits for the end is woken by ``RunnerEnding``.)
@usableFromInline
final class RunnerWakes<Answer: Sendable> {
    @usableFromInline var resume: [(CheckedContinuation<Answer?, any Error>, Result<Answer?, any Error>)] = []

    @inlinable init() {}
}
