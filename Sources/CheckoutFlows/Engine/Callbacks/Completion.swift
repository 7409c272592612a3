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
/// A merchant that keeps a completion keeps the flow alive: one the flow hands to a task holds
/// it from the start; one the flow reuses holds it from the moment the delegate call it was
/// handed to returns with the merchant still keeping it (`FlowRunner.recycle`). Until then the
/// draining thread, inside that call, keeps the flow alive, so a completion the merchant calls
/// during the call, or lets go of before it returns, never costs the flow a reference count (issue
/// 16: a retain and a release a round trip). While it waits for reuse it holds nothing, so the
/// flow's spare slot makes no reference cycle. Its fields are atomics: a reused object is re-armed
/// by the draining thread after another thread, the merchant's, last read them.
@usableFromInline
package final class Completion<Shell: AnyObject & Sendable>: Sendable {
    /// The callback this completion answers. Changes only while the flow holds the only reference.
    @usableFromInline let callbackID: Atomic<UInt64>
    /// How many times it was called, with ``holdsShell`` in its top bit.
    @usableFromInline let calls: Atomic<UInt64>
    /// The flow's address: retained when ``holdsShell`` is set; 0 while it waits for reuse. (An
    /// address, not an `Unmanaged<Shell>?`: a field whose type depends on `Shell` made the class's
    /// generic `deinit` look up three types' metadata at run time, about 1,500 instructions for
    /// every completion freed.)
    @usableFromInline let heldShell: Atomic<UInt>

    /// In `calls`: this object holds a reference to its flow, to release when it goes.
    @inlinable static var holdsShell: UInt64 { 1 << 63 }

    /// A completion that holds its flow from the start (one handed to a task).
    @inlinable
    package init(id: UInt64, shell: Shell) {
        callbackID = Atomic(id)
        calls = Atomic(Self.holdsShell)
        heldShell = Atomic(Self.address(Unmanaged.passRetained(shell)))
    }

    /// A completion for the flow to reuse: it holds its flow only once kept (``keepShell()``).
    @inlinable
    init(id: UInt64, borrowing shell: Shell) {
        callbackID = Atomic(id)
        calls = Atomic(0)
        heldShell = Atomic(Self.address(Unmanaged.passUnretained(shell)))
    }

    deinit {
        if calls.load(ordering: .acquiring) & Self.holdsShell != 0 {
            Self.shell(at: heldShell.load(ordering: .acquiring))?.release()
        }
    }

    @inlinable @inline(__always)
    static func address(_ shell: Unmanaged<Shell>) -> UInt { UInt(bitPattern: shell.toOpaque()) }

    @inlinable @inline(__always)
    static func shell(at address: UInt) -> Unmanaged<Shell>? {
        UnsafeRawPointer(bitPattern: address).map { Unmanaged.fromOpaque($0) }
    }

    @inlinable package var id: UInt64 { callbackID.load(ordering: .relaxed) }

    /// Claims the completion (true for the first call only) and hands the answer to the flow
    /// through `deliver`: the flow, the callback id, whether this call is the first, and the value.
    @inlinable @inline(__always)
    package func complete<Value>(_ value: Value, _ deliver: (Shell, UInt64, Bool, Value) -> Void) {
        let first = calls.wrappingAdd(1, ordering: .relaxed).oldValue & ~Self.holdsShell == 0
        // Non-nil: an idle completion is referenced by the flow alone, so nobody can call it.
        guard let shell = Self.shell(at: heldShell.load(ordering: .acquiring)) else {
            preconditionFailure("a completion waiting for reuse was called")
        }
        // Borrowed: this object, or the draining thread inside the call that handed it out, keeps
        // the flow alive.
        let id = callbackID.load(ordering: .relaxed)
        shell._withUnsafeGuaranteedRef { deliver($0, id, first, value) }
    }

    /// Arms a waiting completion for callback `id` of `shell`. Only while the caller holds the only
    /// reference.
    @inlinable func rearm(_ id: UInt64, _ shell: Shell) {
        callbackID.store(id, ordering: .relaxed)
        calls.store(0, ordering: .relaxed)
        heldShell.store(Self.address(Unmanaged.passUnretained(shell)), ordering: .releasing)
    }

    /// The merchant keeps this completion past the delegate call it was handed to: it holds its
    /// flow from now on (the draining thread, still inside the flow, keeps it alive until then).
    @inlinable func keepShell() {
        guard calls.load(ordering: .relaxed) & Self.holdsShell == 0 else { return }
        _ = Self.shell(at: heldShell.load(ordering: .acquiring))?.retain()
        calls.bitwiseOr(Self.holdsShell, ordering: .releasing)
    }

    /// Forgets the flow (never held: see ``keepShell()``): the completion waits for reuse. Only
    /// while the caller holds the only reference.
    @inlinable func idle() {
        heldShell.store(0, ordering: .releasing)
    }
}

/// The one completion object a flow keeps for reuse, in its ``FlowRunner``: touched
/// only by the thread that drains the flow, which is handed from thread to thread under the
/// flow's lock.
@usableFromInline
package struct SpareCompletion {
    @usableFromInline var object: AnyObject?

    @inlinable package init() {}

    /// The completion for callback `id`: the spare, re-armed, or a new one.
    @inlinable @inline(__always)
    package mutating func make<Shell>(_ id: UInt64, _ shell: Shell) -> Completion<Shell> {
        guard let spare = object else { return Completion(id: id, borrowing: shell) }
        object = nil
        // A flow has one shell type, so its spare holds completions of that shell only.
        let completion = unsafeDowncast(spare, to: Completion<Shell>.self)
        completion.rearm(id, shell)
        return completion
    }

    /// After the delegate call it was handed to has returned: keeps `completion` for the next
    /// callback when the merchant has let go of it (the caller's reference is the only one);
    /// otherwise the merchant keeps it, and it holds its flow from now on.
    @inlinable @inline(__always)
    package mutating func recycle<Shell>(_ completion: consuming Completion<Shell>) {
        // Consumed, so that keeping it moves the caller's reference in (a retain and a release
        // fewer a callback).
        var completion = completion
        guard isKnownUniquelyReferenced(&completion) else {
            completion.keepShell()
            return
        }
        completion.idle()
        object = consume completion
    }
}
