import Synchronization

/// The waiters an event wakes outside the lock: the driver's awaited actions, and whoever waits
/// for the end once the terminal call has been made.
final class RunnerWakes<Answer: Sendable> {
    var resume: [(CheckedContinuation<Answer?, any Error>, Result<Answer?, any Error>)] = []
    var endWaiters: [CheckedContinuation<Answer?, any Error>] = []
}
