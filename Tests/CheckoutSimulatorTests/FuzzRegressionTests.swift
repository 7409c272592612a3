import CheckoutCore
import CheckoutFlows
import CheckoutSimulator
import Foundation
import XCTest

/// Inputs of the `scenario` fuzz target (Fuzz/scenario/main.swift) that trapped, kept as tests.
/// Each scenario file must decode to an error or run to its end: never a trap.
final class FuzzRegressionTests: XCTestCase {
    /// A payment-authorization scenario whose request has one goods item of `goods` USD.
    private func scenario(goods: String, merchant: String, steps: String, extra: String = "") -> String {
        """
        {"flow": "paymentAuthorization", \(extra)
         "request": {"merchantIdentifier": "merchant.com.example", "countryCode": "US", "currencyCode": "USD",
           "supportedNetworks": ["visa"], "merchantCapabilities": ["threeDSecure"], "supportsCouponCode": true,
           "summaryItems": [{"label": "Goods", "amount": {"currency": "USD", "value": "\(goods)"}},
                            {"label": "Shop", "amount": {"currency": "USD", "value": "1.00"}}]},
         "merchant": \(merchant),
         "steps": \(steps)}
        """
    }

    /// `count` wait steps of `seconds` each, then `after` (a JSON array's elements, or nothing).
    private func waits(_ seconds: String, count: Int, then after: String = "") -> String {
        "[" + Array(repeating: #"{"action": "wait", "seconds": \#(seconds)}"#, count: count).joined(separator: ", ")
            + (after.isEmpty ? "" : ", " + after) + "]"
    }

    private func decode(_ json: String) throws -> Scenario {
        try JSONDecoder().decode(Scenario.self, from: Data(json.utf8))
    }

    private func assertRefused(_ json: String, at path: String, _ message: String, line: UInt = #line) {
        do {
            _ = try decode(json)
            XCTFail("decoded", line: line)
        } catch DecodingError.dataCorrupted(let context) {
            let actual = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            XCTAssertEqual(String(actual.joined().dropFirst()), path, line: line)
            XCTAssertTrue(context.debugDescription.contains(message), context.debugDescription, line: line)
        } catch {
            XCTFail("\(error)", line: line)
        }
    }

    /// Twenty waits of Int.max seconds overflowed the ManualClock's Duration (`Overflow in +`); two
    /// made `now` too large for `Duration.components` when the transcript was rendered.
    func testHugeWaitIsRefusedWhenDecoding() {
        let steps = waits("9223372036854775807", count: 20)
        assertRefused(
            scenario(goods: "24.00", merchant: "{}", steps: steps), at: "steps[0].seconds",
            "expected at most 1000000000 seconds, got 9223372036854775807")
    }

    /// A `late` answer of Int.max seconds scheduled past what `Duration.components` holds: the
    /// transcript's rendering trapped with "Not enough bits to represent the passed value".
    func testHugeLateAnswerIsRefusedWhenDecoding() {
        let merchant = """
            {"misbehaviour": [{"callback": "didSelectShippingContact", "kind": "late",
                               "seconds": 9223372036854775807}]}
            """
        assertRefused(
            scenario(goods: "24.00", merchant: merchant, steps: "[]"), at: "merchant.misbehaviour[0].seconds",
            "expected at most 1000000000 seconds")
    }

    func testHugeDeadlineIsRefusedWhenDecoding() {
        assertRefused(
            scenario(goods: "24.00", merchant: "{}", steps: "[]", extra: #""deadlineSeconds": 9223372036854775807,"#),
            at: "deadlineSeconds", "expected at most 1000000000 seconds")
    }

    /// The largest waits allowed still run and render: seven of the largest, the most a scenario's
    /// waits may add up to (a flow counts nanoseconds in 64 bits, about 292 years).
    func testLargestAllowedWaitsRun() async throws {
        let steps = waits("1000000000", count: 7, then: #"{"action": "cancel"}"#)
        let result = await ScenarioRunner.run(try decode(scenario(goods: "24.00", merchant: "{}", steps: steps)))
        XCTAssertEqual(result.outcome, "cancelled")
        XCTAssertTrue(result.transcript.json().contains(#""time":7000000000"#), result.transcript.json())
        _ = result.transcript.text()
        XCTAssertEqual(result.brokenInvariants, [])
    }

    /// Sixty-four of the largest waits ran virtual time past what a flow counts in nanoseconds:
    /// the flow's times stopped at 292 years. Refused where the total goes over, at its step.
    func testWaitsBeyondTheTotalAreRefusedWhenDecoding() {
        let steps = waits("1000000000", count: 64)
        assertRefused(
            scenario(goods: "24.00", merchant: "{}", steps: steps), at: "steps[7].seconds",
            "expected waits of at most 7000000000 seconds in all, got 8000000000 seconds by this step")
    }

    /// A 1% coupon on goods of Int64.max cents: rounding half up added 50 to a product of
    /// Int64.max in `Rate.applied` (arithmetic overflow).
    func testPercentCouponOnTheLargestAmountRoundsWithoutOverflow() async throws {
        let json = scenario(
            goods: "92233720368547758.07",
            merchant: #"{"coupons": [{"code": "TEN", "percentOff": "1"}]}"#,
            steps: #"[{"action": "changeCouponCode", "code": "TEN"}]"#)
        let result = await ScenarioRunner.run(try decode(json))
        XCTAssertEqual(result.brokenInvariants, [])
        XCTAssertEqual(result.violations, [])
        // 1% of 9223372036854775807 cents is 92233720368547758.07 cents, rounded to ...758.
        XCTAssertTrue(
            result.transcript.text().contains("CouponCodeUpdate(total 91311383164862280.49 USD in 3 items)"),
            result.transcript.text())
    }

    /// An amount off of Int64.min cents: the coupon line negated it (arithmetic overflow).
    func testAmountOffOfTheSmallestAmountDoesNotOverflow() async throws {
        let json = scenario(
            goods: "92233720368547758.07",
            merchant: """
                {"coupons": [{"code": "TEN", "amountOff": {"currency": "USD", "value": "-92233720368547758.08"}}]}
                """,
            steps: #"[{"action": "changeCouponCode", "code": "TEN"}]"#)
        let result = await ScenarioRunner.run(try decode(json))
        XCTAssertEqual(result.brokenInvariants, [])
        XCTAssertEqual(result.outcome, "running")
        XCTAssertTrue(
            result.transcript.text().contains("CouponCodeUpdate(total 92233720368547758.07 USD in 3 items)"),
            result.transcript.text())
    }

    /// Half-up rounding is unchanged where nothing overflows.
    func testRateRoundsHalfUp() {
        let rate = Rate("1")!
        XCTAssertEqual(rate.applied(to: Money(minorUnits: 150, currency: .usd), scale: 100).minorUnits, 2)
        XCTAssertEqual(rate.applied(to: Money(minorUnits: 149, currency: .usd), scale: 100).minorUnits, 1)
        XCTAssertEqual(rate.applied(to: Money(minorUnits: .max, currency: .usd), scale: 100).minorUnits, .max / 100)
        // ...57.97 rounds up to ...58 although ...797 + 50 does not fit in an Int64.
        XCTAssertEqual(
            rate.applied(to: Money(minorUnits: .max - 10, currency: .usd), scale: 100).minorUnits, .max / 100)
        XCTAssertEqual(
            rate.applied(to: Money(minorUnits: .max - 57, currency: .usd), scale: 100).minorUnits, .max / 100)
    }
}

final class ScenarioReleaseTests: XCTestCase {
    // A run that ends with a late answer scheduled and a completion never called leaves nothing
    // alive: the clock's deadlines and the held completions are discarded at the end.
    func testARunReleasesItsFlowWhenCallbacksAreStillOutstanding() async throws {
        weak var weakClock: ManualClock?
        let clock = ManualClock()
        weakClock = clock
        final class Owner: Sendable {}
        weak var weakOwner: Owner?
        do {
            let owner = Owner()
            weakOwner = owner
            _ = clock.schedule(at: .seconds(40)) { _ = owner }
        }
        XCTAssertNotNil(weakOwner)
        clock.discardPendingDeadlines()
        XCTAssertNil(weakOwner)
        XCTAssertEqual(clock.pendingDeadlines, 0)
        XCTAssertNotNil(weakClock)
    }
}
