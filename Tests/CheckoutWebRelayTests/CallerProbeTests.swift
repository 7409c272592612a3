import CheckoutCore
import CheckoutFlows
import CheckoutTestSupport
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// Spec W10: an event for a session held by someone else tells its sender nothing about the
/// session: it is answered byte for byte as a relay without the session answers it (one whose
/// opener declines the id, since no second session can take a held id). Found by `relay-events`:
/// an event without a caller got `unknownSession` for a held id and `callerRequired` for any
/// other, so anyone could probe which ids were open.
final class CallerProbeTests: XCTestCase {
    private let id = SessionID.random()
    private let intruder = RelayCaller("customer-2")

    /// A relay whose opener opens every session; `Shop.caller` has opened `id`.
    private func relay(_ limits: RelayLimits = RelayLimits()) async throws -> WebRelay {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock(), limits: limits)) { _ in
            .open(Shop.request, .authorization(delegate: ShopMerchant()))
        }
        let opened = await relay.reply(toJSON: Data(coupon(id).utf8), caller: Shop.caller)
        XCTAssertEqual(opened.completion?.method, "completeCouponCodeChange", "\(opened)")
        return relay
    }

    /// What a relay with these limits that does not hold `id` answers `event` of `caller` with,
    /// holding `ofCaller` sessions of theirs, its opener declining.
    private func answerWithoutTheSession(
        _ event: String, caller: RelayCaller?, limits: RelayLimits = RelayLimits(), ofCaller: Int = 0
    ) async throws -> Data {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock(), limits: limits)) { _ in nil }
        for _ in 0..<ofCaller {
            try relay.open(
                SessionID.random(), request: Shop.request, merchant: .authorization(delegate: ShopMerchant()),
                caller: caller)
        }
        return await relay.handle(json: Data(event.utf8), caller: caller)
    }

    private func coupon(_ session: String) -> String {
        #"{"session": "\#(session)", "type": "couponcodechanged", "couponCode": "TEN"}"#
    }

    private func refusal(_ data: Data) throws -> String? {
        try JSONDecoder().decode(RelayReply.self, from: data).refusal?.reason
    }

    func testAnEventWithoutACallerForAHeldIdIsAnsweredAsForAnIdNotHeld() async throws {
        let relay = try await relay()
        let before = eventsWithoutTimes(relay.session(id)!.transcript)
        let probe = await relay.handle(json: Data(coupon(id).utf8))
        let expected = try await answerWithoutTheSession(coupon(id), caller: nil)
        XCTAssertEqual(String(decoding: probe, as: UTF8.self), String(decoding: expected, as: UTF8.self))
        XCTAssertEqual(try refusal(probe), "callerRequired")
        XCTAssertEqual(eventsWithoutTimes(relay.session(id)!.transcript), before)
    }

    func testACallerAtTheirCapGetsTheCapForAHeldIdAsForAnyOther() async throws {
        let limits = RelayLimits(maxSessionsPerCaller: 1)
        let relay = try await relay(limits)
        let own = SessionID.random()
        let opened = await relay.reply(toJSON: Data(coupon(own).utf8), caller: intruder)
        XCTAssertEqual(opened.completion?.method, "completeCouponCodeChange", "\(opened)")
        let probe = await relay.handle(json: Data(coupon(id).utf8), caller: intruder)
        let expected = try await answerWithoutTheSession(coupon(id), caller: intruder, limits: limits, ofCaller: 1)
        XCTAssertEqual(String(decoding: probe, as: UTF8.self), String(decoding: expected, as: UTF8.self))
        XCTAssertEqual(try refusal(probe), "tooManySessionsForCaller")
        let unheld = await relay.handle(json: Data(coupon(SessionID.random()).utf8), caller: intruder)
        XCTAssertEqual(try refusal(unheld), "tooManySessionsForCaller")
    }

    func testTheHeldSessionIsNotCountedTowardsTheRelaysCapForAnotherCaller() async throws {
        let limits = RelayLimits(maxSessions: 1)
        let relay = try await relay(limits)
        let probe = await relay.handle(json: Data(coupon(id).utf8), caller: intruder)
        let expected = try await answerWithoutTheSession(coupon(id), caller: intruder, limits: limits)
        XCTAssertEqual(String(decoding: probe, as: UTF8.self), String(decoding: expected, as: UTF8.self))
        XCTAssertEqual(try refusal(probe), "unknownSession")
        let unheld = await relay.handle(json: Data(coupon(SessionID.random()).utf8), caller: intruder)
        XCTAssertEqual(try refusal(unheld), "tooManySessions", "the cap holds for an id that is not held")
    }
}
