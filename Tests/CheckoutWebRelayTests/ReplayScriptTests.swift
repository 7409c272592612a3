import CheckoutCore
import CheckoutFlows
import XCTest

@testable import CheckoutWebRelay

/// A resume replays a snapshot's answers through a fresh flow (spec W6): a session's delegate, a
/// replay script, gives the record's answers in order while replaying, says when the record has
/// none left, keeps the first reason the replay diverged, and is live again once the replay is
/// finished.
final class ReplayScriptTests: XCTestCase {
    private let coupon = RecordedAnswer.couponCode(CouponCodeUpdate(summaryItems: Shop.items(100)), byDefault: false)
    private let merchantSession = RecordedAnswer.merchantSession(validated: true, byDefault: false)

    func testAScriptIsLiveUntilAReplayStarts() {
        let script = ReplayScript()
        XCTAssertTrue(script.isLive)
        guard case .live = script.next(for: "didChangeCouponCode") else { return XCTFail("a live script answers") }
        XCTAssertNil(script.lastAnswer)
        // Live, there is no replay to diverge from: finishing reports nothing.
        script.diverged("a reason without a replay")
        XCTAssertNil(script.finish())
    }

    func testAReplayGivesTheRecordsAnswersInOrderThenSaysItHasNoneLeft() {
        let script = ReplayScript()
        script.start([coupon, merchantSession])
        XCTAssertFalse(script.isLive)
        XCTAssertNil(script.lastAnswer)
        guard case .answer(let first) = script.next(for: "didChangeCouponCode") else { return XCTFail("no answer") }
        XCTAssertEqual(first, coupon)
        XCTAssertEqual(script.lastAnswer, coupon)
        guard case .answer(let second) = script.next(for: "didRequestMerchantSessionUpdate") else {
            return XCTFail("no second answer")
        }
        XCTAssertEqual(second, merchantSession)
        XCTAssertEqual(script.lastAnswer, merchantSession)
        guard case .exhausted = script.next(for: "didSelectShippingMethod") else {
            return XCTFail("a record without answers left must say so")
        }
        // The first reason is kept: the exhaustion, not what came after it.
        script.diverged("a later reason")
        XCTAssertEqual(script.finish(), "the flow called didSelectShippingMethod, and the record has no answer left")
        XCTAssertTrue(script.isLive)
        XCTAssertNil(script.lastAnswer)
        XCTAssertNil(script.finish())
    }

    func testADivergenceIsReportedOnceTheReplayIsFinished() {
        let script = ReplayScript()
        script.start([coupon])
        var answered: [String] = []
        var divergedActions = 0
        // The shipping method callback does not take the record's coupon answer: the replay diverged.
        script.answer(
            "didSelectShippingMethod", with: { _ in false },
            live: { answered.append("live") }, diverged: { divergedActions += 1 })
        XCTAssertEqual(answered, [])
        XCTAssertEqual(divergedActions, 1)
        XCTAssertEqual(
            script.finish(), "the flow called didSelectShippingMethod where the record answers didChangeCouponCode")
        // Live again: the merchant answers.
        script.answer(
            "didChangeCouponCode",
            with: { _ in
                answered.append("answered")
                return true
            },
            live: { answered.append("live") }, diverged: { divergedActions += 1 })
        XCTAssertEqual(answered, ["live"])
        XCTAssertEqual(divergedActions, 1)
    }
}
