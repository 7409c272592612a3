import Synchronization

/// The completion of one delegate callback: its exactly-once guard (the first call claims it,
/// every later call is a repeat, spec E2) and its way back to the flow, in one object.
///
/// Make the delegate's closure where the types are concrete,
/// `{ completion.complete($0) { flow, id, first, value in ... } }`: it captures this object alone,
/// so a callback costs at most one allocation, and none when the flow reuses the object
/// (`FlowRunner.makeCompletion`, `FlowRunner.recycle`): once the merchant has let go
/// of it, the flow holds the only reference and can hand it out again for its next callback.
///
/// While handed out it retains the flow (a merchant that keeps a completion keeps the flow
/// alive, as before); while it waits for reuse it does not, so the flow's spare slot makes no
/// reference cycle. Its fields are atomics: a reused object is re-armed by the draining thread
/// after another thread, the merchant's, last read them.
package final class Completion<Shell: AnyObject & Sendable>: Sendable {
    /// The callback this completion answers. Changes only while the flow holds the only reference.
    private let callbackID: Atomic<UInt64>
    private let calls = Atomic<Int>(0)
    /// The flow, retained, while the completion is handed out; nil while it waits for reuse.
    private let heldShell: Atomic<Unmanaged<Shell>?>

    package init(id: UInt64, shell: Shell) {
        callbackID = Atomic(id)
        heldShell = Atomic(Unmanaged.passRetained(shell))
    }

    deinit {
        heldShell.load(ordering: .acquiring)?.release()
    }

    package var id: UInt64 { callbackID.load(ordering: .relaxed) }

    /// Claims the completion (true for the first call only) and hands the answer to the flow
    /// through `deliver`: the flow, the callback id, whether this call is the first, and the value.
    @inline(__always)
    package func complete<Value>(_ value: Value, _ deliver: (Shell, UInt64, Bool, Value) -> Void) {
        let first = calls.add(1, ordering: .relaxed).oldValue == 0
        // Non-nil: an idle completion is referenced by the flow alone, so nobody can call it.
        guard let shell = heldShell.load(ordering: .acquiring) else {
            preconditionFailure("a completion waiting for reuse was called")
        }
        // Borrowed: this object holds the flow while it is handed out.
        let id = callbackID.load(ordering: .relaxed)
        shell._withUnsafeGuaranteedRef { deliver($0, id, first, value) }
    }

    /// Arms a waiting completion for callback `id` of `shell`. Only while the caller holds the only
    /// reference.
    fileprivate func rearm(_ id: UInt64, _ shell: Shell) {
        callbackID.store(id, ordering: .relaxed)
        calls.store(0, ordering: .relaxed)
        heldShell.store(Unmanaged.passRetained(shell), ordering: .releasing)
    }

    /// Releases the flow: the completion waits for reuse. Only while the caller holds the only
    /// reference.
    fileprivate func idle() {
        heldShell.exchange(nil, ordering: .acquiringAndReleasing)?.release()
    }
}

/// The one completion object a flow keeps for reuse (issue 16), in its ``FlowRunner``: touched
/// only by the thread that drains the flow, which is handed from thread to thread under the
/// flow's lock.
package struct SpareCompletion {
    private var object: AnyObject?

    package init() {}

    /// The completion for callback `id`: the spare, re-armed, or a new one.
    @inline(__always)
    package mutating func make<Shell>(_ id: UInt64, _ shell: Shell) -> Completion<Shell> {
        guard let spare = object else { return Completion(id: id, shell: shell) }
        object = nil
        // A flow has one shell type, so its spare holds completions of that shell only.
        let completion = unsafeDowncast(spare, to: Completion<Shell>.self)
        completion.rearm(id, shell)
        return completion
    }

    /// Keeps `completion` for the next callback when the merchant has let go of it (the caller's
    /// reference is the only one), releasing the flow it retains; otherwise leaves it alone.
    @inline(__always)
    package mutating func recycle<Shell>(_ completion: consuming Completion<Shell>) {
        // Consumed, so that keeping it moves the caller's reference in (a retain and a release
        // fewer a callback).
        var completion = completion
        guard isKnownUniquelyReferenced(&completion) else { return }
        completion.idle()
        object = consume completion
    }
}
