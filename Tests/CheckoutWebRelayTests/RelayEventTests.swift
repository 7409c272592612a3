import CheckoutCore
import CheckoutFlows
import CheckoutTestSupport
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import Synchronization
import XCTest

final class RelayEventTests: XCTestCase {
    private func relay(_ clock: ManualClock = ManualClock()) -> WebRelay {
        WebRelay(options: RelayOptions(clock: clock, snapshotKey: Shop.key))
    }

    // spec W1, W4, W5: every ApplePaySession event gets exactly what its complete… method takes.
    func testEveryApplePayEventIsAnsweredWithItsCompletionArgument() async throws {
        let relay = relay()
        let merchant = ShopMerchant()
        try relay.open(
            "s1", request: Shop.request, merchant: .authorization(delegate: merchant, validator: ShopValidator()))

        let validation = await relay.handle(try Page.validate("s1"))
        XCTAssertEqual(validation.completion, .merchantValidation(ShopValidator.merchantSession))

        let contact = await relay.handle(try Page.contact("s1"))
        guard case .shippingContactSelection(let contactUpdate) = contact.completion else {
            return XCTFail("\(contact)")
        }
        XCTAssertEqual(contactUpdate.newTotal.amount, "30.00")
        XCTAssertEqual(contactUpdate.newShippingMethods?.map(\.identifier), ["standard", "express"])

        let method = await relay.handle(try Page.method("s1", "express"))
        guard case .shippingMethodSelection(let methodUpdate) = method.completion else { return XCTFail("\(method)") }
        XCTAssertEqual(methodUpdate.newTotal.amount, "35.00")

        let card = await relay.handle(try Page.card("s1", type: "debit"))
        guard case .paymentMethodSelection(let cardUpdate) = card.completion else { return XCTFail("\(card)") }
        XCTAssertEqual(cardUpdate.newTotal.amount, "24.00")

        let coupon = await relay.handle(try Page.coupon("s1", "TEN"))
        guard case .couponCodeChange(let couponUpdate) = coupon.completion else { return XCTFail("\(coupon)") }
        XCTAssertEqual(couponUpdate.newTotal.amount, "15.00")

        let payment = await relay.handle(try Page.authorize("s1"))
        guard case .payment(let result) = payment.completion else { return XCTFail("\(payment)") }
        XCTAssertEqual(result.status, 0)  // STATUS_SUCCESS
        XCTAssertEqual(relay.session("s1")?.outcome, "success")
        XCTAssertEqual(merchant.finishedCount, 1)
        // No shipping field was requested: the payment carries no shipping contact (spec A6).
        XCTAssertNil(merchant.payments.first?.shippingContact)
        XCTAssertEqual(merchant.payments.first?.shippingMethod?.identifier, "express")

        // After the end every event is the flow's `finished` (spec E5).
        let late = await relay.handle(try Page.coupon("s1", "TEN"))
        XCTAssertEqual(late.refusal?.reason, "finished")
    }

    // spec A6, W2: the merchant gets the shipping contact of the page's payment, which Apple Pay
    // sends in full, not the one the sheet holds from shippingcontactselected.
    func testTheMerchantGetsThePaymentsOwnShippingContact() async throws {
        let relay = relay()
        let merchant = ShopMerchant()
        var request = Shop.request
        request.requiredShippingContactFields = [.postalAddress]
        try relay.open("s1", request: request, merchant: .authorization(delegate: merchant))
        let contact = await relay.handle(
            try Page.event(
                #"{"session": "s1", "type": "shippingcontactselected", "shippingContact": {"addressLines": ["withheld"], "locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US"}}"#
            ))
        XCTAssertEqual(contact.completion?.method, "completeShippingContactSelection")
        let payment = await relay.handle(try Page.authorize("s1"))
        XCTAssertEqual(payment.completion?.method, "completePayment")
        XCTAssertEqual(merchant.payments.first?.shippingContact?.postalAddress?.line1, "1 Main St")
    }

