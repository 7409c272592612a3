import Synchronization

/// The bits of `FlowRunner.drainFlags`.
enum DrainFlags {
    /// A thread drains the flow's work (it is in, or about to make, a delegate call).
    static let draining: UInt8 = 1
    /// The drainer must take the lock when its call returns: work is queued, or the flow has ended
    /// and the delegate is still to be released. Set under the lock by whoever queues the work;
    /// cleared by the drainer, under the lock, once neither holds.
    static let mustLock: UInt8 = 2
}
