import CheckoutCore
import CheckoutFlows
import CheckoutTestSupport
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// Today's Apple Pay members through the relay (issue 33 item 4; spec W1, W2, W8): each goes from
/// the server's request to the page and back in the page's echo, and from a merchant's update to
/// the argument of the page's `complete…` call, losing nothing.
final class TodaysApplePayRelayTests: XCTestCase {
    private static let request: PaymentRequest = {
        var request = Shop.request
        request.summaryItems = Shop.items(2_500)
        request.shippingContactEditingMode = .storePickup
        request.applePayLaterAvailability = .unavailableRecurringTransaction
        request.merchantCategoryCode = MerchantCategoryCode(rawValue: "5499")
        return request
    }()

    /// One request a term: the three exclude each other, and contexts exclude them all.
    private static let variants: [(String, @Sendable (inout PaymentRequest) -> Void)] = [
        ("recurringPaymentRequest", { $0.recurringPaymentRequest = TodaysApplePay.recurring }),
        ("deferredPaymentRequest", { $0.deferredPaymentRequest = TodaysApplePay.deferred }),
        ("automaticReloadPaymentRequest", { $0.automaticReloadPaymentRequest = TodaysApplePay.automaticReload }),
        ("multiTokenContexts", { $0.multiTokenContexts = TodaysApplePay.contexts }),
    ]

    private func json(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(value)
    }

