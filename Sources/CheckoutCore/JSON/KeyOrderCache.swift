#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The orders ``ModelJSON`` writes a model's keys in, worked out once per list of keys and kept
/// under a pthread mutex (which ThreadSanitizer sees, where it does not see
/// `Synchronization.Mutex` on Linux). Rendering a transcript reads it; no flow's round trip does.
final class KeyOrderCache<Key: Hashable>: @unchecked Sendable {
    // Unchecked: `orders` is only touched with `mutex` held.
    private var orders: [Key: [Int]] = [:]
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let capacity: Int

    /// A cache of at most `capacity` orders (later ones are worked out each time).
    init(capacity: Int) {
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// The order kept for `key`, if any.
    subscript(key: Key) -> [Int]? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return orders[key]
    }

    /// Keeps `order` for `key` while there is room.
    func keep(_ order: [Int], for key: Key) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if orders.count < capacity { orders[key] = order }
    }
}
