import Dispatch

/// Identifies a scheduled deadline.
public struct DeadlineTicket: Hashable, Sendable {
    /// The deadline's place in scheduling order: unique within its heap for the life of its clock.
    package let rawValue: UInt64
    // 32 bits each, so that a ticket, kept by every flow with a deadline, takes 16 bytes. A slot
    // number beyond them (two billion live deadlines in one heap) would only make its cancel miss:
    // the heap checks the ticket's order against the slot's.
    private let storedSlot: Int32
    private let storedShard: Int32

    /// Where the clock keeps the deadline while it is live (a ``DeadlineHeap`` slot).
    package var slot: Int { Int(storedSlot) }
    /// Which of the clock's heaps holds it (``SystemClock`` keeps several).
    package var shard: Int { Int(storedShard) }

    package init(rawValue: UInt64, slot: Int = 0, shard: Int = 0) {
        self.rawValue = rawValue
        self.storedSlot = Int32(truncatingIfNeeded: slot)
        self.storedShard = Int32(truncatingIfNeeded: shard)
    }
}
