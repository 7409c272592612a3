import Synchronization

/// Everything a ``FlowRunner`` keeps, in the runner's own allocation (the header of its
/// `ManagedBuffer`, whose one element is the lock): ``RunnerLocked``, reached only under the lock,
/// and the fields fixed when the flow is made, read without it. One allocation where a runner
/// object and a locked box took two (issue 16: a parked session's bytes).
package struct RunnerState<Machine: FlowMachine, Delegate: Sendable> {
    var locked: RunnerLocked<Machine, Delegate>
    // (The two flags first: they fill what `locked` leaves of its last word.)
    /// Whether `clockObject` is the ``SystemClock`` (the flow keeps its deadlines in one of its
    /// shards) rather than a ``RunnerClockBox``.
    let onSystemClock: Bool
    /// Whether the flow keeps one timer, armed lazily (see `FlowRunner.rearm`): on the system
    /// clock, and on a ``ManualClock`` made to test that.
    let armsLazily: Bool
    /// The flow's clock in one word, retained for the flow's life (the runner releases it in its
    /// `deinit`): the ``SystemClock`` itself, or a ``RunnerClockBox`` holding any other clock (the
    /// existential took five words of every flow). Read borrowed (`_withUnsafeGuaranteedRef`): a
    /// strong reference read from the runner cost a retain and a release each time.
    let clockObject: Unmanaged<AnyObject>
    /// What few flows have, in one box of their own, nil when the flow has none of it (inline, it
    /// cost every flow 40 bytes): ``FlowOptions/onViolation``, ``FlowOptions/onEnd``, and the work
    /// in flight of a flow that starts any.
    let extras: RunnerExtras?
    /// The completion object kept for reuse. Only the draining thread touches it: the drain is
    /// handed from thread to thread under the lock (`RunnerLocked.draining`), and one drainer
    /// makes one delegate call at a time, so no two accesses overlap.
    var spare = SpareCompletion()

    init(machine: Machine, delegate: Delegate, options: FlowOptions, tracksActivity: Bool) {
        locked = RunnerLocked(machine: machine, delegate: delegate)
        let system = options.clock as? SystemClock
        onSystemClock = system != nil
        clockObject = .passRetained(system ?? RunnerClockBox(options.clock))
        armsLazily = system != nil || (options.clock as? ManualClock)?.armsTimersLazily == true
        extras =
            options.onViolation == nil && options.onEnd == nil && !tracksActivity
            ? nil : RunnerExtras(options, tracksActivity: tracksActivity)
    }
}

/// A clock other than the system clock, boxed so that a runner holds it in one word.
final class RunnerClockBox: Sendable {
    let clock: any CheckoutClock
    /// The clock, when it is a ``ManualClock``: read as the engine keeps time without a division.
    let manual: ManualClock?

    init(_ clock: any CheckoutClock) {
        self.clock = clock
        manual = clock as? ManualClock
    }

    /// The clock's time as the engine keeps it (``FlowInstant``).
    var instant: FlowInstant { manual?.instant ?? FlowInstant(roundingDown: clock.now) }
}

/// A flow's ``FlowOptions/onViolation`` and ``FlowOptions/onEnd``, and its work in flight.
final class RunnerExtras: Sendable {
    let onViolation: (@Sendable (Violation) -> Void)?
    let onEnd: (@Sendable () -> Void)?
    /// The flow's work in flight (async delegate methods, backend calls), cancelled when the flow
    /// ends; only for flows that start such work.
    let tracked: ActivityCounter?

    init(_ options: FlowOptions, tracksActivity: Bool) {
        onViolation = options.onViolation
        onEnd = options.onEnd
        tracked = tracksActivity ? ActivityCounter() : nil
    }
}
