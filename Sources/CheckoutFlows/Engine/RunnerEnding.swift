import Synchronization

/// What the end of a flow leaves to do outside the lock, once its terminal call has returned: the
/// delegate to release, and whoever waits for the end (rare: out of line).
///
/// Not generic: a generic class's `deinit` looks up its fields' generic types at run time (an
/// optional delegate, an array of continuations: about 1,100 instructions a flow).
final class RunnerEnding {
    var delegate: (any FlowDelegate)?
    /// Wakes whoever waits for the end; nil when nobody does.
    let wakeEndWaiters: (() -> Void)?

    init(delegate: (any FlowDelegate)?, wakeEndWaiters: (() -> Void)?) {
        self.delegate = delegate
        self.wakeEndWaiters = wakeEndWaiters
    }
}
