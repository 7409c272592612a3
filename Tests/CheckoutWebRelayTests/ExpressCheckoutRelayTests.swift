import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import CheckoutWeb
import Foundation
import XCTest

@testable import CheckoutWebRelay

/// Stripe's Express Checkout Element through the relay (spec W9). The page's events follow
/// docs.stripe.com/js/elements_object/express_checkout_element_*_event field by field.
final class ExpressCheckoutRelayTests: XCTestCase {
    private func relay(_ clock: ManualClock = ManualClock()) -> WebRelay {
        WebRelay(options: RelayOptions(clock: clock, snapshotKey: Shop.key))
    }

    private func send(_ relay: WebRelay, _ json: String) async throws -> RelayReply {
        let bytes = await relay.handle(json: Data(json.utf8))
        return try JSONDecoder().decode(RelayReply.self, from: bytes)
    }

    /// The shop's request, asking for the contacts the element collects.
    static let request: PaymentRequest = {
        var request = Shop.request
        request.requiredShippingContactFields = [.postalAddress, .emailAddress]
        request.requiredBillingContactFields = [.postalAddress]
        return request
    }()

    static func click(_ session: String) -> String {
        #"{"session": "\#(session)", "type": "expresscheckout.click", "event": {"expressPaymentType": "apple_pay"}}"#
    }

    static func address(_ session: String, country: String = "US") -> String {
        #"{"session": "\#(session)", "type": "expresscheckout.shippingaddresschange", "event": {"name": "Jenny Rosen", "address": {"city": "Austin", "state": "TX", "postal_code": "78701", "country": "\#(country)"}}}"#
    }

    static func rate(_ session: String, _ id: String, amount: Int64) -> String {
        #"{"session": "\#(session)", "type": "expresscheckout.shippingratechange", "event": {"shippingRate": {"id": "\#(id)", "amount": \#(amount), "displayName": "\#(id)"}}}"#
    }

    static func confirm(_ session: String, paymentMethod: String, rate: String = "express") -> String {
        #"{"session": "\#(session)", "type": "expresscheckout.confirm", "paymentMethod": "\#(paymentMethod)", "event": {"expressPaymentType": "apple_pay", "billingDetails": {"name": "Jenny Rosen", "email": "jenny@example.com", "address": {"line1": "1 Congress Ave", "city": "Austin", "state": "TX", "postal_code": "78701", "country": "US"}}, "shippingAddress": {"name": "Jenny Rosen", "address": {"line1": "1 Congress Ave", "city": "Austin", "state": "TX", "postal_code": "78701", "country": "US"}}, "shippingRate": {"id": "\#(rate)", "amount": 1500, "displayName": "Express"}}}"#
    }

    // spec W9: a whole session answered by the same merchant as Apple Pay's (Shop).
    func testAWholeSessionWithAnAuthorizationMerchant() async throws {
        let relay = relay()
        let merchant = ShopMerchant()
        try relay.open("e1", request: Self.request, merchant: .authorization(delegate: merchant))
        let click = try await send(relay, Self.click("e1"))
        guard case .expressCheckoutClickResolve(let details, let amount) = click.completion else {
            return XCTFail("\(click)")
        }
        XCTAssertEqual(amount, 2_500)
        XCTAssertEqual(details.lineItems, [ExpressCheckoutLineItem(name: "Tea", amount: 2_000)])
        XCTAssertEqual(details.shippingRates?.map(\.id), ["standard", "express"])
        XCTAssertEqual(details.business?.name, "Tea Shop")
        XCTAssertEqual(details.shippingAddressRequired, true)
        XCTAssertEqual(details.emailRequired, true)

        let address = try await send(relay, Self.address("e1"))
        guard case .expressCheckoutChangeResolve(let change, let total) = address.completion else {
            return XCTFail("\(address)")
        }
        XCTAssertEqual(total, 3_000)
        XCTAssertEqual(change.shippingRates?.map(\.amount), [500, 1_500])
        let rate = try await send(relay, Self.rate("e1", "express", amount: 1_500))
        XCTAssertEqual(rate.completion?.elementsAmount, 3_500)
        XCTAssertEqual(rate.completion?.method, "resolve")

        let paid = try await send(relay, Self.confirm("e1", paymentMethod: "pm_1Ok"))
        XCTAssertEqual(paid.completion, .expressCheckoutPaymentSucceeded)
        let payment = try XCTUnwrap(merchant.payments.last)
        XCTAssertEqual(payment.token.paymentData, "pm_1Ok")
        XCTAssertEqual(payment.shippingContact?.emailAddress, "jenny@example.com")
        XCTAssertEqual(payment.billingContact?.postalAddress?.city, "Austin")
        XCTAssertEqual(payment.shippingContact?.postalAddress?.line1, "1 Congress Ave")
        XCTAssertEqual(relay.session("e1")?.outcome, "success")
    }

