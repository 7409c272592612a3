import CheckoutCore
import CheckoutFlows
import CheckoutTestSupport
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// Spec W10: a session answers only the caller that opened it; others learn nothing about it.
final class CallerBindingTests: XCTestCase {
    private let id = SessionID.random()
    private let intruder = RelayCaller("customer-2")

    private func relay() throws -> WebRelay {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        try relay.open(
            id, request: Shop.request, merchant: .authorization(delegate: ShopMerchant()), caller: Shop.caller)
        return relay
    }

    /// The bytes a relay that never held the session answers `event` with.
    private func answerWithoutTheSession(_ event: String) async -> Data {
        await WebRelay(options: RelayOptions(clock: ManualClock())).handle(json: Data(event.utf8), caller: intruder)
    }

    private func coupon(_ code: String) -> String {
        #"{"session": "\#(id)", "type": "couponcodechanged", "couponCode": "\#(code)"}"#
    }

    func testTheCallerThatOpenedTheSessionIsAnswered() async throws {
        let relay = try relay()
        let reply = await relay.reply(toJSON: Data(coupon("TEN").utf8), caller: Shop.caller)
        XCTAssertEqual(reply.completion?.method, "completeCouponCodeChange", "\(reply)")
    }

    func testAnotherCallerGetsWhatAnUnknownSessionGetsAndChangesNothing() async throws {
        let relay = try relay()
        let before = eventsWithoutTimes(relay.session(id)!.transcript)
        for event in [coupon("TEN"), #"{"session": "\#(id)", "type": "cancel"}"#] {
            let foreign = await relay.handle(json: Data(event.utf8), caller: intruder)
            let unknown = await answerWithoutTheSession(event)
            XCTAssertEqual(foreign, unknown, "the refusal says nothing about the session")
            let reply = try JSONDecoder().decode(RelayReply.self, from: foreign)
            XCTAssertEqual(reply.refusal?.reason, "unknownSession")
        }
        XCTAssertEqual(eventsWithoutTimes(relay.session(id)!.transcript), before)
        XCTAssertFalse(relay.session(id)!.isEnded, "another caller's cancel did not end the checkout")
        let honest = await relay.reply(toJSON: Data(coupon("TEN").utf8), caller: Shop.caller)
        XCTAssertEqual(honest.completion?.method, "completeCouponCodeChange", "\(honest)")
    }

    func testNoCallerGetsWhatAnUnknownSessionGets() async throws {
        let relay = try relay()
        let anonymous = await relay.handle(json: Data(coupon("TEN").utf8))
        let unknown = await answerWithoutTheSession(coupon("TEN"))
        XCTAssertEqual(anonymous, unknown)
        XCTAssertFalse(relay.session(id)!.isBusy)
    }

    func testASessionOpenedWithoutACallerAnswersOnlyEventsWithoutOne() async throws {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock()))
        try relay.open(id, request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let bound = await relay.reply(toJSON: Data(coupon("TEN").utf8), caller: Shop.caller)
        XCTAssertEqual(bound.refusal?.reason, "unknownSession")
        let unbound = await relay.reply(toJSON: Data(coupon("TEN").utf8))
        XCTAssertEqual(unbound.completion?.method, "completeCouponCodeChange", "\(unbound)")
    }

    func testAPagesEventWithoutACallerOpensNothing() async throws {
        let asked = LockedValue(0)
        let relay = WebRelay(options: RelayOptions(clock: ManualClock())) { _ in
            asked.withLock { $0 += 1 }
            return .open(Shop.request, .authorization(delegate: ShopMerchant()))
        }
        let reply = await relay.reply(toJSON: Data(coupon("TEN").utf8))
        XCTAssertEqual(reply.refusal?.reason, "callerRequired")
        XCTAssertEqual(asked.withLock { $0 }, 0)
        XCTAssertEqual(relay.sessionCount, 0)
        let opened = await relay.reply(toJSON: Data(coupon("TEN").utf8), caller: Shop.caller)
        XCTAssertEqual(opened.completion?.method, "completeCouponCodeChange", "\(opened)")
        let foreign = await relay.reply(toJSON: Data(coupon("TEN").utf8), caller: intruder)
        XCTAssertEqual(foreign.refusal?.reason, "unknownSession", "the opener is not asked again for a held id")
        XCTAssertEqual(asked.withLock { $0 }, 1)
    }

    func testASnapshotKeepsItsOwnerAsADigestOnly() async throws {
        let first = try relay()
        let sealed = try first.snapshot(id)
        XCTAssertNil(
            String(decoding: sealed, as: UTF8.self).range(of: "customer-1"), "the identity itself is not written out")
        await first.close(id)
        let second = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        do {
            try await second.resume(sealed, merchant: .authorization(delegate: ShopMerchant()), caller: intruder)
            XCTFail("another caller resumed the session")
        } catch {
            XCTAssertEqual((error as? RelayError)?.code, .unknownSession)
        }
        try await second.resume(sealed, merchant: .authorization(delegate: ShopMerchant()))
        let foreign = await second.reply(toJSON: Data(coupon("TEN").utf8), caller: intruder)
        XCTAssertEqual(foreign.refusal?.reason, "unknownSession")
        let honest = await second.reply(toJSON: Data(coupon("TEN").utf8), caller: Shop.caller)
        XCTAssertEqual(honest.completion?.method, "completeCouponCodeChange", "\(honest)")
    }

    func testACallerIsNotShownWhenLogged() {
        XCTAssertEqual("\(Shop.caller)", "RelayCaller(…)")
        XCTAssertEqual(RelayCaller("a"), RelayCaller("a"))
        XCTAssertNotEqual(RelayCaller("a"), RelayCaller("b"))
    }
}
