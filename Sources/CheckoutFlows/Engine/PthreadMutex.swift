#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pthread mutex the engine locks with, where a `ManagedBuffer` keeps it as its element
/// (``LockedValue``'s storage, ``FlowRunner``): made, held and destroyed in one place. A pthread
/// mutex rather than `Synchronization.Mutex`, whose futex ThreadSanitizer does not see on Linux.
enum PthreadMutex {
    /// Makes the mutex at `mutex`, uninitialized memory.
    static func initialize(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    /// Runs `body` holding the mutex at `mutex` (not re-entrant).
    @inline(__always)
    static func withLocked<Result>(
        _ mutex: UnsafeMutablePointer<pthread_mutex_t>, _ body: () throws -> Result
    ) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Destroys the mutex at `mutex`, no longer held.
    static func destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        _ = pthread_mutex_destroy(mutex)
    }
}