    // spec W9, W3: an address the merchant cannot serve is `reject()`; a declined payment is
    // `paymentFailed` and the sheet stays (A7); the customer's cancel ends the flow (E3).
    func testRejectDeclineAndCancel() async throws {
        let relay = relay()
        try relay.open("e2", request: Shop.request, merchant: .authorization(delegate: DecliningShop()))
        let gb = try await send(relay, Self.address("e2", country: "GB"))
        XCTAssertEqual(gb.completion, .expressCheckoutReject)
        let bytes = await relay.handle(json: Data(Self.address("e2", country: "CA").utf8))
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains(#""complete":"reject""#))
        XCTAssertFalse(String(decoding: bytes, as: UTF8.self).contains("argument"))
        _ = try await send(relay, Self.address("e2"))
        _ = try await send(relay, Self.rate("e2", "express", amount: 1_500))
        let declined = try await send(relay, Self.confirm("e2", paymentMethod: "pm_decline"))
        XCTAssertEqual(
            declined.completion,
            .expressCheckoutPaymentFailed(
                ExpressCheckoutPaymentFailure(reason: .invalidShippingAddress, message: "No PO boxes")))
        let cancelled = try await send(relay, #"{"session": "e2", "type": "cancel"}"#)
        XCTAssertEqual(cancelled.end?.outcome, "cancelled")
        XCTAssertEqual(cancelled.end?.abort, false)
    }

    // spec W9, P1-P6: confirm through the pay context on the in-memory Stripe: the page's
    // PaymentMethod (made by Stripe.js) confirms the merchant's intent on the server.
    func testConfirmThroughThePayContextAndADecline() async throws {
        for (card, succeeds) in [("4242424242424242", true), ("4000000000000002", false)] {
            let backend = FlakyBackend()
            let relay = relay()
            let merchant = StripeShop(backend: backend)
            try relay.open("p1", request: Shop.request, merchant: .payContext(delegate: merchant, backend: backend))
            _ = try await send(relay, Self.click("p1"))
            _ = try await send(relay, Self.address("p1"))
            _ = try await send(relay, Self.rate("p1", "express", amount: 1_500))
            // What `stripe.createPaymentMethod({elements})` does on the page.
            let method = try await backend.stripe.createPaymentMethod(
                from: Payment(
                    token: PaymentToken(
                        paymentMethod: PaymentMethod(displayName: nil, network: .visa, type: .credit),
                        transactionIdentifier: "t", paymentData: card)))
            let reply = try await send(relay, Self.confirm("p1", paymentMethod: method.id))
            let context = try XCTUnwrap(relay.session("p1")?.payContext)
            if succeeds {
                XCTAssertEqual(reply.completion, .expressCheckoutPaymentSucceeded, "\(reply)")
                await context.waitUntilEnded()
                XCTAssertEqual(merchant.statuses, [.success])
            } else {
                switch reply.body {
                case .complete(.expressCheckoutPaymentFailed(let failure)): XCTAssertEqual(failure.reason, .fail)
                case .ended(let end): XCTAssertEqual(end.reason, "paymentFailed")
                default: XCTFail("\(reply)")
                }
            }
        }
    }

    // spec M, W9: amounts in the currency's smallest unit, exactly: JPY (none), KWD (three).
    func testZeroAndThreeDecimalCurrencies() async throws {
        for (code, total, line, rate) in [("JPY", "2500", 2_500 as Int64, 500 as Int64), ("KWD", "2.500", 2_500, 500)] {
            let currency = try CurrencyCode(code)
            let method = ShippingMethod(
                identifier: "std", label: "Std", amount: try Money(code == "JPY" ? "500" : "0.500", currency: currency))
            let request = PaymentRequest(
                merchantIdentifier: "merchant.com.example", countryCode: "JP", currencyCode: code,
                shippingMethods: [method],
                summaryItems: [
                    SummaryItem(label: "Tea", amount: try Money(total, currency: currency)),
                    SummaryItem(label: "Tea Shop", amount: try Money(total, currency: currency)),
                ])
            let relay = relay()
            try relay.open("c1", request: request, merchant: .authorization(delegate: ShopMerchant()))
            let click = try await send(relay, Self.click("c1"))
            guard case .expressCheckoutClickResolve(let details, let amount) = click.completion else {
                return XCTFail("\(code): \(click)")
            }
            XCTAssertEqual(amount, line, code)
            XCTAssertEqual(details.lineItems?.first?.amount, line, code)
            XCTAssertEqual(details.shippingRates?.first?.amount, rate, code)
        }
    }

    // spec W9, W4, E4: the merchant's deadline is the relay's (the sheet's) timeout.
    func testAnUnansweredChangeEndsAtTheDeadline() async throws {
        let clock = ManualClock()
        let relay = relay(clock)
        let merchant = ShopMerchant()
        merchant.holdNextAnswer()
        try relay.open("d1", request: Shop.request, merchant: .authorization(delegate: merchant))
        let event = Data(Self.address("d1").utf8)
        let task = Task { await relay.handle(json: event) }
        await merchant.waitUntilParked()
        clock.advance(by: .seconds(30))
        let ended = try JSONDecoder().decode(RelayReply.self, from: await task.value)
        XCTAssertEqual(ended.end?.reason, "completionTimedOut", "\(ended)")
        XCTAssertEqual(ended.end?.abort, true)
    }

    // spec W2, W10: malformed payloads are refused naming the path; a session speaks one API.
    func testMalformedPayloadsAreRefusedWithTheirPath() async throws {
        let relay = relay()
        try relay.open("m1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let fraction = try await send(
            relay,
            Self.rate("m1", "express", amount: 0).replacingOccurrences(of: "\"amount\": 0", with: "\"amount\": 15.5"))
        XCTAssertEqual(fraction.refusal?.reason, "malformedEvent")
        XCTAssertEqual(fraction.refusal?.fields, ["event.shippingRate.amount"])
        let country = try await send(relay, Self.address("m1", country: "ZZ"))
        XCTAssertEqual(country.refusal?.fields, ["event.address.country"])
        let noEvent = try await send(relay, #"{"session": "m1", "type": "expresscheckout.click"}"#)
        XCTAssertEqual(noEvent.refusal?.fields, ["event"])
        let notPM = try await send(relay, Self.confirm("m1", paymentMethod: "tok_visa"))
        XCTAssertEqual(notPM.refusal?.fields, ["paymentMethod"])
        let apple = try await send(relay, try String(decoding: JSONEncoder().encode(Page.contact("m1")), as: UTF8.self))
        XCTAssertEqual(apple.refusal?.reason, "notAllowedInThisStep")
    }

    // spec W6: a session of the element is written out and resumed between events.
    func testASnapshotCarriesAnExpressCheckoutSession() async throws {
        let first = relay()
        try first.open("s1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        _ = try await send(first, Self.click("s1"))
        _ = try await send(first, Self.address("s1"))
        _ = try await send(first, Self.rate("s1", "express", amount: 1_500))
        let sealed = try first.snapshot("s1")
        let second = relay()
        let resumed = try await second.resume(sealed, merchant: .authorization(delegate: ShopMerchant()))
        XCTAssertEqual(resumed.authorizationFlow.sheet?.grandTotal, Shop.money(3_500))
        let apple = try await send(
            second, try String(decoding: JSONEncoder().encode(Page.contact("s1")), as: UTF8.self))
        XCTAssertEqual(apple.refusal?.reason, "notAllowedInThisStep", "the resumed page is still the element's")
        let paid = try await send(second, Self.confirm("s1", paymentMethod: "pm_1"))
        XCTAssertEqual(paid.completion, .expressCheckoutPaymentSucceeded)
    }

    // The relay's own decoder and encoder read these events and write these replies exactly as
    // JSONDecoder and JSONEncoder (sorted keys) do.
    func testEventsAndRepliesGoThroughTheRelaysCoders() async throws {
        let relay = relay()
        try relay.open("b1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let events = [
            Self.click("b1"), Self.address("b1"), Self.rate("b1", "express", amount: 1_500),
            Self.address("b1", country: "GB"), Self.address("b1"), Self.confirm("b1", paymentMethod: "pm_decline"),
            Self.confirm("b1", paymentMethod: "pm_1"),
        ]
        for json in events {
            let bytes = Data(json.utf8)
            let foundation = try JSONDecoder().decode(RelayEvent.self, from: bytes)
            XCTAssertEqual(try XCTUnwrap(EventJSONDecoder.decode(RelayEvent.self, from: bytes), json), foundation)
            let reply = await relay.handle(foundation)
            let ours = try XCTUnwrap(SortedJSONEncoder.encode(reply), "left to JSONEncoder: \(reply)")
            XCTAssertEqual(
                String(decoding: ours, as: UTF8.self), String(decoding: try encoder.encode(reply), as: UTF8.self))
            XCTAssertEqual(try JSONDecoder().decode(RelayReply.self, from: ours), reply, json)
        }
        let failed = RelayReply(
            session: "b1", type: "expresscheckout.confirm",
            .complete(
                .expressCheckoutPaymentFailed(
                    ExpressCheckoutPaymentFailure(reason: .invalidShippingAddress, message: "x/y"))))
        XCTAssertEqual(
            SortedJSONEncoder.encode(failed).map { String(decoding: $0, as: UTF8.self) },
            String(decoding: try encoder.encode(failed), as: UTF8.self))
    }
}

/// Answers as ``Shop`` does, and declines every payment with an error on the shipping address.
final class DecliningShop: PaymentAuthorizationDelegate {
    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        handler(
            PaymentAuthorizationResult(status: .failure, errors: [.shippingContactInvalid(.street, "No PO boxes")]))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) { handler(Shop.answer(contact: contact)) }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) { handler(Shop.answer(method: method)) }
}
