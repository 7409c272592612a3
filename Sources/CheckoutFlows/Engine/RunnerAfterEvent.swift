import Synchronization

/// What an event leaves to do outside the lock.
struct RunnerAfterEvent<Call: Sendable, Delegate: Sendable, Answer: Sendable> {
    var cancelTicket: DeadlineTicket?
    /// Whether this thread won the drain; its first step, taken under the event's own lock,
    /// follows.
    var drains = false
    var work: RunnerWork<Call> = .idle
    var delegate: HeldDelegate<Delegate>?
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
