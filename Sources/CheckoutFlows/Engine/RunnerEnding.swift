import Synchronization

/// What the end of a flow leaves to do outside the lock, once its terminal call has returned: the
/// delegate to release, and whoever waits for the end (rare: out of line).
final class RunnerEnding<Delegate: Sendable, Answer: Sendable> {
    var delegate: Delegate?
    let endWaiters: [CheckedContinuation<Answer?, any Error>]

    init(delegate: Delegate?, endWaiters: [CheckedContinuation<Answer?, any Error>]) {
        self.delegate = delegate
        self.endWaiters = endWaiters
    }
}
