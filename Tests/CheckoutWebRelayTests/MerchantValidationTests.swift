import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

final class MerchantValidationTests: XCTestCase {
    // spec W5: the merchant session goes to completeMerchantValidation unchanged and never into the
    // transcript or a snapshot.
    func testTheMerchantSessionPassesUnchangedAndIsNeverRecorded() async throws {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        try relay.open(
            "s1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant(), validator: ShopValidator()))
        let data = await relay.handle(
            json: Data(
                #"{"session": "s1", "type": "validatemerchant", "validationURL": "https://apple-pay-gateway.apple.com/paymentservices/startSession"}"#
                    .utf8))
        let reply = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(reply["complete"] as? String, "completeMerchantValidation")
        let argument = try JSONSerialization.data(withJSONObject: try XCTUnwrap(reply["argument"]))
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: argument), ShopValidator.merchantSession)

        let session = try XCTUnwrap(relay.session("s1"))
        XCTAssertTrue(session.isMerchantValidated)
        let transcript = session.transcript
        for rendering in [
            transcript.text(showingPersonalData: true), transcript.json(showingPersonalData: true), "\(transcript)",
        ] {
            for secret in ["SSH-SECRET", "NONCE-SECRET", "SIGNATURE-SECRET"] {
                XCTAssertFalse(rendering.contains(secret), "\(secret) in \(rendering)")
            }
        }
        XCTAssertTrue(transcript.text().contains("didRequestMerchantSessionUpdate"))
        XCTAssertTrue(transcript.json().contains("not shown"))
        let snapshot = String(decoding: try relay.snapshot("s1"), as: UTF8.self)
        XCTAssertFalse(snapshot.contains("SECRET"))
    }

    // spec W5, W4: one at a time: an event while the validation is owed is refused.
    func testAnEventWhileTheValidationIsOwedIsRefused() async throws {
        let clock = ManualClock()
        let relay = WebRelay(options: RelayOptions(clock: clock))
        let validator = ShopValidator(behaviour: .hang)
        try relay.open(
            "s1", request: Shop.request,
            merchant: .authorization(delegate: ShopMerchant(), validator: validator))
        let pending = Task { await relay.handle(try Page.validate("s1")) }
        await validator.started.waitFor(1)
        let refused = await relay.handle(try Page.contact("s1"))
        XCTAssertEqual(refused.refusal?.reason, "callbackPending")
        XCTAssertEqual(refused.refusal?.pendingCallback, "didRequestMerchantSessionUpdate")
        // spec E4: under the flow's deadline; a late validation ends the session and the page aborts.
        clock.advance(by: .seconds(30))
        let reply = try await pending.value
        XCTAssertEqual(reply.end?.reason, "completionTimedOut")
        XCTAssertEqual(reply.end?.abort, true)
        let session = try XCTUnwrap(relay.session("s1"))
        XCTAssertTrue(session.isEnded)
        XCTAssertEqual(session.transcript.violations.map(\.kind), [.completionTimedOut])
    }

    // spec W5: a failed validation ends the session; the page aborts.
    func testAFailedValidationEndsTheSession() async throws {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock()))
        let merchant = ShopMerchant()
        try relay.open(
            "s1", request: Shop.request,
            merchant: .authorization(delegate: merchant, validator: ShopValidator(behaviour: .fail)))
        let reply = await relay.handle(try Page.validate("s1"))
        XCTAssertEqual(reply.end?.reason, "merchantValidationFailed")
        XCTAssertEqual(reply.end?.message, "Apple answered 400")
        XCTAssertEqual(reply.end?.abort, true)
        XCTAssertEqual(merchant.finishedCount, 1)
    }

    // spec W5, A9: a merchant that neither implements didRequestMerchantSessionUpdate nor gives a
    // MerchantValidating gets the protocol's default answer, no session: the session ends and says
    // why. A bad URL is refused before the merchant is asked.
    func testValidationWithoutAValidatorOrWithABadURLIsRefused() async throws {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock()))
        try relay.open("a", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let unsupported = await relay.handle(try Page.validate("a"))
        XCTAssertEqual(unsupported.end?.reason, "merchantValidationUnsupported")
        XCTAssertEqual(unsupported.end?.abort, true)
        try relay.open(
            "b", request: Shop.request, merchant: .authorization(delegate: ShopMerchant(), validator: ShopValidator()))
        let insecure = await relay.handle(
            try Page.event(#"{"session": "b", "type": "validatemerchant", "validationURL": "http://example.com/x"}"#))
        XCTAssertEqual(insecure.refusal?.reason, "invalidEvent")
        XCTAssertEqual(insecure.refusal?.fields, ["validationURL"])
    }
}
