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

/// The engine's inlined comparison of times (spec E4: an answer at or after its deadline is late).
final class DurationOrderTests: XCTestCase {
    func testIsAtOrBeforeIsTheStandardLibrarysOrder() {
        var values: [Duration] = [
            .zero, .nanoseconds(1), .nanoseconds(-1), .seconds(1), .seconds(-1), .seconds(Int64.max),
            .seconds(Int64.min), .nanoseconds(Int64.max), .nanoseconds(Int64.min),
            Duration(secondsComponent: 5, attosecondsComponent: 999_999_999_999_999_999),
            Duration(secondsComponent: -5, attosecondsComponent: -1),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            values.append(.nanoseconds(Int64.random(in: .min ... .max, using: &generator)))
            values.append(
                Duration(
                    secondsComponent: Int64.random(in: -1_000...1_000, using: &generator),
                    attosecondsComponent: Int64.random(in: -999_999_999_999_999_999...999_999_999_999_999_999)))
        }
        for a in values {
            for b in values.prefix(40) + [a] {
                XCTAssertEqual(a.isAtOrBefore(b), a <= b, "\(a) against \(b)")
                XCTAssertEqual(b.isAtOrBefore(a), b <= a, "\(b) against \(a)")
            }
        }
    }

    /// The inlined sum a deadline is made with (now plus the timeout) is the standard library's,
    /// carries between the halves included.
    func testPlusIsTheStandardLibrarysSum() {
        var values: [Duration] = [
            .zero, .nanoseconds(1), .nanoseconds(-1), .seconds(30), .seconds(-30), .nanoseconds(Int64.max),
            .nanoseconds(Int64.min), .seconds(1 << 40), .seconds(-(1 << 40)),
            Duration(secondsComponent: 5, attosecondsComponent: 999_999_999_999_999_999),
            Duration(secondsComponent: -5, attosecondsComponent: -1),
            Duration(_high: 0, low: .max), Duration(_high: -1, low: .max), Duration(_high: -1, low: 1),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            values.append(.nanoseconds(Int64.random(in: .min ... .max, using: &generator)))
            values.append(
                Duration(_high: Int64.random(in: -(1 << 40)...(1 << 40)), low: UInt64.random(in: .min ... .max)))
        }
        for a in values {
            for b in values {
                XCTAssertEqual(a.plus(b), a + b, "\(a) + \(b)")
            }
        }
    }
}
