import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import Foundation
import XCTest

@testable import CheckoutWebRelay

/// One merchant, written once as a `PaymentAuthorizationDelegate`, answers a whole session in
/// each of the four sheets a server relays (spec W9): Apple Pay on the web, the W3C Payment
/// Request, Google Pay's `paymentDataCallbacks` and Stripe's Express Checkout Element. Each
/// wallet's payloads are read and written in its own documented shape; the same choices give
/// the same prices in each.
final class OneMerchantEveryWalletTests: XCTestCase {
    private func send(_ relay: WebRelay, _ json: String) async throws -> RelayReply {
        try JSONDecoder().decode(RelayReply.self, from: await relay.handle(json: Data(json.utf8)))
    }

    /// The shop's request, asking for the shipping address (the flow hands the merchant only the
    /// contact fields the request asks for, A6).
    private static let request: PaymentRequest = {
        var request = Shop.request
        request.requiredShippingContactFields = [.postalAddress]
        return request
    }()

    // spec W9: the same merchant instance serves four sessions, one a wallet, each to its end.
    func testOneMerchantAnswersAWholeSessionInEveryWallet() async throws {
        let merchant = ShopMerchant()
        let relay = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        for id in ["apple", "w3c", "google", "stripe"] {
            try relay.open(id, request: Self.request, merchant: .authorization(delegate: merchant))
        }

        // Apple Pay: a contact, the express method, then the payment.
        let appleContact = await relay.handle(try Page.contact("apple"))
        guard case .shippingContactSelection(let appleUpdate) = appleContact.completion else {
            return XCTFail("\(appleContact)")
        }
        XCTAssertEqual(appleUpdate.newShippingMethods?.map(\.identifier), ["standard", "express"])
        let appleMethod = await relay.handle(try Page.method("apple", "express"))
        guard case .shippingMethodSelection(let appleTotal) = appleMethod.completion else {
            return XCTFail("\(appleMethod)")
        }
        let applePaid = await relay.handle(try Page.authorize("apple"))
        guard case .payment(let appleResult) = applePaid.completion else { return XCTFail("\(applePaid)") }
        XCTAssertEqual(appleResult.status, 0)

        // The W3C Payment Request: the address, the express option, the response.
        let w3cAddress = await relay.handle(try Page.address("w3c"))
        guard case .updateWith(let w3cUpdate) = w3cAddress.completion else { return XCTFail("\(w3cAddress)") }
        XCTAssertEqual(w3cUpdate.shippingOptions?.map(\.id), ["standard", "express"])
        let w3cOption = await relay.handle(try Page.option("w3c", "express"))
        guard case .updateWith(let w3cTotal) = w3cOption.completion else { return XCTFail("\(w3cOption)") }
        let w3cPaid = await relay.handle(
            try PaymentResponseTests.response("w3c", requestId: "w3c-1", option: "express"))
        XCTAssertEqual(w3cPaid.completion, .paymentComplete(.success), "\(w3cPaid)")

        // Google Pay: INITIALIZE with the address and the express option, then the payment.
        let googleStart = await relay.handle(try GooglePage.initialize("google", option: "express"))
        guard case .googlePayPaymentDataChanged(let googleUpdate) = googleStart.completion else {
            return XCTFail("\(googleStart)")
        }
        XCTAssertEqual(
            googleUpdate.newShippingOptionParameters?.shippingOptions.map(\.id), ["standard", "express"])
        let googlePaid = await relay.handle(try GooglePage.authorized("google"))
        XCTAssertEqual(
            googlePaid.completion, .googlePayPaymentAuthorized(.init(transactionState: .success)), "\(googlePaid)")

        // Stripe's Express Checkout Element: click, the address, the express rate, confirm.
        let click = try await send(relay, ExpressCheckoutRelayTests.click("stripe"))
        XCTAssertEqual(click.completion?.method, "resolve", "\(click)")
        let stripeAddress = try await send(relay, ExpressCheckoutRelayTests.address("stripe"))
        guard case .expressCheckoutChangeResolve(let stripeUpdate, _) = stripeAddress.completion else {
            return XCTFail("\(stripeAddress)")
        }
        XCTAssertEqual(stripeUpdate.shippingRates?.map(\.id), ["standard", "express"])
        let stripeRate = try await send(relay, ExpressCheckoutRelayTests.rate("stripe", "express", amount: 1_500))
        let stripePaid = try await send(relay, ExpressCheckoutRelayTests.confirm("stripe", paymentMethod: "pm_1Ok"))
        XCTAssertEqual(stripePaid.completion, .expressCheckoutPaymentSucceeded, "\(stripePaid)")

        // The same choices, the same price, in each wallet's own form.
        XCTAssertEqual(appleTotal.newTotal.amount, "35.00")
        XCTAssertEqual(w3cTotal.total?.amount.value, "35.00")
        XCTAssertEqual(googleUpdate.newTransactionInfo?.totalPrice, "35.00")
        XCTAssertEqual(stripeRate.completion?.elementsAmount, 3_500)

        // Each session ended in success, and the one merchant was paid four times.
        for id in ["apple", "w3c", "google", "stripe"] {
            XCTAssertEqual(relay.session(id)?.outcome, "success", id)
        }
        XCTAssertEqual(merchant.payments.count, 4)
        XCTAssertEqual(
            merchant.payments.map { $0.shippingContact?.postalAddress?.city }, ["Austin", "Austin", "Austin", "Austin"])
    }
}
