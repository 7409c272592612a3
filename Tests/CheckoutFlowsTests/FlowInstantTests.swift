import CheckoutFlows
import XCTest

/// The engine's time: whole nanoseconds in one word, rounded the way that never makes a deadline
/// early, and saturating where 64 bits end (issue 16).
final class FlowInstantTests: XCTestCase {
    private let oneAttosecond = Duration(secondsComponent: 0, attosecondsComponent: 1)

    // spec E4: a clock's time is read rounded down, a timeout rounded up, so that a deadline
    // (now + timeout) never falls before the full timeout has passed.
    func testRoundingDirections() {
        let justOverOneSecond = Duration.seconds(1) + oneAttosecond
        XCTAssertEqual(FlowInstant(roundingDown: justOverOneSecond).nanoseconds, 1_000_000_000)
        XCTAssertEqual(FlowInstant(roundingUp: justOverOneSecond).nanoseconds, 1_000_000_001)
        XCTAssertEqual(FlowInstant(roundingUp: .seconds(1)).nanoseconds, 1_000_000_000, "whole: unchanged")
        XCTAssertEqual(FlowInstant(roundingDown: .milliseconds(1500)).nanoseconds, 1_500_000_000)
        // Below zero the directions hold too: down is away from zero.
        let justBelowZero = Duration.zero - oneAttosecond
        XCTAssertEqual(FlowInstant(roundingDown: justBelowZero).nanoseconds, -1)
        XCTAssertEqual(FlowInstant(roundingUp: justBelowZero).nanoseconds, 0)
        XCTAssertEqual(FlowInstant(roundingDown: .seconds(-2) - oneAttosecond).nanoseconds, -2_000_000_001)
    }

    func testBackToDurationIsExact() {
        for nanoseconds: Int64 in [0, 1, 999_999_999, 1_000_000_000, -1, 86_400_000_000_123, .max, .min] {
            let instant = FlowInstant(nanoseconds: nanoseconds)
            XCTAssertEqual(instant.duration, .nanoseconds(nanoseconds))
            XCTAssertEqual(FlowInstant(roundingDown: instant.duration), instant)
            XCTAssertEqual(FlowInstant(roundingUp: instant.duration), instant)
        }
    }

    // Never a trap on a time or a timeout a caller can give: beyond 292 years, the nearest end.
    func testSaturatesWhere64BitsEnd() {
        XCTAssertEqual(FlowInstant(roundingDown: .seconds(Int64.max)).nanoseconds, .max)
        XCTAssertEqual(FlowInstant(roundingUp: .seconds(Int64.min)).nanoseconds, .min)
        XCTAssertEqual(FlowInstant(roundingUp: .seconds(9_223_372_036) + .nanoseconds(854_775_808)).nanoseconds, .max)
        XCTAssertEqual(FlowInstant(nanoseconds: .max - 5).plus(nanoseconds: 10).nanoseconds, .max)
        XCTAssertEqual(FlowInstant(nanoseconds: .min + 5).plus(nanoseconds: -10).nanoseconds, .min)
        XCTAssertEqual(FlowInstant(nanoseconds: 5).plus(nanoseconds: 10).nanoseconds, 15)
    }

    // spec E4: a timeout finer than a nanosecond gives a deadline that many nanoseconds later,
    // rounded up: an answer at the whole nanosecond before it is in time.
    func testLedgerRoundsItsTimeoutUp() {
        var ledger = CallbackLedger<String>(timeout: .seconds(10) + oneAttosecond)
        let opened = ledger.open("callback", .didEnterAddress)
        ledger.called(opened.id, at: .seconds(5))
        XCTAssertEqual(ledger.deadline(of: opened.id), .nanoseconds(15_000_000_001))
        XCTAssertEqual(ledger.admit(opened.id, first: true, outstanding: opened.id, at: .seconds(15)), .inTime)
        XCTAssertEqual(
            ledger.admit(opened.id, first: true, outstanding: opened.id, at: .nanoseconds(15_000_000_001)),
            .pastDeadline)
        XCTAssertEqual(ledger.timeout, .nanoseconds(10_000_000_001))
    }
}
