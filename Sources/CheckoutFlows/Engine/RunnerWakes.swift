import Synchronization

/// The waiters an event wakes outside the lock: the driver's awaited actions, with their answers.
/// (Whoever waits for the end is woken by ``RunnerEnding``.)
final class RunnerWakes<Answer: Sendable> {
    var resume: [(CheckedContinuation<Answer?, any Error>, Result<Answer?, any Error>)] = []
}
