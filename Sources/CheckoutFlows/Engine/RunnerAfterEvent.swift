import Synchronization

/// What an event leaves to do outside the lock. (Not copyable: it is never copied. Its two rare
/// objects are held as retained `Unmanaged` references, taken back by ``FlowRunner``'s `finish`,
/// which every event runs: held strongly, they made this value destroyed through its runtime
/// metadata, 50 instructions an event. For the same reason the drain's first work item travels
/// beside it, in a variable of its own. Measured, issue 16.)
struct RunnerAfterEvent<Delegate: Sendable, Answer: Sendable>: ~Copyable {
    var cancelTicket: DeadlineTicket?
    /// Whether this thread won the drain; its first step, taken under the event's own lock,
    /// follows.
    var drains = false
    /// The delegate, borrowed (see `FlowRunner.DrainStep`).
    var delegate: UnsafeRawPointer?
    /// Set when the drain ended the flow under the event's own lock: what to release and wake.
    var ending: Unmanaged<RunnerEnding>?
    /// The waiters to wake, rarely any: out of line, made on first use.
    var wakes: Unmanaged<RunnerWakes<Answer>>?

    #if DEBUG
        // Every event's leftovers pass through `FlowRunner.finish`, which takes back both retained
        // references: one left here would be a leak.
        deinit { assert(wakes == nil && ending == nil, "an event's leftovers were not finished") }
    #endif

    mutating func resume(_ waiter: (CheckedContinuation<Answer?, any Error>, Result<Answer?, any Error>)) {
        if wakes == nil { wakes = .passRetained(RunnerWakes()) }
        wakes?._withUnsafeGuaranteedRef { $0.resume.append(waiter) }
    }

    /// Keeps `ending`, retained until ``takeEnding()``.
    mutating func keep(_ ending: consuming RunnerEnding?) {
        if let ending { self.ending = .passRetained(ending) }
    }

    /// The waiters to wake, once.
    mutating func takeWakes() -> RunnerWakes<Answer>? { wakes.take()?.takeRetainedValue() }

    /// The flow's ending, once.
    mutating func takeEnding() -> RunnerEnding? { ending.take()?.takeRetainedValue() }
}
