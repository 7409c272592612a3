import CheckoutCore
import CheckoutFlows
import CheckoutTestSupport
import CheckoutWeb
import Foundation
import XCTest

@testable import CheckoutWebRelay

/// Google Pay's `paymentDataCallbacks` through the relay to a merchant written once (spec W9).
final class GooglePayRelayTests: XCTestCase {
    private func relay(_ clock: ManualClock = ManualClock()) -> WebRelay {
        WebRelay(options: RelayOptions(clock: clock, snapshotKey: Shop.key))
    }

    /// The shop's request asking for what a Google Pay page asks for: the full shipping address,
    /// the name on it, the email.
    private var request: PaymentRequest {
        var request = Shop.request
        request.requiredShippingContactFields = [.postalAddress, .name, .emailAddress]
        return request
    }

    private func update(_ reply: RelayReply, file: StaticString = #filePath, line: UInt = #line)
        -> GooglePayPaymentDataRequestUpdate?
    {
        guard case .googlePayPaymentDataChanged(let update) = reply.completion else {
            XCTFail("not an onPaymentDataChanged answer: \(reply)", file: file, line: line)
            return nil
        }
        XCTAssertEqual(reply.completion?.method, "onPaymentDataChanged", file: file, line: line)
        return update
    }

    private func calls(_ session: RelaySession?) -> [String] {
        (session?.flowTranscript.entries ?? []).compactMap { entry in
            if case .call(let method, _, _) = entry.event { return method }
            return nil
        }
    }

    // spec W9: a whole session, each callback answered in Google's shape by the Apple Pay merchant.
    func testAWholeSessionIsAnsweredInGooglesShapes() async throws {
        let relay = relay()
        let merchant = ShopMerchant()
        try relay.open("g1", request: request, merchant: .authorization(delegate: merchant))

        // INITIALIZE with an address and an option: two callbacks, address first.
        let initialize = await relay.handle(try GooglePage.initialize("g1", option: "express"))
        let first = try XCTUnwrap(update(initialize))
        XCTAssertEqual(
            calls(relay.session("g1")),
            [DelegateMethod.didSelectShippingContact.name, DelegateMethod.didSelectShippingMethod.name])
        XCTAssertEqual(first.newTransactionInfo?.totalPrice, "35.00")  // 20.00 + express 15.00
        XCTAssertEqual(first.newTransactionInfo?.currencyCode, "USD")
        XCTAssertEqual(first.newTransactionInfo?.countryCode, "US")
        XCTAssertEqual(first.newTransactionInfo?.totalPriceLabel, "Tea Shop")
        XCTAssertEqual(
            first.newTransactionInfo?.displayItems,
            [GooglePayDisplayItem(label: "Tea", type: .lineItem, price: "20.00", status: .final)])
        XCTAssertEqual(first.newShippingOptionParameters?.shippingOptions.map(\.id), ["standard", "express"])
        XCTAssertEqual(first.newShippingOptionParameters?.defaultSelectedOptionId, "express")
        XCTAssertNil(first.error)
        XCTAssertNil(first.newOfferInfo)

        let optionReply = await relay.handle(try GooglePage.shippingOption("g1", "standard"))
        let option = try XCTUnwrap(update(optionReply))
        XCTAssertEqual(option.newTransactionInfo?.totalPrice, "25.00")
        XCTAssertNil(option.newShippingOptionParameters, "a SHIPPING_OPTION answer sets no options")

        // OFFER with two codes, the first invalid: two coupon callbacks in Google's order; the totals
        // are the last answer's, the invalid code's error is not lost.
        let offerReply = await relay.handle(try GooglePage.offer("g1", ["NOPE", "TEN"]))
        let offer = try XCTUnwrap(update(offerReply))
        XCTAssertEqual(
            calls(relay.session("g1")).suffix(2),
            [DelegateMethod.didChangeCouponCode.name, DelegateMethod.didChangeCouponCode.name])
        XCTAssertEqual(relay.session("g1")?.authorizationFlow.sheet?.couponCode, "TEN")
        XCTAssertEqual(offer.newTransactionInfo?.totalPrice, "15.00")
        XCTAssertEqual(offer.newOfferInfo?.offers, [GooglePayOfferDetail(redemptionCode: "TEN", description: "TEN")])
        XCTAssertEqual(
            offer.error, GooglePayPaymentDataError(reason: .offerInvalid, message: "Unknown code", intent: .offer))

        let cardReply = await relay.handle(try GooglePage.paymentMethod("g1"))
        let card = try XCTUnwrap(update(cardReply))
        XCTAssertEqual(card.newTransactionInfo?.totalPrice, "25.00")
        XCTAssertEqual(relay.session("g1")?.authorizationFlow.sheet?.paymentMethod?.network, .visa)

        let payment = await relay.handle(try GooglePage.authorized("g1"))
        XCTAssertEqual(payment.completion, .googlePayPaymentAuthorized(.init(transactionState: .success)))
        XCTAssertEqual(payment.completion?.method, "onPaymentAuthorized")
        XCTAssertEqual(relay.session("g1")?.outcome, "success")
        let paid = try XCTUnwrap(merchant.payments.first)
        XCTAssertEqual(paid.token.paymentData, "examplePaymentMethodToken")
        XCTAssertEqual(paid.token.paymentMethod.network, .visa)
        XCTAssertEqual(paid.shippingContact?.postalAddress?.line1, "1 Congress Ave")
        XCTAssertEqual(paid.shippingContact?.emailAddress, "jane@example.com")
        XCTAssertEqual(paid.shippingContact?.name, "Jane Doe")
        XCTAssertEqual(paid.shippingMethod?.identifier, "standard")
        // spec W2: what the flow has no place for is named in the transcript.
        XCTAssertTrue(
            relay.session("g1")!.transcript.entries.contains {
                if case .action("relay.notPassedOn", let values) = $0.event {
                    return "\(values)".contains("paymentData.paymentMethodData.info.cardDetails")
                }
                return false
            })
    }

    // spec W9: each of the flow's errors reaches Google's sheet as its reason, and comes back from
    // it as the flow's error (couponCodeExpired, which Google has no reason for, as OFFER_INVALID).
    func testEveryErrorReasonGoesThroughTheRelayAndBack() async throws {
        let expected: [PaymentError.Code: GooglePayErrorReason] = [
            .shippingContactInvalid: .shippingAddressInvalid,
            .shippingAddressUnserviceable: .shippingAddressUnserviceable,
            .shippingOptionInvalid: .shippingOptionInvalid, .couponCodeInvalid: .offerInvalid,
            .couponCodeExpired: .offerInvalid, .billingContactInvalid: .paymentDataInvalid, .unknown: .otherError,
        ]
        XCTAssertEqual(Set(expected.values), Set(GooglePayErrorReason.allCases))
        for code in ErrorNamingMerchant.codes {
            let relay = relay()
            try relay.open("e1", request: Shop.request, merchant: .authorization(delegate: ErrorNamingMerchant()))
            let reply = await relay.handle(
                try GooglePage.shippingAddress("e1", GooglePage.address(locality: code.rawValue)))
            let error = try XCTUnwrap(update(reply)?.error, "\(code)")
            XCTAssertEqual(error.reason, expected[code], "\(code)")
            XCTAssertEqual(error.intent, .shippingAddress)
            XCTAssertEqual(error.message, "error \(code.rawValue)")
            XCTAssertEqual(error.core().code, code == .couponCodeExpired ? .couponCodeInvalid : code)
        }
        // The flow's "none available" (CA) goes out as the error it stands for, no empty list (W3).
        let relay = relay()
        try relay.open("e2", request: Shop.request, merchant: .authorization(delegate: ErrorNamingMerchant()))
        let noneReply = await relay.handle(
            try GooglePage.shippingAddress("e2", GooglePage.address(country: "CA", area: "ON")))
        let none = try XCTUnwrap(update(noneReply))
        XCTAssertNil(none.newShippingOptionParameters)
        XCTAssertEqual(none.error?.reason, .shippingAddressUnserviceable)
    }

    // spec W9, A7: an authorization ERROR leaves Google's sheet open, and another may succeed.
    func testAnAuthorizationErrorKeepsTheSheetForAnotherTry() async throws {
        let relay = relay()
        try relay.open("a1", request: request, merchant: .authorization(delegate: ErrorNamingMerchant()))
        _ = await relay.handle(try GooglePage.shippingAddress("a1"))
        let declined = await relay.handle(try GooglePage.authorized("a1", name: "billingContactInvalid"))
        XCTAssertEqual(
            declined.completion,
            .googlePayPaymentAuthorized(
                .init(
                    transactionState: .error,
                    error: .init(
                        reason: .paymentDataInvalid, message: "error billingContactInvalid",
                        intent: .paymentAuthorization)))
        )
        XCTAssertNil(relay.session("a1")?.outcome)
        let paid = await relay.handle(try GooglePage.authorized("a1"))
        XCTAssertEqual(paid.completion, .googlePayPaymentAuthorized(.init(transactionState: .success)))
        XCTAssertEqual(relay.session("a1")?.outcome, "success")
    }

    // spec W9, E3: the page's loadPaymentData rejected with CANCELED is forwarded as `cancel`.
    func testCancelEndsTheSession() async throws {
        let relay = relay()
        let merchant = ShopMerchant()
        try relay.open("c1", request: Shop.request, merchant: .authorization(delegate: merchant))
        _ = await relay.handle(try GooglePage.initialize("c1"))
        let cancel = await relay.handle(try Page.cancel("c1"))
        XCTAssertEqual(cancel.end?.outcome, "cancelled")
        XCTAssertEqual(cancel.end?.abort, false)
        XCTAssertEqual(merchant.finishedCount, 1)
    }

    // spec W9, W4, E4: each callback of a Google change has the flow's deadline.
    func testAMerchantThatDoesNotAnswerInTimeEndsTheSession() async throws {
        let clock = ManualClock()
        let relay = relay(clock)
        let merchant = ShopMerchant()
        try relay.open("d1", request: Shop.request, merchant: .authorization(delegate: merchant))
        merchant.holdNextAnswer()
        let pending = Task { await relay.handle(try GooglePage.initialize("d1")) }
        await merchant.waitUntilParked()
        // spec W4: one event at a time, also while one of several callbacks is owed.
        let meanwhile = await relay.handle(try GooglePage.shippingOption("d1", "standard"))
        XCTAssertEqual(meanwhile.refusal?.reason, "callbackPending")
        XCTAssertEqual(meanwhile.refusal?.pendingCallback, "onPaymentDataChanged")
        clock.advance(by: .seconds(29))
        XCTAssertTrue(relay.session("d1")?.isBusy == true)
        clock.advance(by: .seconds(1))
        let reply = try await pending.value
        XCTAssertEqual(reply.end?.outcome, "timedOut")
        XCTAssertEqual(reply.end?.reason, "completionTimedOut")
        XCTAssertEqual(reply.end?.abort, true)
        XCTAssertFalse(calls(relay.session("d1")).contains(DelegateMethod.didSelectShippingMethod.name))
    }

    // spec W2, W9: a payload that cannot be read is refused naming its path, and changes nothing.
    func testMalformedPayloadsAreRefusedNamingThePath() async throws {
        let relay = relay()
        try relay.open("m1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        func refusal(_ json: String) async -> RelayRefusal? {
            let data = await relay.handle(json: Data(json.utf8))
            return try? JSONDecoder().decode(RelayReply.self, from: data).refusal
        }
        let cases: [(String, String, String)] = [
            (
                GooglePage.json("m1", changed: #"{"callbackTrigger": "SHIPPING_ADRESS"}"#), "malformedEvent",
                "intermediatePaymentData.callbackTrigger"
            ),
            (
                #"{"session": "m1", "type": "googlepay.paymentdatachanged"}"#, "malformedEvent",
                "intermediatePaymentData"
            ),
            (
                GooglePage.json("m1", changed: #"{"callbackTrigger": "OFFER", "offerData": {"redemptionCodes": [1]}}"#),
                "malformedEvent", "intermediatePaymentData.offerData.redemptionCodes[0]"
            ),
            (
                GooglePage.json("m1", changed: #"{"callbackTrigger": "SHIPPING_ADDRESS"}"#), "invalidEvent",
                "intermediatePaymentData.shippingAddress"
            ),
            (
                GooglePage.json(
                    "m1",
                    changed: #"{"callbackTrigger": "SHIPPING_ADDRESS", "shippingAddress": {"countryCode": "USA"}}"#),
                "invalidEvent", "intermediatePaymentData.shippingAddress.countryCode"
            ),
            (
                GooglePage.json("m1", changed: #"{"callbackTrigger": "SHIPPING_OPTION", "shippingOptionData": {}}"#),
                "malformedEvent", "intermediatePaymentData.shippingOptionData.id"
            ),
            (
                #"{"session": "m1", "type": "googlepay.paymentauthorized", "paymentData": {"paymentMethodData": {"type": "CARD"}}}"#,
                "invalidEvent", "paymentData.paymentMethodData.tokenizationData"
            ),
        ]
        for (json, reason, field) in cases {
            let refused = await refusal(json)
            XCTAssertEqual(refused?.reason, reason, json)
            XCTAssertEqual(refused?.fields, [field], json)
        }
        XCTAssertEqual(calls(relay.session("m1")), [])
        // spec W10: one browser API a session.
        _ = await relay.handle(try GooglePage.initialize("m1"))
        let apple = await relay.handle(try Page.contact("m1"))
        XCTAssertEqual(apple.refusal?.reason, "notAllowedInThisStep")
    }

    // spec W4, E7: an answer the sheet would refuse is never sent; the page gets the end.
    func testAnInvalidAnswerEndsTheSessionInsteadOfBeingSent() async throws {
        let relay = relay()
        try relay.open("i1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let reply = await relay.handle(try GooglePage.offer("i1", ["BAD", "TEN"]))
        XCTAssertEqual(reply.end?.reason, "invalidUpdate")
        XCTAssertEqual(reply.end?.abort, true)
        XCTAssertEqual(calls(relay.session("i1")).filter { $0 == DelegateMethod.didChangeCouponCode.name }.count, 1)
    }

    // spec W4, W9: an answer with no Google form (a PIN status: Google's sheet has no PIN entry)
    // is never sent; the session ends saying why.
    func testAnAnswerWithoutAGoogleFormEndsTheSession() async throws {
        final class PINMerchant: PaymentAuthorizationDelegate {
            func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}
            func paymentAuthorizationFlow(
                _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
                handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
            ) { handler(PaymentAuthorizationResult(status: .pinRequired)) }
        }
        let relay = relay()
        try relay.open("u1", request: request, merchant: .authorization(delegate: PINMerchant()))
        _ = await relay.handle(try GooglePage.shippingAddress("u1"))
        let reply = await relay.handle(try GooglePage.authorized("u1"))
        XCTAssertEqual(reply.end?.reason, "unrepresentableAnswer", "\(reply)")
        XCTAssertTrue(reply.end?.message.contains("status") == true, "\(reply)")
        XCTAssertNotNil(relay.session("u1")?.outcome)
    }

    // spec W6, W9: a Google Pay session is written out between events and resumed elsewhere, its
    // several-callback events replayed answer by answer.
    func testASnapshotCarriesAGooglePaySession() async throws {
        let relay = relay()
        try relay.open("r1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        _ = await relay.handle(try GooglePage.initialize("r1", option: "express"))
        _ = await relay.handle(try GooglePage.offer("r1", ["NOPE", "TEN"]))
        let sealed = try relay.snapshot("r1")
        XCTAssertTrue(String(decoding: sealed, as: UTF8.self).contains("laterAnswers"))
        let other = self.relay()
        let merchant = ShopMerchant()
        let resumed = try await other.resume(sealed, merchant: .authorization(delegate: merchant))
        XCTAssertEqual(resumed.authorizationFlow.sheet?.couponCode, "TEN")
        XCTAssertEqual(resumed.authorizationFlow.sheet?.selectedShippingMethodID, "express")
        XCTAssertEqual(resumed.authorizationFlow.sheet?.grandTotal, Shop.money(1_500))
        // The page is still Google's (spec W10), and the merchant answers from now on.
        let apple = await other.handle(try Page.coupon("r1", "TEN"))
        XCTAssertEqual(apple.refusal?.reason, "notAllowedInThisStep")
        let paid = await other.handle(try GooglePage.authorized("r1"))
        XCTAssertEqual(paid.completion, .googlePayPaymentAuthorized(.init(transactionState: .success)))
        XCTAssertEqual(merchant.payments.count, 1)
    }

    // spec W9, P1-P4: a Stripe merchant's pay context takes Google Pay's token through its backend.
    func testAPayContextMerchantIsPaidThroughGooglePay() async throws {
        let backend = FlakyBackend()
        let merchant = StripeShop(backend: backend)
        let relay = relay()
        try relay.open("p1", request: request, merchant: .payContext(delegate: merchant, backend: backend))
        let initialize = await relay.handle(try GooglePage.initialize("p1", option: "express"))
        XCTAssertEqual(update(initialize)?.newTransactionInfo?.totalPrice, "35.00")
        // spec P4: the backend failed: an ERROR, and the customer tries again on Google's sheet.
        backend.failNextPaymentMethod()
        let declined = await relay.handle(
            try Page.event(
                GooglePage.authorizedJSON("p1").replacingOccurrences(
                    of: "examplePaymentMethodToken", with: "4242424242424242")))
        guard case .googlePayPaymentAuthorized(let refused) = declined.completion else {
            return XCTFail("\(declined)")
        }
        XCTAssertEqual(refused.transactionState, .error)
        XCTAssertEqual(refused.error?.intent, .paymentAuthorization)
        let paid = await relay.handle(
            try Page.event(
                GooglePage.authorizedJSON("p1").replacingOccurrences(
                    of: "examplePaymentMethodToken", with: "4242424242424242")))
        XCTAssertEqual(paid.completion, .googlePayPaymentAuthorized(.init(transactionState: .success)), "\(paid)")
        // The pay context tells its delegate after the page has its answer.
        await relay.session("p1")?.payContext?.waitUntilEnded()
        XCTAssertEqual(merchant.statuses, [.success])
    }

    // The relay's own reader and writer give Google's events and answers exactly as Foundation does.
    func testEventsAndRepliesAreReadAndWrittenAsFoundationDoes() async throws {
        let events = [
            try GooglePage.initialize("f1"), try GooglePage.offer("f1", ["NOPE", "TEN"]),
            try GooglePage.paymentMethod("f1"), try GooglePage.authorized("f1"),
        ]
        let relay = relay()
        try relay.open("f1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for event in events {
            let bytes = try encoder.encode(event)
            XCTAssertEqual(EventJSONDecoder.decode(RelayEvent.self, from: bytes), event)
            let reply = await relay.handle(event)
            XCTAssertNotNil(reply.completion, "\(reply)")
            XCTAssertEqual(SortedJSONEncoder.encode(reply), try encoder.encode(reply), "\(reply)")
            XCTAssertEqual(try JSONDecoder().decode(RelayReply.self, from: try encoder.encode(reply)), reply)
        }
    }
}
