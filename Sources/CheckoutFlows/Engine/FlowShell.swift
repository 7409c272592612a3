import Synchronization

/// A flow's thread-safe shell: it owns a ``FlowRunner`` and performs the delegate calls its state
/// machine asks for.
package protocol FlowShell: AnyObject, Sendable {
    associatedtype Machine: FlowMachine
    associatedtype Delegate: FlowDelegate

    var runner: FlowRunner<Machine, Delegate> { get }

    /// Calls the delegate. Runs outside every lock, one call at a time per flow.
    func perform(_ call: Machine.Call, on delegate: Delegate)
}
