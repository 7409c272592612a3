import CheckoutFlows
import CheckoutWebRelay
import XCTest

/// Spec W6: a relay keeps one idle deadline on its clock, however many sessions it holds, and
/// still ends each session when its own idle time is over.
final class IdleDeadlineTests: XCTestCase {
    // spec W6: sessions idle since different times end each at its own deadline; an event
    // starts a session's idle time again.
    func testOneDeadlineEndsEachSessionAtItsOwnTime() async throws {
        let clock = ManualClock()
        let ended = EndLog()
        let relay = WebRelay(
            options: RelayOptions(clock: clock, onSessionEnd: { id, transcript in ended.add(id, transcript) }))
        XCTAssertEqual(relay.options.idleTimeout, .seconds(30))
        let before = clock.pendingDeadlines
        for index in 0..<20 {
            try relay.open("s\(index)", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
            clock.advance(by: .seconds(1))
        }
        // Twenty idle sessions (s0 idle since 0 s, s19 since 19 s), one deadline on the clock.
        XCTAssertEqual(clock.pendingDeadlines - before, 1)
        // At 20 s an event: s0 is idle from then on.
        let answered = await relay.handle(try Page.contact("s0"))
        XCTAssertEqual(answered.completion?.method, "completeShippingContactSelection")

        clock.advance(to: .milliseconds(35_500))
        await ended.waitFor(5)
        XCTAssertEqual(ended.ids.sorted(), (1...5).map { "s\($0)" }.sorted())
        XCTAssertNotNil(relay.session("s0"))
        XCTAssertNotNil(relay.session("s6"))

        clock.advance(to: .milliseconds(49_500))
        await ended.waitFor(19)
        XCTAssertEqual(ended.ids.count, 19)
        XCTAssertEqual(relay.sessionIDs, ["s0"])

        clock.advance(to: .seconds(50))
        await ended.waitFor(20)
        XCTAssertEqual(ended.ids.last, "s0")
        XCTAssertEqual(relay.sessionCount, 0)
    }

    // spec W6: a session let go of before its idle time is over (closed) is not ended again, and
    // the sessions behind it in the queue still end on time.
    func testAClosedSessionLeavesTheQueue() async throws {
        let clock = ManualClock()
        let ended = EndLog()
        let relay = WebRelay(
            options: RelayOptions(clock: clock, onSessionEnd: { id, transcript in ended.add(id, transcript) }))
        for id in ["a", "b", "c"] {
            try relay.open(id, request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
            clock.advance(by: .seconds(1))
        }
        await relay.close("a")
        await relay.close("c")
        XCTAssertEqual(ended.ids, ["a", "c"])
        clock.advance(to: .seconds(31))
        await ended.waitFor(3)
        XCTAssertEqual(ended.ids, ["a", "c", "b"])
        XCTAssertEqual(relay.sessionCount, 0)
    }

    // spec W6: a page's cancel counts as the session's activity: the ended session is let go of
    // one idle timeout after the cancel, not after the event before it.
    func testAPageCancelStartsTheIdleTimeAgain() async throws {
        let clock = ManualClock()
        let ended = EndLog()
        let relay = WebRelay(
            options: RelayOptions(clock: clock, onSessionEnd: { id, transcript in ended.add(id, transcript) }))
        for id in ["cancelled", "untouched"] {
            try relay.open(id, request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        }
        clock.advance(to: .seconds(10))
        let reply = await relay.handle(try Page.cancel("cancelled"))
        XCTAssertNil(reply.completion)
        clock.advance(to: .seconds(30))
        await ended.waitFor(1)
        XCTAssertEqual(ended.ids, ["untouched"])
        XCTAssertNotNil(relay.session("cancelled"))
        clock.advance(to: .seconds(40))
        await ended.waitFor(2)
        XCTAssertEqual(ended.ids, ["untouched", "cancelled"])
        XCTAssertEqual(relay.sessionCount, 0)
    }
}
