import Dispatch

/// A min-heap of deadlines, earliest first and, at equal deadlines, first scheduled first, with
/// cancellation in place: a ticket names the slot that holds its deadline's action and position in
/// the heap, so cancelling removes the deadline from the heap at once and releases what its action
/// captured (a flow). Nothing is hashed; memory holds the live deadlines plus the free slots left
/// by the most that were ever live at once, given back when the heap empties.
///
/// Generic over how a deadline is written: the ``SystemClock`` keeps whole nanoseconds (a heap
/// element of two words, where a `Duration` made it four with the order: every parked flow keeps
/// one), a ``ManualClock`` keeps `Duration`s, exactly.
package struct DeadlineHeap<Deadline: Comparable & Sendable>: Sendable {
    package struct Entry: Sendable {
        package let deadline: Deadline
        package let ticket: UInt64
        let action: @Sendable () -> Void
    }

    /// A heap element: its deadline, and the slot holding the rest (its scheduling order, which
    /// breaks ties, read from there only at equal deadlines).
    private struct Node: Sendable {
        let deadline: Deadline
        let slot: Int
    }

    /// A live deadline's action and its position in `heap`; `order` 0 marks a free slot.
    private struct Slot: Sendable {
        var order: UInt64
        var position: Int
        var action: (@Sendable () -> Void)?
    }

    private var heap: [Node] = []
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var nextOrder: UInt64 = 1

    package init() {}

    /// How many deadlines are live (neither fired nor cancelled).
    package var count: Int { heap.count }

    /// The earliest live deadline.
    package var earliest: Deadline? { heap.first?.deadline }

    package mutating func insert(_ deadline: Deadline, _ action: @escaping @Sendable () -> Void)
        -> DeadlineTicket
    {
        let order = nextOrder
        nextOrder += 1
        let position = heap.count
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = Slot(order: order, position: position, action: action)
        } else {
            slot = slots.count
            slots.append(Slot(order: order, position: position, action: action))
        }
        heap.append(Node(deadline: deadline, slot: slot))
        siftUp(position)
        return DeadlineTicket(rawValue: order, slot: slot)
    }

    /// Removes the deadline of `ticket` if it is still live and returns it, for the caller to
    /// release its action outside its lock (the action may hold the last reference to a flow); a
    /// ticket that fired or was cancelled is ignored.
    @discardableResult
    package mutating func cancel(_ ticket: DeadlineTicket) -> Entry? {
        guard ticket.slot >= 0, ticket.slot < slots.count, ticket.rawValue != 0,
            slots[ticket.slot].order == ticket.rawValue
        else { return nil }
        return remove(at: slots[ticket.slot].position)
    }

    /// Removes and returns the earliest live entry due at `now` or before.
    package mutating func popDue(at now: Deadline) -> Entry? {
        guard let first = heap.first, first.deadline <= now else { return nil }
        return remove(at: 0)
    }

    /// Removes the heap element at `position`, frees its slot and returns it.
    private mutating func remove(at position: Int) -> Entry {
        let node = heap[position]
        let action = slots[node.slot].action
        let order = slots[node.slot].order
        slots[node.slot] = Slot(order: 0, position: -1, action: nil)
        freeSlots.append(node.slot)
        let last = heap.removeLast()
        if position < heap.count {
            place(last, at: position)
            siftDown(position)
            siftUp(slots[last.slot].position)
        }
        if heap.isEmpty, slots.count > 64 {
            // Nothing is live: give back what a burst of deadlines left behind.
            slots = []
            freeSlots = []
        }
        guard let action else { preconditionFailure("a live deadline has its action") }
        return Entry(deadline: node.deadline, ticket: order, action: action)
    }

    private mutating func place(_ node: Node, at position: Int) {
        heap[position] = node
        slots[node.slot].position = position
    }

    private func precedes(_ a: Node, _ b: Node) -> Bool {
        a.deadline < b.deadline || (a.deadline == b.deadline && slots[a.slot].order < slots[b.slot].order)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        let node = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(node, heap[parent]) else { break }
            place(heap[parent], at: child)
            child = parent
        }
        place(node, at: child)
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let node = heap[parent]
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            let right = left + 1
            let child = right < heap.count && precedes(heap[right], heap[left]) ? right : left
            guard precedes(heap[child], node) else { break }
            place(heap[child], at: parent)
            parent = child
        }
        place(node, at: parent)
    }
}
