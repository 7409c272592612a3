import CheckoutCore
import CheckoutFlows
import CheckoutTestSupport
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// Spec W10: the page lies. Whatever it sends, the merchant is asked only what a real sheet
/// could ask, a refusal changes nothing, and nothing crashes.
final class HostilePageTests: XCTestCase {
    private let id = SessionID.random()

    private func open(_ request: PaymentRequest = Shop.request) throws -> (WebRelay, ShopMerchant) {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        let merchant = ShopMerchant()
        try relay.open(id, request: request, merchant: .authorization(delegate: merchant), caller: Shop.caller)
        return (relay, merchant)
    }

    private func send(_ relay: WebRelay, _ event: RelayEvent) async -> RelayReply {
        await relay.handle(event, caller: Shop.caller)
    }

    private func record(_ relay: WebRelay) -> [TimelessEntry] {
        eventsWithoutTimes(relay.session(id)!.flowTranscript)
    }

    // MARK: Orders the sheet never sends

    func testAPaymentResponseOnAnApplePaySessionIsRefused() async throws {
        let (relay, merchant) = try open()
        _ = await send(relay, try Page.contact(id))
        let before = record(relay)
        let response = await send(relay, try PaymentResponseTests.response(id))
        XCTAssertNotNil(response.refusal, "\(response)")
        XCTAssertEqual(merchant.payments.count, 0)
        XCTAssertEqual(record(relay), before)
    }

    func testAPayerDetailChangeBeforeAnyResponseIsRefused() async throws {
        let (relay, _) = try open()
        let before = record(relay)
        let change = await send(
            relay, try Page.event(#"{"session": "\#(id)", "type": "payerdetailchange", "payerName": "Mallory"}"#))
        XCTAssertEqual(change.refusal?.reason, "notAllowedInThisStep", "\(change)")
        XCTAssertEqual(record(relay), before, "the merchant was not asked")
    }

    func testAMethodNeverOfferedIsRefusedAndTheMerchantIsNotAsked() async throws {
        let (relay, _) = try open()
        let before = record(relay)
        let reply = await send(relay, try Page.method(id, "free-teleport"))
        XCTAssertEqual(reply.refusal?.reason, "unknownShippingMethod")
        XCTAssertFalse(record(relay).contains { $0.description.contains("didSelectShippingMethod") })
        XCTAssertEqual(record(relay).count, before.count + 1, "the refusal is recorded, nothing else")
    }

    // MARK: A payment that is not what was priced

    func testAPaymentWhoseContactIsNotTheOneSelectedIsRefused() async throws {
        let (relay, merchant) = try open()
        // Priced for Austin, TX; the page then authorizes a payment shipping to Ottawa.
        _ = await send(relay, try Page.contact(id))
        let lying = try Page.event(
            #"{"session": "\#(id)", "type": "paymentauthorized", "payment": {"token": {"paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "credit"}, "transactionIdentifier": "ok-1", "paymentData": {"version": "EC_v1", "data": "abc"}}, "shippingContact": {"givenName": "Ravi", "familyName": "Patel", "addressLines": ["1 Main St"], "locality": "Ottawa", "administrativeArea": "ON", "postalCode": "K1A 0B1", "countryCode": "CA"}}}"#
        )
        let reply = await send(relay, lying)
        XCTAssertNotNil(reply.refusal, "\(reply)")
        XCTAssertEqual(merchant.payments.count, 0, "the merchant is never asked to charge for it")
        let honest = await send(relay, try Page.authorize(id))
        XCTAssertEqual(honest.completion, .payment(ApplePayPaymentAuthorizationResult(status: 0)), "\(honest)")
        XCTAssertEqual(merchant.payments.count, 1)
    }

    // MARK: After the end

    func testEventsAfterTheEndReachNoMerchant() async throws {
        let (relay, merchant) = try open()
        _ = await send(relay, try Page.contact(id))
        let paid = await send(relay, try Page.authorize(id))
        XCTAssertEqual(paid.completion, .payment(ApplePayPaymentAuthorizationResult(status: 0)), "\(paid)")
        for event in [
            try Page.authorize(id, transaction: "again"), try Page.contact(id), try Page.coupon(id, "TEN"),
            try Page.cancel(id),
        ] {
            let reply = await send(relay, event)
            XCTAssertTrue(
                reply.refusal != nil || reply.end != nil, "\(event.type.rawValue) after the end: \(reply)")
            XCTAssertNil(reply.completion, "\(event.type.rawValue) after the end")
        }
        XCTAssertEqual(merchant.payments.count, 1, "paid once")
        XCTAssertEqual(merchant.finishedCount, 1)
        XCTAssertEqual(relay.session(id)?.outcome, "success")
    }

    // MARK: Snapshots replayed

    func testASnapshotResumesOnceFromItsStore() async throws {
        let (first, _) = try open()
        _ = await send(first, try Page.contact(id))
        let store = InMemoryRelaySessionStore()
        try await first.suspend(id, to: store)
        let second = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        try await second.resume(
            id, from: store, merchant: .authorization(delegate: ShopMerchant()), caller: Shop.caller)
        do {
            try await second.resume(id, from: store, merchant: .authorization(delegate: ShopMerchant()))
            XCTFail("a snapshot resumed twice")
        } catch {
            XCTAssertEqual((error as? RelayError)?.code, .unknownSession)
        }
    }

    func testASealedSnapshotReplayedWhileItsSessionIsHeldIsRefused() async throws {
        let (relay, _) = try open()
        _ = await send(relay, try Page.contact(id))
        let sealed = try relay.snapshot(id)
        _ = await send(relay, try Page.authorize(id))
        do {
            try await relay.resume(sealed, merchant: .authorization(delegate: ShopMerchant()))
            XCTFail("an old snapshot brought back a session the relay holds")
        } catch {
            XCTAssertEqual((error as? RelayError)?.code, .sessionExists)
        }
        XCTAssertEqual(relay.session(id)?.outcome, "success")
    }

    func testAChangedSnapshotIsRefused() async throws {
        let (relay, _) = try open()
        var sealed = try relay.snapshot(id)
        sealed[sealed.count / 2] ^= 1
        await relay.close(id)
        do {
            try await relay.resume(sealed, merchant: .authorization(delegate: ShopMerchant()))
            XCTFail("a changed snapshot resumed")
        } catch {
            let code = (error as? RelayError)?.code
            XCTAssertTrue(code == .tamperedSnapshot || code == .malformedSnapshot, "\(error)")
        }
    }

    // MARK: Bodies

    func testBodiesThatAreNotEventsAreRefusedNamingWhatCannotBeRead() async throws {
        let (relay, _) = try open()
        let before = record(relay)
        let bodies = [
            "", "null", "[]", "{", #"{"session": 1}"#, #"{"session": "\#(id)"}"#,
            #"{"session": "\#(id)", "type": "teleport"}"#,
            #"{"session": "\#(id)", "type": "couponcodechanged", "couponCode": 7}"#,
            String(repeating: "{\"a\":", count: 20) + "1" + String(repeating: "}", count: 20),
            "\u{FEFF}{}", "{\"session\": \"\\ud800\"}",
        ]
        for body in bodies {
            let reply = await relay.reply(toJSON: Data(body.utf8), caller: Shop.caller)
            XCTAssertNotNil(reply.refusal, "\(body): \(reply)")
        }
        XCTAssertEqual(record(relay), before)
    }
}