    // An async merchant is relayed the same way; a default answer says so in the transcript
    // (spec A9).
    func testAnAsyncMerchantIsRelayed() async throws {
        struct AsyncShop: AsyncPaymentAuthorizationDelegate {
            func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}
            func paymentAuthorizationFlow(_ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment) async
                -> PaymentAuthorizationResult
            { Shop.answer(payment: payment) }
            func paymentAuthorizationFlow(_ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact)
                async -> ShippingContactUpdate
            { Shop.answer(contact: contact) }
        }
        let relay = relay()
        try relay.open("s1", request: Shop.request, merchant: .authorization(delegate: AsyncShop()))
        let contact = await relay.handle(try Page.contact("s1"))
        guard case .shippingContactSelection(let update) = contact.completion else { return XCTFail("\(contact)") }
        XCTAssertEqual(update.newTotal.amount, "30.00")
        let coupon = await relay.handle(try Page.coupon("s1", "TEN"))
        guard case .couponCodeChange(let unchanged) = coupon.completion else { return XCTFail("\(coupon)") }
        XCTAssertEqual(unchanged.newTotal.amount, "30.00")  // the default: no change
        let defaults = relay.session("s1")!.flowTranscript.entries.filter {
            if case .completion(_, _, _, byDefault: true) = $0.event { return true }
            return false
        }
        XCTAssertEqual(defaults.count, 1)
        let declined = await relay.handle(try Page.authorize("s1", transaction: "decline-1"))
        XCTAssertEqual(declined.completion, .payment(ApplePayPaymentAuthorizationResult(status: 1)))
        let paid = await relay.handle(try Page.authorize("s1"))
        XCTAssertEqual(paid.completion, .payment(ApplePayPaymentAuthorizationResult(status: 0)))
    }

    // spec W1: the reply's JSON is the shape the page reads.
    func testRepliesAsJSONHaveTheDocumentedShape() async throws {
        let relay = relay()
        try relay.open("s1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let body = Data(
            #"{"session": "s1", "type": "shippingmethodselected", "shippingMethod": {"label": "Express", "amount": "15.00", "identifier": "express", "detail": ""}}"#
                .utf8)
        let replyData = await relay.handle(json: body)
        let reply = try XCTUnwrap(JSONSerialization.jsonObject(with: replyData) as? [String: Any])
        XCTAssertEqual(reply["session"] as? String, "s1")
        XCTAssertEqual(reply["type"] as? String, "shippingmethodselected")
        XCTAssertEqual(reply["complete"] as? String, "completeShippingMethodSelection")
        let argument = try XCTUnwrap(reply["argument"] as? [String: Any])
        XCTAssertEqual((argument["newTotal"] as? [String: Any])?["amount"] as? String, "35.00")
        XCTAssertEqual((argument["newLineItems"] as? [[String: Any]])?.first?["amount"] as? String, "20.00")

        // The reply decodes back to the same value.
        let data = await relay.handle(
            json: Data(#"{"session": "s1", "type": "couponcodechanged", "couponCode": "TEN"}"#.utf8))
        let decoded = try JSONDecoder().decode(RelayReply.self, from: data)
        XCTAssertEqual(decoded.completion?.method, "completeCouponCodeChange")
        XCTAssertEqual(try JSONDecoder().decode(RelayReply.self, from: JSONEncoder().encode(decoded)), decoded)
    }

    // spec W1, W3: the W3C events get a PaymentDetailsUpdate for updateWith.
    func testPaymentRequestEventsAreAnsweredWithUpdateWith() async throws {
        let relay = relay()
        try relay.open("w1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let address = await relay.handle(try Page.address("w1"))
        guard case .updateWith(let update) = address.completion else { return XCTFail("\(address)") }
        XCTAssertEqual(update.total?.amount.value, "30.00")
        XCTAssertEqual(update.shippingOptions?.map(\.id), ["standard", "express"])
        XCTAssertEqual(update.shippingOptions?.first?.selected, true)

        let option = await relay.handle(try Page.option("w1", "express"))
        guard case .updateWith(let optionUpdate) = option.completion else { return XCTFail("\(option)") }
        XCTAssertEqual(optionUpdate.total?.amount.value, "35.00")

        let method = await relay.handle(try Page.methodChange("w1"))
        guard case .updateWith(let methodUpdate) = method.completion else { return XCTFail("\(method)") }
        XCTAssertEqual(methodUpdate.total?.amount.value, "24.00")  // debit, from methodDetails

        // W3: W3C `shippingOptions: []` means none available, as in the flow.
        let canada = await relay.handle(try Page.address("w1", country: "CA"))
        guard case .updateWith(let none) = canada.completion else { return XCTFail("\(canada)") }
        XCTAssertEqual(none.shippingOptions, [])
    }

    // spec W3: the flow's "none available" is sent as a blocking addressUnserviceable error, never
    // as an empty list; a merchant's own blocking error is kept.
    func testAnEmptyMethodListIsSentAsABlockingError() async throws {
        let relay = relay()
        try relay.open("s1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let reply = await relay.handle(try Page.contact("s1", country: "CA", postalCode: "K1A 0B1"))
        guard case .shippingContactSelection(let update) = reply.completion else { return XCTFail("\(reply)") }
        XCTAssertNil(update.newShippingMethods)
        XCTAssertEqual(update.errors?.map(\.code), [.addressUnserviceable])

        let uk = await relay.handle(try Page.contact("s1", country: "GB", postalCode: "SW1A 1AA"))
        guard case .shippingContactSelection(let ukUpdate) = uk.completion else { return XCTFail("\(uk)") }
        XCTAssertEqual(ukUpdate.errors?.map(\.message), ["We do not ship to the UK"])
        // The blocking error holds on the server too: the flow refuses the authorization.
        let blocked = await relay.handle(try Page.authorize("s1"))
        XCTAssertEqual(blocked.refusal?.reason, "blockedByError")
    }

    // spec W4, E1: an event while the merchant owes an answer is refused with callbackPending.
    func testAnEventWhileAnAnswerIsOwedIsRefused() async throws {
        let relay = relay()
        let merchant = ShopMerchant()
        try relay.open("s1", request: Shop.request, merchant: .authorization(delegate: merchant))
        merchant.holdNextAnswer()
        let first = Task { await relay.handle(try Page.contact("s1")) }
        await merchant.waitUntilParked()
        XCTAssertTrue(relay.session("s1")?.isBusy == true)
        let second = await relay.handle(try Page.method("s1", "express"))
        XCTAssertEqual(second.refusal?.reason, "callbackPending")
        XCTAssertEqual(second.refusal?.pendingCallback, "didSelectShippingContact")
        XCTAssertEqual((try encoded(second)["refused"] as? [String: Any])?["reason"] as? String, "callbackPending")
        merchant.release()
        let answered = try await first.value
        XCTAssertEqual(answered.completion?.method, "completeShippingContactSelection")
        // Free again: the next event is taken.
        let third = await relay.handle(try Page.method("s1", "express"))
        XCTAssertEqual(third.completion?.method, "completeShippingMethodSelection")
        // The refusal is in the session's transcript, as the customer's event.
        let refused = relay.session("s1")!.transcript.entries.filter {
            if case .refused("relay.shippingmethodselected", let refusal) = $0.event {
                return refusal.code == .callbackPending
            }
            return false
        }
        XCTAssertEqual(refused.count, 1)
    }

    // spec W4, E3: cancel from the page ends the flow at once, also while an answer is owed.
    func testCancelEndsTheFlowAlsoWhileAnAnswerIsOwed() async throws {
        let relay = relay()
        let merchant = ShopMerchant()
        try relay.open("s1", request: Shop.request, merchant: .authorization(delegate: merchant))
        merchant.holdNextAnswer()
        let pending = Task { await relay.handle(try Page.coupon("s1", "TEN")) }
        await merchant.waitUntilParked()
        let cancel = await relay.handle(try Page.cancel("s1"))
        XCTAssertEqual(cancel.end?.outcome, "cancelled")
        XCTAssertEqual(cancel.end?.abort, false)
        XCTAssertNil(try encoded(cancel)["complete"])
        let ended = try await pending.value
        XCTAssertEqual(ended.end?.outcome, "cancelled")
        merchant.release()  // a late answer: ignored by the flow (spec E2)
        XCTAssertEqual(merchant.finishedCount, 1)
        XCTAssertEqual(relay.session("s1")?.authorizationFlow.violations.map(\.kind), [.lateCompletion])
    }

    // spec W4, E4: the browser's 30-second timeout is the flow's deadline.
    func testAMerchantThatDoesNotAnswerInTimeEndsTheSession() async throws {
        let clock = ManualClock()
        let relay = relay(clock)
        let merchant = ShopMerchant()
        try relay.open("s1", request: Shop.request, merchant: .authorization(delegate: merchant))
        merchant.holdNextAnswer()
        let pending = Task { await relay.handle(try Page.contact("s1")) }
        await merchant.waitUntilParked()
        clock.advance(by: .seconds(29))
        XCTAssertTrue(relay.session("s1")?.isBusy == true)
        clock.advance(by: .seconds(1))
        let reply = try await pending.value
        XCTAssertEqual(reply.end?.outcome, "timedOut")
        XCTAssertEqual(reply.end?.reason, "completionTimedOut")
        XCTAssertEqual(reply.end?.abort, true)
        XCTAssertEqual(try encoded(reply)["complete"] as? String, "abort")
    }

    // spec W4, E7: an update the browser would reject is never sent; the page gets the flow's
    // error outcome and the transcript says why.
    func testAnInvalidUpdateIsNeverSent() async throws {
        let relay = relay()
        try relay.open("s1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let reply = await relay.handle(try Page.coupon("s1", "BAD"))
        XCTAssertNil(reply.completion)
        XCTAssertEqual(reply.end?.reason, "invalidUpdate")
        XCTAssertEqual(reply.end?.abort, true)
        XCTAssertTrue(reply.end?.outcome.hasPrefix("failed") == true, "\(String(describing: reply.end))")
        let session = try XCTUnwrap(relay.session("s1"))
        XCTAssertEqual(session.transcript.violations.map(\.kind), [.invalidUpdate])
        XCTAssertTrue(session.transcript.text().contains("invalidUpdate"))
    }

    // spec W2, W4: an answer with no form the page can take (an error code Apple Pay does not
    // have) is never sent in part: the session ends and says why.
    func testAnAnswerWithoutAWireFormEndsTheSession() async throws {
        struct Loyalty: PaymentAuthorizationDelegate {
            func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}
            func paymentAuthorizationFlow(
                _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
                handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
            ) { handler(PaymentAuthorizationResult(status: .success)) }
            func paymentAuthorizationFlow(
                _ flow: PaymentAuthorizationFlow, didChangeCouponCode code: String,
                handler: @escaping @Sendable (CouponCodeUpdate) -> Void
            ) {
                let error = PaymentError(code: PaymentError.Code(rawValue: "loyaltyExpired"), message: "Expired")
                handler(CouponCodeUpdate(errors: [error], summaryItems: Shop.items(2_500)))
            }
        }
        let relay = relay()
        try relay.open("s1", request: Shop.request, merchant: .authorization(delegate: Loyalty()))
        let reply = await relay.handle(try Page.coupon("s1", "OLD"))
        XCTAssertEqual(reply.end?.reason, "unrepresentableAnswer")
        XCTAssertEqual(reply.end?.abort, true)
        XCTAssertTrue(reply.end?.message.contains("loyaltyExpired") == true, "\(reply)")
        let session = try XCTUnwrap(relay.session("s1"))
        XCTAssertTrue(session.isEnded)
        XCTAssertTrue(session.transcript.text().contains("unrepresentableAnswer"))
    }

    // spec W2: an event that cannot be read is refused with the member's path; the rest goes on.
    func testMalformedEventsAreRefusedNamingTheMember() async throws {
        let relay = relay()
        try relay.open("s1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let missing = try JSONDecoder().decode(
            RelayReply.self,
            from: await relay.handle(json: Data(#"{"session": "s1", "type": "couponcodechanged"}"#.utf8)))
        XCTAssertEqual(missing.refusal?.reason, "malformedEvent")
        XCTAssertEqual(missing.refusal?.fields, ["couponCode"])
        XCTAssertEqual(missing.session, "s1")

        let unknown = await relay.reply(toJSON: Data(#"{"session": "s1", "type": "shippingcontactchanged"}"#.utf8))
        XCTAssertEqual(unknown.refusal?.fields, ["type"])
        XCTAssertTrue(unknown.refusal?.message.contains("shippingcontactchanged") == true)

        let wrongShape = await relay.reply(
            toJSON: Data(
                #"{"session": "s1", "type": "shippingcontactselected", "shippingContact": {"amount": "1"}}"#.utf8))
        XCTAssertEqual(wrongShape.refusal?.reason, "malformedEvent")
        XCTAssertEqual(wrongShape.refusal?.fields, ["shippingContact"])

        let badCountry = await relay.handle(try Page.contact("s1", country: "XX"))
        XCTAssertEqual(badCountry.refusal?.reason, "invalidEvent")
        XCTAssertEqual(badCountry.refusal?.fields?.first?.hasPrefix("shippingContact."), true)

        let nobody = await relay.handle(try Page.contact("nobody"))
        XCTAssertEqual(nobody.refusal?.reason, "unknownSession")

        let fine = await relay.handle(try Page.contact("s1"))
        XCTAssertEqual(fine.completion?.method, "completeShippingContactSelection")
    }

    // spec W6: a session with no event for longer than the timeout is ended, on the injected clock.
    func testIdleSessionsAreEnded() async throws {
        let clock = ManualClock()
        let ended = EndLog()
        let relay = WebRelay(
            options: RelayOptions(clock: clock, onSessionEnd: { id, transcript in ended.add(id, transcript) }))
        let merchant = ShopMerchant()
        try relay.open("idle", request: Shop.request, merchant: .authorization(delegate: merchant))
        try relay.open("busy", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        clock.advance(by: .seconds(20))
        _ = await relay.handle(try Page.contact("busy"))
        clock.advance(by: .seconds(10))
        // The relay's idle deadline, on the clock, ends it at its own time.
        await ended.waitFor(1)
        XCTAssertNil(relay.session("idle"))
        XCTAssertNotNil(relay.session("busy"))
        XCTAssertEqual(merchant.finishedCount, 1)
        XCTAssertEqual(ended.ids, ["idle"])
        XCTAssertTrue(ended.transcripts.first?.text().contains("idle") == true)
        // spec E8: the relay ended the idle session; the customer only opened the sheet, and the
        // cancel that ended the flow is the flow's side acting.
        let idle = try XCTUnwrap(ended.transcripts.first)
        XCTAssertEqual(idle.entries.filter { $0.actor == .customer }.map(\.event), [.action("present", [])])
        let cancel = try XCTUnwrap(idle.entries.first { $0.event == .action("cancel", []) })
        XCTAssertEqual(cancel.actor, .flow)
        // A sweep ends what is idle now, and nothing else.
        let none = await relay.endIdleSessions()
        XCTAssertEqual(none, [])
        clock.advance(by: .seconds(20))
        let swept = await relay.endIdleSessions()
        let gone = relay.sessionCount
        // The sweep or the session's own deadline, whichever came first.
        XCTAssertTrue(swept == ["busy"] || swept.isEmpty, "\(swept)")
        XCTAssertEqual(gone, 0)
        await ended.waitFor(2)
        XCTAssertEqual(ended.ids, ["idle", "busy"])
        let refused = await relay.handle(try Page.contact("busy"))
        XCTAssertEqual(refused.refusal?.reason, "unknownSession")
    }

    // A relay's opener opens sessions on their first event.
    func testTheOpenerOpensUnknownSessions() async throws {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock())) { id in
            id.hasPrefix("shop-") ? .open(Shop.request, .authorization(delegate: ShopMerchant())) : nil
        }
        let id = "shop-" + SessionID.random()
        let reply = await relay.handle(try Page.contact(id), caller: Shop.caller)
        XCTAssertEqual(reply.completion?.method, "completeShippingContactSelection")
        let other = await relay.handle(try Page.contact(SessionID.random()), caller: Shop.caller)
        XCTAssertEqual(other.refusal?.reason, "unknownSession")
        XCTAssertThrowsError(
            try relay.open(id, request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        ) {
            XCTAssertEqual(($0 as? RelayError)?.code, .sessionExists)
        }
    }
}

final class EndLog: Sendable {
    private let ended = Arrivals<(String, Transcript)>()
    func add(_ id: String, _ transcript: Transcript) { ended.append((id, transcript)) }
    var ids: [String] { ended.items.map(\.0) }
    var transcripts: [Transcript] { ended.items.map(\.1) }
    /// Waits until `count` sessions have ended (the clock's deadline ends them on its own task).
    func waitFor(_ count: Int) async { await ended.waitFor(count) }
}
