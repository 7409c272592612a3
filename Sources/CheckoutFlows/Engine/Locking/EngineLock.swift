import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lock the engine keeps its state under (``FlowRunner``, ``LockedValue``): one 32-bit word
/// where the value lives, in the same allocation.
///
/// Uncontended, taking it is one compare-and-exchange and releasing it one exchange, where a pthread
/// mutex costs two calls into the C library (about 55 instructions a lock round trip against 10,
/// three times a delegate round trip; BENCHMARKS.md) and 40 bytes of every flow. Contended, a thread
/// spins briefly and then sleeps on a condition variable of a shared table of them, picked by the
/// word's address: the classic three-state mutex of a futex, with a pthread condition variable
/// in place of the futex (Swift cannot make the futex system call).
///
/// The word is 0 when free, 1 when held, 2 when held and a thread may be asleep waiting for it.
/// A thread that cannot take the word sets it to 2 with an exchange while it holds its slot's
/// mutex, and sleeps on the slot's condition (which releases that mutex) until the exchange finds
/// the word free. Releasing exchanges 0 in; finding 2 there, the releaser takes the slot's mutex
/// and wakes every sleeper of the slot. No wake-up is lost: a sleeper set the 2 while holding the
/// slot's mutex and lets go of it only inside the wait, so the releaser that saw the 2 gets the
/// mutex only once the sleeper waits. A thread woken without the word finds it taken and sleeps
/// again; one that takes it with the exchange leaves 2 behind, so its own release wakes the
/// others (at worst for nothing).
///
/// ThreadSanitizer sees both halves: the atomics are compiled into this module (acquire on
/// taking, release on releasing), and the sleeping is pthread's. (It does not see
/// `Synchronization.Mutex`'s futex on Linux and reports every access under it as a race.)
@usableFromInline
package enum EngineLock {
    /// The lock's word: 0, free.
    @usableFromInline package typealias Word = Atomic<UInt32>

    /// Makes a free lock at `word`, uninitialized memory.
    @inlinable @inline(__always)
    package static func initialize(_ word: UnsafeMutablePointer<Word>) {
        word.initialize(to: Word(0))
    }

    /// Runs `body` holding the lock at `word` (not re-entrant).
    @inlinable @inline(__always)
    package static func withLocked<Result>(
        _ word: UnsafeMutablePointer<Word>, _ body: () throws -> Result
    ) rethrows -> Result {
        lock(word)
        defer { unlock(word) }
        return try body()
    }

    @inlinable @inline(__always)
    package static func lock(_ word: UnsafeMutablePointer<Word>) {
        if word.pointee.compareExchange(
            expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed
        ).exchanged {
            return
        }
        lockContended(word)
    }

    @inlinable @inline(__always)
    package static func unlock(_ word: UnsafeMutablePointer<Word>) {
        if word.pointee.exchange(0, ordering: .releasing) == 2 { wakeSleepers(word) }
    }

    /// How many times a thread looks at a taken word before it sleeps: a lock of the engine is
    /// held for a few hundred instructions at most, less than a sleep and a wake-up cost.
    private static var spins: Int { 100 }

    @usableFromInline @inline(never)
    static func lockContended(_ word: UnsafeMutablePointer<Word>) {
        for _ in 0..<spins {
            if word.pointee.load(ordering: .relaxed) == 0,
                word.pointee.compareExchange(
                    expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed
                ).exchanged
            {
                return
            }
        }
        let slot = ParkingSlots.shared.slot(for: UnsafeRawPointer(word))
        pthread_mutex_lock(slot.mutex)
        while word.pointee.exchange(2, ordering: .acquiring) != 0 {
            pthread_cond_wait(slot.condition, slot.mutex)
        }
        pthread_mutex_unlock(slot.mutex)
    }

    @usableFromInline @inline(never)
    static func wakeSleepers(_ word: UnsafeMutablePointer<Word>) {
        let slot = ParkingSlots.shared.slot(for: UnsafeRawPointer(word))
        pthread_mutex_lock(slot.mutex)
        pthread_cond_broadcast(slot.condition)
        pthread_mutex_unlock(slot.mutex)
    }
}

/// Where threads sleep waiting for an ``EngineLock``: a fixed table of pthread mutexes and
/// condition variables, made once and kept for the process, a lock's slot picked by its address.
/// Locks that share a slot share its wake-ups (a woken thread whose lock is still taken sleeps
/// again).
private final class ParkingSlots: @unchecked Sendable {
    // Unchecked: the table is written only in `init`; the mutexes and conditions are pthread's.
    static let shared = ParkingSlots()

    private static var count: Int { 64 }
    private let mutexes: UnsafeMutablePointer<pthread_mutex_t>
    private let conditions: UnsafeMutablePointer<pthread_cond_t>

    private init() {
        mutexes = .allocate(capacity: Self.count)
        conditions = .allocate(capacity: Self.count)
        for index in 0..<Self.count {
            (mutexes + index).initialize(to: pthread_mutex_t())
            (conditions + index).initialize(to: pthread_cond_t())
            let made = (pthread_mutex_init(mutexes + index, nil), pthread_cond_init(conditions + index, nil))
            precondition(made == (0, 0), "the engine lock's parking slots could not be made: \(made)")
        }
    }

    func slot(for address: UnsafeRawPointer) -> (
        mutex: UnsafeMutablePointer<pthread_mutex_t>, condition: UnsafeMutablePointer<pthread_cond_t>
    ) {
        // The low bits of an allocation's address are its alignment: skip them.
        let index = Int((UInt(bitPattern: address) >> 4) % UInt(Self.count))
        return (mutexes + index, conditions + index)
    }
}
