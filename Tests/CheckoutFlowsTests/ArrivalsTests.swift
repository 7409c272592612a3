import CheckoutTestSupport
import Dispatch
import XCTest

/// The tests' wait for reports from other threads: woken by the arrival, bounded by its timeout.
final class ArrivalsTests: XCTestCase {
    func testAWaitReturnsWhenTheCountArrivesFromAnotherThread() async {
        let arrivals = Arrivals<Int>()
        arrivals.append(1)
        let already = await arrivals.waitFor(1, timeout: .seconds(1))
        XCTAssertEqual(already, [1], "a count already reached returns at once")
        DispatchQueue.global().async {
            arrivals.append(2)
            arrivals.append(3)
        }
        let started = ContinuousClock.now
        let three = await arrivals.waitFor(3, timeout: .seconds(60))
        XCTAssertEqual(three, [1, 2, 3])
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(30), "woken by the arrival, not the timeout")
    }

    func testAWaitThatTimesOutReturnsWhatArrived() async {
        let arrivals = Arrivals<String>()
        arrivals.append("only")
        let seen = await arrivals.waitFor(2, timeout: .milliseconds(50))
        XCTAssertEqual(seen, ["only"])
        // A later arrival wakes nobody and is still recorded.
        arrivals.append("late")
        XCTAssertEqual(arrivals.items, ["only", "late"])
    }
}
