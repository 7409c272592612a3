import CheckoutCore
import CheckoutFlows
import CheckoutTestSupport
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// Spec W10: each limit refuses what is over it, with its code and name, changing nothing, and
/// takes what is just under it.
final class RelayLimitsTests: XCTestCase {
    private let id = "limits-" + "Qm7Xv2Lk9Tz4Wp8R"

    private func relay(_ limits: RelayLimits = RelayLimits()) throws -> WebRelay {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock(), limits: limits))
        try relay.open(
            id, request: Shop.request, merchant: .authorization(delegate: ShopMerchant()), caller: Shop.caller)
        return relay
    }

    private func send(_ relay: WebRelay, _ json: String) async -> RelayReply {
        await relay.reply(toJSON: Data(json.utf8), caller: Shop.caller)
    }

    private func coupon(_ code: String, padding: Int = 0) -> String {
        #"{"session": "\#(id)", "type": "couponcodechanged", "couponCode": "\#(code)"}"#
            + String(repeating: " ", count: padding)
    }

    /// What a refusal must leave as it was: the session's record and its readiness.
    private func state(_ relay: WebRelay) -> [TimelessEntry] {
        relay.session(id).map { eventsWithoutTimes($0.transcript) } ?? []
    }

    private func assertRefused(
        _ reply: RelayReply, _ code: RelayError.Code, limit: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(reply.refusal?.reason, code.rawValue, "\(reply)", file: file, line: line)
        XCTAssertEqual(reply.refusal?.limit, limit, file: file, line: line)
        XCTAssertTrue(reply.refusal?.message.contains("RelayLimits.\(limit)") == true, file: file, line: line)
    }

    // MARK: Bytes

    func testAnEventOverTheByteLimitIsRefusedUnreadAndOneAtItIsTaken() async throws {
        let size = coupon("TEN").utf8.count + 100
        let relay = try relay(RelayLimits(maxEventBytes: size))
        let before = state(relay)
        let over = await send(relay, coupon("TEN", padding: 101))
        assertRefused(over, .eventTooLarge, limit: "maxEventBytes")
        XCTAssertEqual(over.session, "", "nothing of an oversized event is read, not even its session")
        XCTAssertEqual(state(relay), before)
        let at = await send(relay, coupon("TEN", padding: 100))
        XCTAssertEqual(at.completion?.method, "completeCouponCodeChange", "\(at)")
    }

    // MARK: Strings

    func testAStringOverTheLengthLimitIsRefusedWithItsPath() async throws {
        let relay = try relay()
        let before = state(relay)
        let over = await send(relay, coupon(String(repeating: "A", count: 5_001)))
        assertRefused(over, .stringTooLong, limit: "maxStringLength")
        XCTAssertEqual(over.refusal?.fields, ["couponCode"])
        XCTAssertEqual(state(relay), before)
        let at = await send(relay, coupon(String(repeating: "A", count: 5_000)))
        XCTAssertEqual(at.completion?.method, "completeCouponCodeChange", "\(at)")
    }

    func testTheLengthIsCountedInScalarsNotBytesAndAnEscapeIsOne() async throws {
        let relay = try relay(RelayLimits(maxStringLength: 30))
        // Thirty scalars: fifteen of two UTF-8 bytes, fifteen escapes of six bytes.
        let thirty = String(repeating: "é", count: 15) + String(repeating: #"\u00e9"#, count: 15)
        let at = await send(relay, coupon(thirty))
        XCTAssertEqual(at.completion?.method, "completeCouponCodeChange", "\(at)")
        let over = await send(relay, coupon(thirty + "x"))
        assertRefused(over, .stringTooLong, limit: "maxStringLength")
    }

    func testTheRefusalNamesTheMembersPathInsideArraysAndKeys() async throws {
        let relay = try relay(RelayLimits(maxStringLength: 30))
        let long = String(repeating: "x", count: 31)
        let contact = await send(
            relay,
            #"{"session": "\#(id)", "type": "shippingcontactselected", "shippingContact": {"countryCode": "US", "addressLines": ["1 Main", "\#(long)"]}}"#
        )
        XCTAssertEqual(contact.refusal?.fields, ["shippingContact.addressLines[1]"])
        let key = await send(relay, #"{"session": "\#(id)", "type": "cancel", "extra": {"\#(long)": 1}}"#)
        XCTAssertEqual(key.refusal?.fields, ["extra"])
        XCTAssertTrue(key.refusal?.message.hasPrefix("a key of extra") == true, "\(key)")
        XCTAssertFalse(relay.session(id)?.isEnded ?? true, "the refused cancel did not reach the flow")
    }

    // MARK: Nesting

    func testNestingPastTheLimitIsRefusedAndAtTheLimitIsTaken() async throws {
        let relay = try relay(RelayLimits(maxNestingDepth: 8))
        func nested(_ depth: Int) -> String {
            // The event is one level; an unknown member, tolerated (spec W2), holds the rest.
            let extra = String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
            return #"{"session": "\#(id)", "type": "couponcodechanged", "couponCode": "TEN", "extra": \#(extra)}"#
        }
        let before = state(relay)
        let over = await send(relay, nested(9))
        assertRefused(over, .nestingTooDeep, limit: "maxNestingDepth")
        XCTAssertEqual(over.refusal?.fields, ["extra[0][0][0][0][0][0][0]"])
        XCTAssertEqual(state(relay), before)
        let at = await send(relay, nested(8))
        XCTAssertEqual(at.completion?.method, "completeCouponCodeChange", "\(at)")
    }

    func testTenThousandLevelsAreRefusedWithoutRecursion() async throws {
        let relay = try relay()
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let reply = await send(relay, #"{"session": "\#(id)", "type": "cancel", "extra": \#(deep)}"#)
        assertRefused(reply, .nestingTooDeep, limit: "maxNestingDepth")
    }

    // MARK: Events a session takes

    func testASessionTakesItsLimitOfEventsThenOnlyCancel() async throws {
        let relay = try relay(RelayLimits(maxEventsPerSession: 3))
        for code in ["TEN", "NOPE", "TEN"] {
            let reply = await send(relay, coupon(code))
            XCTAssertEqual(reply.completion?.method, "completeCouponCodeChange", "\(reply)")
        }
        let before = state(relay)
        let over = await send(relay, coupon("TEN"))
        assertRefused(over, .tooManyEvents, limit: "maxEventsPerSession")
        XCTAssertEqual(state(relay), before, "a refusal past the limit is not even noted")
        let cancel = await send(relay, #"{"session": "\#(id)", "type": "cancel"}"#)
        XCTAssertEqual(cancel.end?.outcome, "cancelled", "\(cancel)")
    }

    func testAnEventRefusedWhileAnAnswerIsOwedCounts() async throws {
        let merchant = ShopMerchant()
        let relay = WebRelay(
            options: RelayOptions(clock: ManualClock(), limits: RelayLimits(maxEventsPerSession: 2)))
        try relay.open(id, request: Shop.request, merchant: .authorization(delegate: merchant), caller: Shop.caller)
        merchant.holdNextAnswer()
        let first = Data(coupon("TEN").utf8)
        let held = Task { await relay.reply(toJSON: first, caller: Shop.caller) }
        await merchant.waitUntilParked()
        let pending = await send(relay, coupon("TEN"))
        XCTAssertEqual(pending.refusal?.reason, "callbackPending")
        let over = await send(relay, coupon("TEN"))
        assertRefused(over, .tooManyEvents, limit: "maxEventsPerSession")
        merchant.release()
        let answered = await held.value
        XCTAssertEqual(answered.completion?.method, "completeCouponCodeChange")
    }

    // MARK: Sessions

    func testTheRelayHoldsItsLimitOfSessionsAndOpensAgainWhenOneEnds() async throws {
        let opened = LockedValue(0)
        let relay = WebRelay(options: RelayOptions(clock: ManualClock(), limits: RelayLimits(maxSessions: 2))) { _ in
            opened.withLock { $0 += 1 }
            return .open(Shop.request, .authorization(delegate: ShopMerchant()))
        }
        let ids = (0..<3).map { _ in SessionID.random() }
        for (index, id) in ids.prefix(2).enumerated() {
            let reply = await relay.handle(try Page.coupon(id, "TEN"), caller: RelayCaller("customer-\(index)"))
            XCTAssertEqual(reply.completion?.method, "completeCouponCodeChange", "\(reply)")
        }
        let over = await relay.handle(try Page.coupon(ids[2], "TEN"), caller: RelayCaller("customer-2"))
        XCTAssertEqual(over.refusal?.reason, "tooManySessions")
        XCTAssertEqual(over.refusal?.limit, "maxSessions")
        XCTAssertEqual(opened.withLock { $0 }, 2, "the opener is not asked past the limit")
        XCTAssertEqual(relay.sessionCount, 2, "no session was evicted")
        XCTAssertThrowsError(
            try relay.open(
                SessionID.random(), request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        ) { XCTAssertEqual(($0 as? RelayError)?.code, .tooManySessions) }
        await relay.close(ids[0])
        let again = await relay.handle(try Page.coupon(ids[2], "TEN"), caller: RelayCaller("customer-2"))
        XCTAssertEqual(again.completion?.method, "completeCouponCodeChange", "\(again)")
    }

    func testACallerHoldsItsLimitOfSessionsAndOthersStillOpen() async throws {
        let relay = WebRelay(
            options: RelayOptions(clock: ManualClock(), limits: RelayLimits(maxSessionsPerCaller: 2))
        ) { _ in .open(Shop.request, .authorization(delegate: ShopMerchant())) }
        let flooder = RelayCaller("flooder")
        for _ in 0..<2 {
            let reply = await relay.handle(try Page.coupon(SessionID.random(), "TEN"), caller: flooder)
            XCTAssertEqual(reply.completion?.method, "completeCouponCodeChange", "\(reply)")
        }
        let over = await relay.handle(try Page.coupon(SessionID.random(), "TEN"), caller: flooder)
        XCTAssertEqual(over.refusal?.reason, "tooManySessionsForCaller")
        XCTAssertEqual(over.refusal?.limit, "maxSessionsPerCaller")
        let honest = await relay.handle(try Page.coupon(SessionID.random(), "TEN"), caller: Shop.caller)
        XCTAssertEqual(honest.completion?.method, "completeCouponCodeChange", "\(honest)")
        XCTAssertEqual(relay.sessionCount, 3)
    }

    // MARK: Session ids

    func testTheEntropyOfAnIdIsEstimatedFromItsForm() {
        XCTAssertEqual(SessionID.estimatedBits(of: "s1"), 12)
        XCTAssertEqual(SessionID.estimatedBits(of: UUID().uuidString), 128)
        XCTAssertEqual(SessionID.estimatedBits(of: "0123456789abcdef"), 64)
        XCTAssertEqual(SessionID.estimatedBits(of: "checkout-1234"), 78, "a hyphen counts outside hexadecimal")
        XCTAssertEqual(SessionID.estimatedBits(of: String(repeating: "a", count: 40)), 0)
        XCTAssertEqual(SessionID.estimatedBits(of: "abcdefghijk lmnop"), 0, "a space is not base64url")
        XCTAssertEqual(SessionID.estimatedBits(of: "abcdéfghijklmnop"), 0)
        let random = SessionID.random()
        XCTAssertEqual(random.count, 22)
        XCTAssertGreaterThanOrEqual(SessionID.estimatedBits(of: random), 128)
        XCTAssertNotEqual(random, SessionID.random())
    }

    func testAPagesIdBelowTheEntropyLimitIsRefusedBeforeTheOpenerIsAsked() async throws {
        let asked = LockedValue<[String]>([])
        let relay = WebRelay(options: RelayOptions(clock: ManualClock())) { id in
            asked.withLock { $0.append(id) }
            return .open(Shop.request, .authorization(delegate: ShopMerchant()))
        }
        for weak in ["s1", "0123456789abcde", "checkout1"] {
            let reply = await relay.handle(try Page.coupon(weak, "TEN"), caller: Shop.caller)
            XCTAssertEqual(reply.refusal?.reason, "weakSessionID", weak)
            XCTAssertEqual(reply.refusal?.limit, "minimumSessionIDBits")
        }
        XCTAssertEqual(asked.withLock { $0 }, [])
        // Exactly 64 bits: sixteen hexadecimal digits, or eleven base64url characters (66).
        for strong in ["0123456789abcdef", "Qm7Xv2Lk9Tz"] {
            let reply = await relay.handle(try Page.coupon(strong, "TEN"), caller: Shop.caller)
            XCTAssertEqual(reply.completion?.method, "completeCouponCodeChange", "\(strong): \(reply)")
        }
    }
}
