import CheckoutCore
import CheckoutWeb
import Foundation
import XCTest

/// The Express Checkout Element's payloads and `resolve` arguments, read and written in Stripe's
/// documented shape (spec W1, W2, W9). Each fixture follows, field by field, the page named beside
/// it (docs.stripe.com/js/elements_object/express_checkout_element_*_event) and stripe-js's
/// published types (`types/stripe-js/elements/express-checkout.d.ts`).
final class ExpressCheckoutWireTests: XCTestCase {
    // Source: express_checkout_element_click_event (`expressPaymentType`).
    func testClickEventReadsThePaymentTypeAndKeepsAnUnknownOne() throws {
        let click = try assertWireRoundTrip(ExpressCheckoutClickEvent.self, #"{"expressPaymentType": "apple_pay"}"#)
        XCTAssertEqual(click.expressPaymentType, .applePay)
        let later = try decode(ExpressCheckoutClickEvent.self, #"{"expressPaymentType": "future_pay"}"#)
        XCTAssertEqual(later.expressPaymentType.rawValue, "future_pay")
    }

    // Source: express_checkout_element_shippingaddresschange_event (`name`, `address` with
    // `city`, `state`, `postal_code`, `country`).
    func testShippingAddressChangeIsARedactedContact() throws {
        let event = try assertWireRoundTrip(
            ExpressCheckoutShippingAddressChangeEvent.self,
            #"{"name": "Jenny Rosen", "address": {"city": "South San Francisco", "state": "CA", "postal_code": "94080", "country": "US"}}"#
        )
        let contact = try event.core()
        XCTAssertTrue(contact.isRedacted)
        XCTAssertEqual(contact.name, "Jenny Rosen")
        XCTAssertEqual(contact.postalAddress?.city, "South San Francisco")
        XCTAssertEqual(contact.postalAddress?.postalCode, "94080")
        XCTAssertEqual(contact.postalAddress?.country?.code, "US")
        XCTAssertNil(contact.postalAddress?.line1)
    }

    // Source: express_checkout_element_shippingratechange_event (`shippingRate` with `id`,
    // `amount`, `displayName`, `deliveryEstimate` {minimum, maximum} of {unit, value}).
    func testShippingRateWithARangeEstimateRoundTripsAndConvertsExactly() throws {
        let event = try assertWireRoundTrip(
            ExpressCheckoutShippingRateChangeEvent.self,
            #"{"shippingRate": {"id": "express", "amount": 1099, "displayName": "Express", "deliveryEstimate": {"minimum": {"unit": "business_day", "value": 1}, "maximum": {"unit": "business_day", "value": 3}}}}"#
        )
        let method = try event.shippingRate.core(currency: .usd)
        XCTAssertEqual(method.identifier, "express")
        XCTAssertEqual(method.amount, try Money("10.99", currency: .usd))
        XCTAssertEqual(method.detail, "1 business_day – 3 business_day")
        let text = try assertWireRoundTrip(
            ExpressCheckoutShippingRate.self,
            #"{"id": "std", "amount": 0, "displayName": "Free", "deliveryEstimate": "5 days"}"#)
        XCTAssertEqual(try text.core(currency: .usd).detail, "5 days")
    }

    // Source: express_checkout_element_confirm_event (`billingDetails` {name, email, phone,
    // address}, `shippingAddress` {name, address}, `shippingRate`, `expressPaymentType`).
    func testConfirmEventGivesBothContacts() throws {
        let event = try assertWireRoundTrip(
            ExpressCheckoutConfirmEvent.self,
            #"""
            {"expressPaymentType": "google_pay",
             "billingDetails": {"name": "Jenny Rosen", "email": "jenny@example.com", "phone": "+15555555555",
               "address": {"line1": "354 Oyster Point Blvd", "city": "South San Francisco", "state": "CA", "postal_code": "94080", "country": "US"}},
             "shippingAddress": {"name": "Jenny Rosen",
               "address": {"line1": "354 Oyster Point Blvd", "city": "South San Francisco", "state": "CA", "postal_code": "94080", "country": "US"}},
             "shippingRate": {"id": "express", "amount": 1099, "displayName": "Express"}}
            """#)
        let (billing, shipping) = try event.coreContacts()
        XCTAssertEqual(billing?.emailAddress, "jenny@example.com")
        XCTAssertEqual(shipping?.postalAddress?.line1, "354 Oyster Point Blvd")
        XCTAssertEqual(shipping?.emailAddress, "jenny@example.com", "the element collects email once, with billing")
        XCTAssertEqual(shipping?.isRedacted, false)
    }

    func testAnUnreadableMemberIsRefusedWithItsPath() throws {
        // Spec W2: a known member that cannot be read is refused, never read as empty.
        for (json, path) in [
            (#"{"shippingRate": {"id": "x", "amount": 10.5, "displayName": "X"}}"#, "shippingRate.amount"),
            (
                #"{"shippingRate": {"id": "x", "amount": 1, "displayName": "X", "deliveryEstimate": {"minimum": {"unit": "fortnight", "value": 1}}}}"#,
                "shippingRate.deliveryEstimate.minimum.unit"
            ),
            (
                #"{"shippingRate": {"id": "x", "amount": 1, "displayName": "X", "deliveryEstimate": {"soon": true}}}"#,
                "shippingRate.deliveryEstimate"
            ),
        ] {
            XCTAssertThrowsError(try decode(ExpressCheckoutShippingRateChangeEvent.self, json), json) { error in
                XCTAssertTrue(Self.path(of: error).hasPrefix(path), "\(Self.path(of: error)) for \(json): \(error)")
            }
        }
        XCTAssertThrowsError(
            try decode(
                ExpressCheckoutConfirmEvent.self, #"{"expressPaymentType": "link", "billingDetails": {"nom": "x"}}"#)
        ) { XCTAssertEqual(Self.path(of: $0), "billingDetails") }
        // Unknown keys beside known ones are tolerated (Stripe adds members).
        XCTAssertNoThrow(
            try decode(
                ExpressCheckoutClickEvent.self, #"{"expressPaymentType": "link", "elementType": "expressCheckout"}"#))
        // A country that is not ISO 3166-1 is refused naming it.
        let event = try decode(
            ExpressCheckoutShippingAddressChangeEvent.self, #"{"address": {"city": "X", "country": "ZZ"}}"#)
        XCTAssertThrowsError(try event.core()) { XCTAssertEqual(($0 as? CheckoutError)?.field, "address.country") }
    }

    // Amounts are integers in Stripe's smallest unit: JPY has none below the yen, KWD has three
    // digits (Stripe: ending in 0), ISK is sent with two though ISO gives it none (spec M).
    func testAmountsConvertExactlyInZeroAndThreeDecimalCurrencies() throws {
        let jpy = try CurrencyCode("JPY")
        let kwd = try CurrencyCode("KWD")
        XCTAssertEqual(
            try ExpressCheckoutLineItem(name: "Tea", amount: 500).core(currency: jpy).amount.amountString, "500")
        XCTAssertEqual(
            try ExpressCheckoutLineItem(SummaryItem(label: "Tea", amount: Money("500", currency: jpy))).amount, 500)
        XCTAssertEqual(
            try ExpressCheckoutLineItem(name: "Tea", amount: 1_250).core(currency: kwd).amount.amountString, "1.250")
        XCTAssertEqual(
            try ExpressCheckoutLineItem(SummaryItem(label: "Tea", amount: Money("1.250", currency: kwd))).amount, 1_250)
        XCTAssertThrowsError(
            try ExpressCheckoutLineItem(SummaryItem(label: "Tea", amount: Money("1.255", currency: kwd)))
        ) {
            XCTAssertEqual(($0 as? CheckoutError)?.field, "amount")
            XCTAssertEqual(($0 as? CheckoutError)?.value, "1.255")
        }
        let isk = try CurrencyCode("ISK")
        XCTAssertThrowsError(
            try ExpressCheckoutShippingRate(id: "a", amount: 150, displayName: "A").core(currency: isk)
        ) {
            XCTAssertEqual(($0 as? CheckoutError)?.field, "amount")
            XCTAssertEqual(($0 as? CheckoutError)?.value, "150")
        }
        // A discount line keeps its sign.
        XCTAssertEqual(
            try ExpressCheckoutLineItem(name: "Coupon", amount: -300).core(currency: .usd).amount.amountString, "-3.00")
        XCTAssertEqual(
            try ExpressCheckoutLineItem(SummaryItem(label: "Coupon", amount: Money("-3.00", currency: .usd))).amount,
            -300)
    }

    // Stripe's rules for `resolve`, applied before anything is sent (spec W4, W9).
    func testResolveRulesNameTheMember() throws {
        let rate = ExpressCheckoutShippingRate(id: "a", amount: 500, displayName: "A")
        func field(_ body: () throws -> Void) -> String? {
            do { try body() } catch { return (error as? CheckoutError)?.field }
            return nil
        }
        XCTAssertEqual(
            field { try ExpressCheckoutChangeResolveDetails(shippingRates: [rate, rate]).validate(amount: nil) },
            "shippingRates[1].id")
        XCTAssertEqual(
            field {
                try ExpressCheckoutChangeResolveDetails(
                    shippingRates: [ExpressCheckoutShippingRate(id: "b", amount: -1, displayName: "B")]
                ).validate(amount: nil)
            }, "shippingRates[0].amount")
        // Lines need not add up to the amount (Stripe's reference states no such rule): a shop
        // whose lines leave shipping out is answered as it is.
        XCTAssertNil(
            field {
                try ExpressCheckoutChangeResolveDetails(lineItems: [ExpressCheckoutLineItem(name: "Tea", amount: 2_000)]
                )
                .validate(amount: 2_500)
            })
        XCTAssertNil(
            field {
                try ExpressCheckoutChangeResolveDetails(
                    lineItems: [.init(name: "Tea", amount: 2_000), .init(name: "Shipping", amount: 500)]
                ).validate(amount: 2_500)
            })
        XCTAssertEqual(field { try ExpressCheckoutChangeResolveDetails().validate(amount: -1) }, "amount")
        XCTAssertEqual(
            field { try ExpressCheckoutClickResolveDetails(shippingAddressRequired: true).validate(amount: nil) },
            "shippingRates")
        XCTAssertEqual(
            field {
                try ExpressCheckoutClickResolveDetails(allowedShippingCountries: ["US", "XX"]).validate(amount: nil)
            }, "allowedShippingCountries[1]")
    }

    func testTheClickAnswerIsBuiltFromTheRequest() throws {
        let usd = { (text: String) in try Money(text, currency: .usd) }
        let request = PaymentRequest(
            merchantIdentifier: "merchant.com.example", countryCode: "US", currencyCode: "USD",
            supportedNetworks: [.visa], merchantCapabilities: .threeDSecure,
            requiredBillingContactFields: [.postalAddress],
            requiredShippingContactFields: [.postalAddress, .emailAddress],
            shippingMethods: [
                ShippingMethod(identifier: "standard", label: "Standard", detail: "5 days", amount: try usd("0.00")),
                ShippingMethod(identifier: "express", label: "Express", amount: try usd("5.00")),
            ],
            summaryItems: [
                SummaryItem(label: "Tea", amount: try usd("20.00")),
                SummaryItem(label: "Tea Shop", amount: try usd("20.00")),
            ])
        let details = try ExpressCheckoutClickResolveDetails(request)
        XCTAssertEqual(details.lineItems, [ExpressCheckoutLineItem(name: "Tea", amount: 2_000)])
        XCTAssertEqual(details.shippingRates?.map(\.id), ["standard", "express"])
        XCTAssertEqual(details.shippingRates?.first?.deliveryEstimate, .text("5 days"))
        XCTAssertEqual(details.emailRequired, true)
        XCTAssertEqual(details.phoneNumberRequired, false)
        XCTAssertEqual(details.shippingAddressRequired, true)
        XCTAssertEqual(details.billingAddressRequired, true)
        XCTAssertEqual(details.business, ExpressCheckoutBusiness(name: "Tea Shop"))
        XCTAssertEqual(try ExpressCheckoutAmount.elementsAmount(of: request.summaryItems), 2_000)
        XCTAssertNoThrow(try details.validate(amount: 2_000))
    }

    func testAChangeWithABlockingErrorIsRejectedAndOtherwiseResolved() throws {
        let usd = { (text: String) in try Money(text, currency: .usd) }
        let items = [
            SummaryItem(label: "Tea", amount: try usd("20.00")),
            SummaryItem(label: "Shipping", amount: try usd("5.00")),
            SummaryItem(label: "Tea Shop", amount: try usd("25.00")),
        ]
        XCTAssertEqual(
            try ExpressCheckoutChangeAnswer(
                ShippingContactUpdate(errors: [.shippingAddressUnserviceable("no")], summaryItems: items)), .reject)
        // Spec W3: an empty list of methods is "none available", a blocking error: reject.
        XCTAssertEqual(
            try ExpressCheckoutChangeAnswer(ShippingContactUpdate(summaryItems: items, shippingMethods: [])), .reject)
        let answer = try ExpressCheckoutChangeAnswer(
            ShippingContactUpdate(
                summaryItems: items,
                shippingMethods: [ShippingMethod(identifier: "express", label: "Express", amount: try usd("5.00"))]))
        guard case .resolve(let details, let amount) = answer else { return XCTFail("\(answer)") }
        XCTAssertEqual(amount, 2_500)
        XCTAssertEqual(details.lineItems?.map(\.amount), [2_000, 500])
        XCTAssertEqual(details.shippingRates?.map(\.amount), [500])
        XCTAssertNoThrow(try details.validate(amount: amount))
    }

    func testAFailedResultGivesStripesReason() {
        func reason(_ status: PaymentAuthorizationStatus, _ errors: [PaymentError]) -> ExpressCheckoutPaymentFailure {
            ExpressCheckoutPaymentFailure(PaymentAuthorizationResult(status: status, errors: errors))
        }
        XCTAssertEqual(reason(.failure, []), ExpressCheckoutPaymentFailure(reason: .fail))
        XCTAssertEqual(
            reason(.failure, [.shippingContactInvalid(.postalCode, "bad code")]),
            ExpressCheckoutPaymentFailure(reason: .invalidShippingAddress, message: "bad code"))
        XCTAssertEqual(reason(.invalidBillingPostalAddress, []).reason, .invalidBillingAddress)
        XCTAssertEqual(reason(.failure, [.shippingAddressUnserviceable("far")]).reason, .addressUnserviceable)
        let failure = try? assertWireRoundTrip(
            ExpressCheckoutPaymentFailure.self, #"{"reason": "invalid_payment_data", "message": "Card declined"}"#)
        XCTAssertEqual(failure?.reason, .invalidPaymentData)
    }

    private static func path(of error: any Error) -> String {
        let context: DecodingError.Context? =
            switch error as? DecodingError {
            case .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
                .dataCorrupted(let context):
                context
            default: nil
            }
        return context?.codingPath.map(\.stringValue).joined(separator: ".") ?? "\(error)"
    }
}
