import CheckoutCore
import CheckoutFlows
import CheckoutTestSupport
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// Spec W10: a flood of refused input costs honest sessions nothing. Honest customers check out
/// while an attacker opens sessions under many identities, sends oversized, deep and long
/// events, events without a caller, events of the honest sessions' ids under its own identity,
/// and more events than a session takes; every honest session ends as it does without the
/// flood, with the same transcript, and the relay never holds more than its limits allow.
final class FloodTests: XCTestCase {
    static let honestCount = 40
    static let attackers = 10
    static let limits = RelayLimits(maxEventsPerSession: 30, maxSessions: 400, maxSessionsPerCaller: 16)

    /// One honest checkout: an address, a method, a coupon, a payment.
    static func checkout(_ relay: WebRelay, _ id: String, _ caller: RelayCaller) async throws -> [RelayReply] {
        var replies: [RelayReply] = []
        for event in [
            try Page.contact(id), try Page.method(id, "express"), try Page.coupon(id, "TEN"), try Page.authorize(id),
        ] {
            replies.append(await relay.handle(event, caller: caller))
        }
        return replies
    }

    /// What an honest session leaves: its replies, outcome and transcript without times.
    struct Result: Equatable {
        var replies: [RelayReply]
        var outcome: String?
        var transcript: [TimelessEntry]
    }

    /// Opens the honest sessions, as the server does when each page starts its sheet.
    static func openHonest(_ relay: WebRelay, ids: [String]) throws {
        for (index, id) in ids.enumerated() {
            try relay.open(
                id, request: Shop.request, merchant: .authorization(delegate: ShopMerchant()),
                caller: RelayCaller("honest-\(index)"))
        }
    }

    /// Runs the honest checkouts of sessions already open, all at once.
    static func honestRun(_ relay: WebRelay, ids: [String]) async throws -> [Result] {
        try await withThrowingTaskGroup(of: (Int, Result).self) { group in
            for (index, id) in ids.enumerated() {
                let caller = RelayCaller("honest-\(index)")
                group.addTask {
                    let replies = try await checkout(relay, id, caller)
                    let session = relay.session(id)
                    return (
                        index,
                        Result(
                            replies: replies, outcome: session?.outcome,
                            transcript: session.map { eventsWithoutTimes($0.transcript) } ?? [])
                    )
                }
            }
            var results = [Result?](repeating: nil, count: ids.count)
            for try await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }

    /// The attacker's events, as bytes, each with the caller it claims.
    static func floodEvents(honest ids: [String]) -> [(Data, RelayCaller?)] {
        var events: [(Data, RelayCaller?)] = []
        let long = String(repeating: "A", count: 20_000)
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        let huge = String(repeating: " ", count: 100_000)
        let own = (0..<attackers).map { _ in SessionID.random() }
        for round in 0..<40 {
            for attacker in 0..<attackers {
                let caller = RelayCaller("attacker-\(attacker)")
                let fresh = SessionID.random()
                events.append((Data(coupon(fresh, "TEN").utf8), caller))  // a session of its own, up to its cap
                events.append((Data(coupon(fresh, "TEN").utf8), nil))  // no caller
                events.append((Data(coupon(own[attacker], "TEN").utf8), caller))  // past the events a session takes
                events.append(
                    (
                        Data(
                            #"{"session": "\#(SessionID.random())", "type": "shippingcontactselected", "shippingContact": {"countryCode": "US", "addressLines": ["\#(long)"]}}"#
                                .utf8), caller
                    ))
                events.append((Data((coupon(fresh, "TEN") + huge).utf8), caller))
                events.append(
                    (Data(#"{"session": "\#(fresh)", "type": "cancel", "extra": \#(deep)}"#.utf8), caller))
                // The honest customers' ids, under the attacker's identity: cancels and coupons.
                let victim = ids[(round * attackers + attacker) % ids.count]
                events.append((Data(#"{"session": "\#(victim)", "type": "cancel"}"#.utf8), caller))
                events.append((Data(coupon(victim, "BAD").utf8), caller))
                events.append((Data(#"{"session": "\#(victim)", "type": "cancel"}"#.utf8), nil))
            }
        }
        return events
    }

    static func coupon(_ id: String, _ code: String) -> String {
        #"{"session": "\#(id)", "type": "couponcodechanged", "couponCode": "\#(code)"}"#
    }

    static func relay() -> WebRelay {
        WebRelay(options: RelayOptions(clock: ManualClock(), limits: limits)) { _ in
            .open(Shop.request, .authorization(delegate: ShopMerchant()))
        }
    }

    func testHonestSessionsEndAsWithoutTheFloodAndTheRelayHoldsNoMoreThanItsLimits() async throws {
        let ids = (0..<Self.honestCount).map { _ in SessionID.random() }
        let calm = Self.relay()
        try Self.openHonest(calm, ids: ids)
        let quiet = try await Self.honestRun(calm, ids: ids)
        XCTAssertEqual(quiet.map(\.outcome), Array(repeating: "success", count: Self.honestCount))

        let relay = Self.relay()
        // The honest sessions are open before the flood: the attacker knows their ids (the worst
        // case), but an id is the page's secret until its session exists.
        try Self.openHonest(relay, ids: ids)
        let flood = Self.floodEvents(honest: ids)
        let reasons = LockedValue<[String: Int]>([:])
        let most = LockedValue(0)
        async let attacked: Void = withTaskGroup(of: Void.self) { group in
            for chunk in stride(from: 0, to: flood.count, by: 200) {
                let part = Array(flood[chunk..<min(chunk + 200, flood.count)])
                group.addTask {
                    for (bytes, caller) in part {
                        let reply = await relay.reply(toJSON: bytes, caller: caller)
                        let reason = reply.refusal?.reason ?? reply.completion?.method ?? "ended"
                        reasons.withLock { $0[reason, default: 0] += 1 }
                        let held = relay.sessionCount
                        most.withLock { $0 = max($0, held) }
                    }
                }
            }
        }
        let loud = try await Self.honestRun(relay, ids: ids)
        await attacked

        for (index, (expected, got)) in zip(quiet, loud).enumerated() {
            XCTAssertEqual(got, expected, "honest session \(index)")
        }
        let counts = reasons.withLock { $0 }
        // Every kind of flood was refused, and the attacker got only its own sessions' answers.
        for reason in [
            "stringTooLong", "eventTooLarge", "nestingTooDeep", "callerRequired", "unknownSession",
            "tooManySessionsForCaller", "tooManyEvents",
        ] {
            XCTAssertGreaterThan(counts[reason, default: 0], 0, "\(reason): \(counts)")
        }
        XCTAssertLessThanOrEqual(most.withLock { $0 }, Self.limits.maxSessions)
        XCTAssertLessThanOrEqual(
            relay.sessionCount, Self.honestCount + Self.attackers * Self.limits.maxSessionsPerCaller)
    }
}
