/// A value protected by a lock: `withLock` gives exclusive access to it.
///
/// This is `Synchronization.Mutex` in all but the lock underneath: an ``EngineLock`` instead of
/// Mutex's futex word. On Linux ThreadSanitizer does not see the futex lock and reports every
/// access under it as a race, while it understands the engine lock's atomics and pthread sleeping;
/// CI runs the flow tests under ThreadSanitizer, so the engine uses this. The value and the lock
/// live in one allocation (a `ManagedBuffer`), reached through pointers while the lock is held.
/// Copies of a `LockedValue` share that storage. It is `@unchecked Sendable` because the lock, not
/// the type system, makes concurrent access safe: the value is only ever reached inside
/// `withLock`.
@usableFromInline
package struct LockedValue<Value>: @unchecked Sendable {
    @usableFromInline final class Storage: ManagedBuffer<Value, EngineLock.Word> {}

    @usableFromInline let storage: Storage

    @inlinable package init(_ value: Value) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in value }
        // `create` returns the dynamic type it was called on.
        storage = unsafeDowncast(buffer, to: Storage.self)
        storage.withUnsafeMutablePointerToElements(EngineLock.initialize)
    }

    /// Runs `body` with exclusive access to the value. Never call a delegate or a completion
    /// inside: the lock is not re-entrant. Always inlined, so that what `body` returns is passed
    /// in its concrete type rather than through generic value witnesses.
    @inlinable @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, lock in
            try EngineLock.withLocked(lock) { try body(&value.pointee) }
        }
    }
}
