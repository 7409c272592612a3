import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import XCTest

/// The clock's heap of deadlines: order, lazy cancellation, and no flow kept alive by a
/// cancelled deadline.
final class DeadlineHeapTests: XCTestCase {
    final class Owner: Sendable {}

    // spec E4: a cancelled deadline releases what its action captured at once.
    func testCancelledDeadlineReleasesItsAction() {
        let clock = ManualClock()
        weak var weakOwner: Owner?
        let ticket: DeadlineTicket = {
            let owner = Owner()
            weakOwner = owner
            return clock.schedule(at: .seconds(30)) { _ = owner }
        }()
        XCTAssertNotNil(weakOwner)
        clock.cancel(ticket)
        XCTAssertNil(weakOwner, "the cancelled action is released before its heap slot is dropped")
        XCTAssertEqual(clock.pendingDeadlines, 0)
    }

    // spec E4, E5: a flow that ended is not kept alive by its clock (no flow ↔ clock cycle).
    func testEndedFlowIsReleasedWhileTheClockLives() throws {
        let clock = ManualClock()
        weak var weakFlow: ShippingAddressFlow?
        do {
            let delegate = RecordingShippingAddressDelegate()
            let flow = try ShippingAddressFlow(
                configuration: ShippingAddressConfiguration(),
                delegate: delegate,
                options: FlowOptions(clock: clock)
            )
            weakFlow = flow
            flow.present()
            let address = Address(
                line1: "1 Main", city: "Austin", state: "TX", postalCode: "78701", country: try CountryCode("US"))
            flow.enterAddress(Contact(postalAddress: address))
            XCTAssertEqual(clock.pendingDeadlines, 1)
            flow.cancel()
        }
        XCTAssertEqual(clock.pendingDeadlines, 0)
        XCTAssertNil(weakFlow)
    }

    // spec E4: deadlines fire in order, each with its own time; cancelled ones never fire.
    func testDeadlinesFireInOrderAndCancelledOnesNever() {
        let clock = ManualClock()
        let fired = LockedValue([String]())
        var tickets: [DeadlineTicket] = []
        for (name, seconds) in [("c", 3), ("a", 1), ("d", 4), ("b", 2), ("e", 5)] {
            tickets.append(
                clock.schedule(at: .seconds(seconds)) { fired.withLock { $0.append("\(name)@\(clock.now)") } })
        }
        clock.cancel(tickets[2])  // d
        clock.cancel(tickets[0])  // c
        clock.cancel(tickets[0])  // twice: nothing
        clock.advance(by: .seconds(10))
        XCTAssertEqual(fired.withLock { $0 }, ["a@1.0 seconds", "b@2.0 seconds", "e@5.0 seconds"])
        XCTAssertEqual(clock.pendingDeadlines, 0)
    }
}

/// The heap itself, over whole nanoseconds as the system clock keeps it: a node is a deadline and
/// a slot, and the scheduling order that breaks ties is read from the slot.
final class DeadlineHeapOrderTests: XCTestCase {
    // spec E4: deadlines fire earliest first and, at equal deadlines, in the order they were
    // scheduled, however cancellations and removals moved them through the heap.
    func testEqualDeadlinesPopInSchedulingOrder() {
        var heap = DeadlineHeap<Int64>()
        var generator = SystemRandomNumberGenerator()
        var expected: [(deadline: Int64, index: Int)] = []
        var tickets: [(ticket: DeadlineTicket, index: Int)] = []
        var cancelled = Set<Int>()
        for index in 0..<500 {
            let deadline = Int64.random(in: 1...4, using: &generator)
            tickets.append((heap.insert(deadline) {}, index))
            expected.append((deadline, index))
            if index % 7 == 3 {
                // Cancel an earlier one still live: its slot is reused by the next insert.
                let victim = tickets[Int.random(in: 0..<tickets.count, using: &generator)]
                if !cancelled.contains(victim.index) {
                    XCTAssertNotNil(heap.cancel(victim.ticket))
                    cancelled.insert(victim.index)
                }
            }
        }
        let ticketOf = Dictionary(uniqueKeysWithValues: tickets.map { ($0.ticket.rawValue, $0.index) })
        var popped: [(deadline: Int64, index: Int)] = []
        while let entry = heap.popDue(at: 4) {
            popped.append((entry.deadline, ticketOf[entry.ticket]!))
        }
        let live = expected.filter { !cancelled.contains($0.index) }
            .sorted { ($0.deadline, $0.index) < ($1.deadline, $1.index) }
        XCTAssertEqual(popped.map(\.index), live.map(\.index))
        XCTAssertEqual(popped.map(\.deadline), live.map(\.deadline))
        XCTAssertEqual(heap.count, 0)
    }
}