    // The page's side: the server builds the request, hands the page its wire form, the page
    // echoes it back, and it reads as the same request; the relay opens a session on it.
    func testEachMemberGoesToThePageAndComesBackInItsEcho() async throws {
        for (member, set) in Self.variants {
            var request = Self.request
            set(&request)
            XCTAssertEqual(request.problems, [], member)
            let wire = try ApplePayPaymentRequest(request, version: 14)
            let sent = try json(wire)
            let text = String(decoding: sent, as: UTF8.self)
            XCTAssertTrue(text.contains("\"\(member)\""), "\(member) is sent: \(text)")
            XCTAssertTrue(text.contains(#""merchantCategoryCode":"5499""#), text)
            let echo = try JSONDecoder().decode(ApplePayPaymentRequest.self, from: sent)
            XCTAssertNoThrow(try echo.validate(), member)
            XCTAssertEqual(echo.membersWithoutCoreCounterpart, [], member)
            XCTAssertEqual(try echo.core(merchantIdentifier: request.merchantIdentifier), request, member)

            let relay = WebRelay(options: RelayOptions(clock: ManualClock()))
            let session = try relay.open(
                "t-\(member)", request: request, merchant: .authorization(delegate: ShopMerchant()))
            XCTAssertEqual(session.request, request, member)
            XCTAssertEqual(session.authorizationFlow.sheet?.recurringPaymentRequest, request.recurringPaymentRequest)
            XCTAssertEqual(session.authorizationFlow.sheet?.multiTokenContexts, request.multiTokenContexts)
        }
    }

    // A page's echo that cannot be carried is refused with its path, not dropped (W2).
    func testAnEchoThatCannotBeCarriedIsRefusedWithItsPath() throws {
        var request = Self.request
        request.recurringPaymentRequest = TodaysApplePay.recurring
        var wire = try ApplePayPaymentRequest(request, version: 14)
        wire.recurringPaymentRequest?.regularBilling.paymentTiming = .deferred
        assertRefused(
            try wire.core(merchantIdentifier: "m"), field: "recurringPaymentRequest.regularBilling.paymentTiming")
        wire = try ApplePayPaymentRequest(request, version: 14)
        wire.recurringPaymentRequest?.regularBilling.deferredPaymentDate = "2025-01-08T00:00:00Z"
        assertRefused(
            try wire.core(merchantIdentifier: "m"), field: "recurringPaymentRequest.regularBilling.deferredPaymentDate")
        wire = try ApplePayPaymentRequest(request, version: 14)
        wire.recurringPaymentRequest?.regularBilling.recurringPaymentEndDate = "next year"
        assertRefused(
            try wire.core(merchantIdentifier: "m"),
            field: "recurringPaymentRequest.regularBilling.recurringPaymentEndDate")
        wire = try ApplePayPaymentRequest(request, version: 14)
        wire.recurringPaymentRequest?.managementURL = "manage"
        assertRefused(try wire.core(merchantIdentifier: "m"), field: "recurringPaymentRequest.managementURL")
    }

    private func assertRefused<T>(
        _ expression: @autoclosure () throws -> T, field: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            XCTAssertEqual((error as? CheckoutError)?.field, field, "\(error)", file: file, line: line)
        }
    }

    /// A merchant whose every update sets new terms.
    final class TermsMerchant: PaymentAuthorizationDelegate {
        static var yearly: RecurringPaymentRequest {
            var yearly = TodaysApplePay.recurring
            yearly.regularBilling.intervalUnit = .year
            yearly.regularBilling.amount = Money(99, .usd)
            return yearly
        }

        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) { handler(PaymentAuthorizationResult(status: .success)) }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact,
            handler: @escaping @Sendable (ShippingContactUpdate) -> Void
        ) {
            handler(
                TodaysApplePay.with(ShippingContactUpdate(summaryItems: Shop.items(2_500))) {
                    $0.recurringPaymentRequest = Self.yearly
                })
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod,
            handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
        ) {
            // The recurring request makes way for a deferred one.
            var update = ShippingMethodUpdate(summaryItems: Shop.items(2_500))
            update.deferredPaymentRequest = TodaysApplePay.deferred
            update.recurringPaymentRequest = nil
            handler(update)
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didSelectPaymentMethod method: PaymentMethod,
            handler: @escaping @Sendable (PaymentMethodUpdate) -> Void
        ) {
            handler(
                TodaysApplePay.with(PaymentMethodUpdate(summaryItems: Shop.items(2_500))) {
                    $0.automaticReloadPaymentRequest = TodaysApplePay.automaticReload
                })
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didChangeCouponCode code: String,
            handler: @escaping @Sendable (CouponCodeUpdate) -> Void
        ) {
            handler(
                TodaysApplePay.with(CouponCodeUpdate(summaryItems: Shop.items(2_500))) {
                    $0.multiTokenContexts = TodaysApplePay.contexts
                })
        }
    }

    /// The reply as the page receives it: encoded, then decoded.
    private func received(_ reply: RelayReply) throws -> RelayCompletion? {
        try JSONDecoder().decode(RelayReply.self, from: try json(reply)).completion
    }

    // The merchant's side: each update's new terms reach the page's `complete…` argument as
    // `new…` members, and read back as the merchant's terms.
    func testEachUpdatesNewTermsReachThePagesCompletionArgument() async throws {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock()))
        // A request without terms: each answer below stands alone (W8's exclusions hold on the
        // terms in force, so each update first leaves none but its own).
        try relay.open("terms", request: Self.request, merchant: .authorization(delegate: TermsMerchant()))

        let contact = await relay.handle(try Page.contact("terms"))
        guard case .shippingContactSelection(let contactUpdate) = try received(contact) else {
            return XCTFail("\(contact)")
        }
        XCTAssertEqual(try contactUpdate.newRecurringPaymentRequest?.core(currency: .usd), TermsMerchant.yearly)
        XCTAssertEqual(contactUpdate.newRecurringPaymentRequest?.regularBilling.recurringPaymentIntervalUnit, .year)
        XCTAssertEqual(try contactUpdate.core(currency: .usd).recurringPaymentRequest, TermsMerchant.yearly)

        // A deferred request while the recurring one is in force conflicts (W8): the browser
        // would refuse it, so the page gets the flow's end instead (W4).
        let method = await relay.handle(try Page.method("terms", "express"))
        XCTAssertNil(method.completion, "\(method)")
        XCTAssertEqual(method.end?.reason, "invalidUpdate", "\(method)")
        let text = try XCTUnwrap(relay.session("terms")).transcript.text()
        XCTAssertTrue(text.contains("deferredPaymentRequest"), text)
    }

    func testEveryUpdateTypeCarriesItsTermsToThePage() async throws {
        // One session an update type, each starting from a request without terms.
        let relay = WebRelay(options: RelayOptions(clock: ManualClock()))
        try relay.open("card", request: Self.request, merchant: .authorization(delegate: TermsMerchant()))
        let card = await relay.handle(try Page.card("card"))
        guard case .paymentMethodSelection(let cardUpdate) = try received(card) else { return XCTFail("\(card)") }
        XCTAssertEqual(
            try cardUpdate.newAutomaticReloadPaymentRequest?.core(currency: .usd), TodaysApplePay.automaticReload)
        XCTAssertEqual(
            cardUpdate.newAutomaticReloadPaymentRequest?.automaticReloadBilling.automaticReloadPaymentThresholdAmount,
            "5.00")

        try relay.open("coupon", request: Self.request, merchant: .authorization(delegate: TermsMerchant()))
        let coupon = await relay.handle(try Page.coupon("coupon", "TEN"))
        guard case .couponCodeChange(let couponUpdate) = try received(coupon) else { return XCTFail("\(coupon)") }
        XCTAssertEqual(try couponUpdate.core(currency: .usd).multiTokenContexts, TodaysApplePay.contexts)
        XCTAssertEqual(couponUpdate.newMultiTokenContexts?.map(\.amount), ["15.00", "10.00"])

        try relay.open("method", request: Self.request, merchant: .authorization(delegate: TermsMerchant()))
        let method = await relay.handle(try Page.method("method", "express"))
        guard case .shippingMethodSelection(let methodUpdate) = try received(method) else {
            return XCTFail("\(method)")
        }
        XCTAssertEqual(try methodUpdate.newDeferredPaymentRequest?.core(currency: .usd), TodaysApplePay.deferred)
        XCTAssertEqual(methodUpdate.newDeferredPaymentRequest?.freeCancellationDateTimeZone, "Europe/Paris")
        XCTAssertEqual(
            try XCTUnwrap(relay.session("method")).authorizationFlow.sheet?.deferredPaymentRequest,
            TodaysApplePay.deferred)
    }
}
