import Synchronization

/// The completion of one delegate callback: its exactly-once guard (the first call claims it,
/// every later call is a repeat, spec E2) and its way back to the flow, in one object.
///
/// Make the delegate's closure where the types are concrete, `{ completion.complete($0) }`: it
/// captures this object alone, so a callback costs a single allocation. (A closure made inside
/// this generic class would need a context of its own for the type's metadata.)
package final class Completion<Shell: AnyObject & Sendable, Value: Sendable>: Sendable {
    package let id: UInt64
    private let calls = Atomic<Int>(0)
    private let shell: Shell
    /// Takes the answer to the flow: the shell, the callback id, whether this call is the first,
    /// and the value. A closure that captures nothing, so that it needs no allocation of its own.
    private let deliver: @Sendable (Shell, UInt64, Bool, Value) -> Void

    package init(id: UInt64, shell: Shell, deliver: @escaping @Sendable (Shell, UInt64, Bool, Value) -> Void) {
        self.id = id
        self.shell = shell
        self.deliver = deliver
    }

    /// Claims the completion (true for the first call only) and hands the answer to the flow.
    package func complete(_ value: Value) {
        let first = calls.add(1, ordering: .relaxed).oldValue == 0
        deliver(shell, id, first, value)
    }
}
