import Synchronization

/// The delegate, held in a box of its own so that handing it to the draining thread costs one
/// reference count rather than a copy of its existential.
final class HeldDelegate<Delegate: Sendable>: Sendable {
    let delegate: Delegate

    init(_ delegate: Delegate) { self.delegate = delegate }

    /// Has `shell` make `call` on the delegate, borrowed from the box rather than copied out.
    @inline(__always)
    func perform<Shell: FlowShell>(_ call: Shell.Machine.Call, by shell: Shell) where Shell.Delegate == Delegate {
        shell.perform(call, on: delegate)
    }
}
