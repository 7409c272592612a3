import CheckoutFlows
import XCTest

/// The system clock's time (spec E4: deadlines are measured on it).
final class SystemClockTests: XCTestCase {
    /// Its conversion of nanoseconds to a `Duration` is the standard library's, exactly, across
    /// the range: zero, both signs, the sub-second and multi-second cases, and the extremes.
    func testNanosecondsBecomeTheSameDurationAsTheStandardLibrarys() {
        var values: [Int64] = [
            0, 1, -1, 999_999_999, 1_000_000_000, -1_000_000_001, 86_400_000_000_123, .max, .min,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 { values.append(Int64.random(in: .min ... .max, using: &generator)) }
        for nanoseconds in values {
            XCTAssertEqual(SystemClock.duration(nanoseconds: nanoseconds), .nanoseconds(nanoseconds), "\(nanoseconds)")
        }
    }

    /// Its time never goes back, and moves on.
    func testNowIsMonotonic() {
        let clock = SystemClock()
        var last = clock.now
        for _ in 0..<10_000 {
            let now = clock.now
            XCTAssertGreaterThanOrEqual(now, last)
            last = now
        }
        let start = clock.now
        while clock.now == start {}
        XCTAssertGreaterThan(clock.now, start)
    }
}
