import Synchronization

/// What an event leaves to do outside the lock. (Not copyable: it is never copied, and so is
/// destroyed field by field rather than through its runtime metadata. Measured, issue 16.)
struct RunnerAfterEvent<Call: Sendable, Delegate: Sendable, Answer: Sendable>: ~Copyable {
    var cancelTicket: DeadlineTicket?
    /// Whether this thread won the drain; its first step, taken under the event's own lock,
    /// follows.
    var drains = false
    var work: RunnerWork<Call> = .idle
    /// The delegate, borrowed (see `FlowRunner.DrainStep`).
    var delegate: UnsafePointer<Delegate?>?
    /// Set when the drain ended the flow under the event's own lock: what to release and wake.
    var ending: RunnerEnding<Delegate, Answer>?
    /// The waiters to wake, rarely any: out of line, made on first use.
    var wakes: RunnerWakes<Answer>?

    mutating func resume(_ waiter: (CheckedContinuation<Answer?, any Error>, Result<Answer?, any Error>)) {
        if wakes == nil { wakes = RunnerWakes() }
        wakes?.resume.append(waiter)
    }
}
