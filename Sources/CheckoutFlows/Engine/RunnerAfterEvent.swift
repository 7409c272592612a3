import Synchronization

/// What an event leaves to do outside the lock.
struct RunnerAfterEvent<Call: Sendable, Delegate: Sendable, Answer: Sendable> {
    var cancelTicket: DeadlineTicket?
    /// Whether this thread won the drain; its first step, taken under the event's own lock,
    /// follows.
    var drains = false
    var work: RunnerWork<Call> = .idle
    /// The delegate, borrowed (see `FlowRunner.DrainStep`).
    var delegate: Unmanaged<HeldDelegate<Delegate>>?
    /// Set when the drain ended the flow under the event's own lock: what to release and wake.
    var ending: RunnerEnding<Delegate, Answer>?
    /// The waiters to wake, rarely any: out of line, so that the common event's leftovers are
    /// small enough to be destroyed field by field (a larger struct is destroyed through its
    /// runtime metadata).
    private var storedWakes: RunnerWakes<Answer>?

    /// The waiters to wake, made on first use.
    mutating func wakes() -> RunnerWakes<Answer> {
        if let storedWakes { return storedWakes }
        let made = RunnerWakes<Answer>()
        storedWakes = made
        return made
    }

    mutating func resume(_ waiter: (CheckedContinuation<Answer?, any Error>, Result<Answer?, any Error>)) {
        wakes().resume.append(waiter)
    }

    mutating func takeWakes() -> RunnerWakes<Answer>? {
        defer { storedWakes = nil }
        return storedWakes
    }
}

/// What the end of a flow leaves to do outside the lock, once its terminal call has returned: the
/// delegate to release, and whoever waits for the end (rare: out of line).
final class RunnerEnding<Delegate: Sendable, Answer: Sendable> {
    var delegate: HeldDelegate<Delegate>?
    let endWaiters: [CheckedContinuation<Answer?, any Error>]

    init(delegate: HeldDelegate<Delegate>?, endWaiters: [CheckedContinuation<Answer?, any Error>]) {
        self.delegate = delegate
        self.endWaiters = endWaiters
    }
}
