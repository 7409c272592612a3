import CheckoutFlows
import Synchronization

/// A lock kept inside the object whose state it guards, so that the state needs no allocation of
/// its own: `LockedValue`'s `EngineLock` word without `LockedValue`'s buffer (a relay holds
/// thousands of idle sessions, and each such box of their state costs an object header, a
/// reference and malloc's rounding more than the state).
///
/// Keep it in a `let` of a class, next to the state it guards: a `var` marked
/// `@exclusivity(unchecked) nonisolated(unsafe)`, as the lock, not the compiler, keeps access to
/// it exclusive; reach that state only inside ``withLocked(_:)``, and call no delegate or
/// completion there (the lock is not re-entrant). The word is an `Atomic`, which is never copied
/// or moved while borrowed, so the address the lock works on is the object's own for as long as
/// the object lives. Not `Synchronization.Mutex`: ThreadSanitizer on Linux does not see Mutex's
/// futex (`LockedValue` says more), and CI runs the whole suite under it.
struct InlineLock: ~Copyable, Sendable {
    private let word = EngineLock.Word(0)

    init() {}

    /// Runs `body` holding the lock.
    @inline(__always)
    func withLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        try withUnsafePointer(to: word) { word in
            try EngineLock.withLocked(UnsafeMutablePointer(mutating: word), body)
        }
    }
}
