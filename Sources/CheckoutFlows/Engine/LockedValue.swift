import Foundation

/// A value protected by a lock: `withLock` gives exclusive access to it.
///
/// This is `Synchronization.Mutex` in all but the lock underneath: a pthread mutex (through
/// `NSLock`) instead of Mutex's futex word. On Linux ThreadSanitizer does not see the futex lock
/// and reports every access under it as a race, while it understands pthread mutexes; CI runs the
/// flow tests under ThreadSanitizer, so the engine uses this. It is `@unchecked Sendable` because
/// the lock, not the type system, makes concurrent access safe: the value is only ever reached
/// inside `withLock`.
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. Never call a delegate or a completion
    /// inside: the lock is not re-entrant.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
