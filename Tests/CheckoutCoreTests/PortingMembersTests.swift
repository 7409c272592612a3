import CheckoutCore
import Foundation
import XCTest

/// Issue 34's members and conveniences, used as PassKit code uses their counterparts.
final class PortingMembersTests: XCTestCase {
    // MARK: Money from literals

    func testMoneyLiteralsBuildWithoutTryAndExactly() throws {
        XCTAssertEqual(Money(19.99, .usd), try Money("19.99", currency: .usd))
        XCTAssertEqual(Money(12.50, .usd).minorUnits, 1_250)
        XCTAssertEqual(Money(5, .usd).minorUnits, 500, "an integer literal is major units")
        XCTAssertEqual(Money(0.1, .usd).minorUnits, 10, "0.1 is not a binary fraction here")
        XCTAssertEqual(Money(-2.5, .eur).minorUnits, -250)
        XCTAssertEqual(Money(500, .jpy).minorUnits, 500)
        XCTAssertEqual(Money("1.250", .kwd).minorUnits, 1_250)
        XCTAssertEqual(Money(1234567890123.45, .usd).amountString, "1234567890123.45", "15 significant digits")
    }

    func testSumsWithLiteralsNeedNoTryAndKeepTheCurrency() {
        let subtotal = Money(19.99, .usd)
        XCTAssertEqual((subtotal + 4.99).amountString, "24.98")
        XCTAssertEqual((subtotal - 5).amountString, "14.99")
        XCTAssertEqual((Money(1000, .jpy) + 250).description, "1250 JPY")
        XCTAssertEqual(Money.total(9.99, 4.99, 0.02, in: .usd).amountString, "15.00")
        XCTAssertEqual(Money.total(in: .usd), .zero(.usd))
    }

    func testInputKeepsTheThrowingForms() {
        XCTAssertThrowsError(try Money("19.999", currency: .usd)) { error in
            XCTAssertEqual((error as? CheckoutError)?.code, .amountTooPrecise)
        }
        XCTAssertThrowsError(try Money(19.99, .usd) + Money(1, .eur)) { error in
            XCTAssertEqual((error as? CheckoutError)?.code, .currencyMismatch)
        }
    }

    // MARK: Errors from any Error

    func testPassKitErrorsMapByDomainCodeAndUserInfo() {
        let postal = NSError(
            domain: "PKPaymentErrorDomain", code: 1,
            userInfo: [
                NSLocalizedDescriptionKey: "We cannot deliver to this ZIP code",
                "PKPaymentErrorContactField": "post", "PKPaymentErrorPostalAddress": "postalCode",
            ])
        XCTAssertEqual(PaymentError(postal), .shippingContactInvalid(.postalCode, "We cannot deliver to this ZIP code"))
        // `CNPostalAddressSubLocalityKey` and `CNPostalAddressSubAdministrativeAreaKey` name fields of
        // their own.
        for (key, field) in [
            ("subLocality", PaymentErrorField.subLocality), ("subAdministrativeArea", .subAdministrativeArea),
        ] {
            let error = NSError(
                domain: "PKPaymentErrorDomain", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "m", "PKPaymentErrorPostalAddress": key])
            XCTAssertEqual(PaymentError(error), .shippingContactInvalid(field, "m"))
        }
        let email = NSError(
            domain: "PKPaymentErrorDomain", code: 2,
            userInfo: [NSLocalizedDescriptionKey: "Check the email", "PKPaymentErrorContactField": "email"])
        XCTAssertEqual(PaymentError(email), .billingContactInvalid(.emailAddress, "Check the email"))
        let unserviceable = NSError(
            domain: "PKPaymentErrorDomain", code: 3, userInfo: [NSLocalizedDescriptionKey: "Not to Alaska"])
        XCTAssertEqual(PaymentError(unserviceable), .shippingAddressUnserviceable("Not to Alaska"))
        let coupon = NSError(domain: "PKPaymentErrorDomain", code: 5, userInfo: [NSLocalizedDescriptionKey: "Expired"])
        XCTAssertEqual(PaymentError(coupon), .couponCodeExpired("Expired"))
    }

    struct Declined: LocalizedError {
        var errorDescription: String? { "Your card was declined." }
    }

    struct Opaque: Error, CustomStringConvertible {
        var description: String { "opaque failure 7" }
    }

    func testOtherErrorsAreUnknownWithTheirMessage() throws {
        XCTAssertEqual(PaymentError(Declined()), .unknown("Your card was declined."))
        XCTAssertEqual(PaymentError(Opaque()), .unknown("opaque failure 7"))
        let own = PaymentError.couponCodeInvalid("No such code")
        XCTAssertEqual(PaymentError(own as any Error), own, "a PaymentError is itself")
        let errors: [any Error] = [Declined(), own]
        XCTAssertEqual(
            PaymentAuthorizationResult(status: .failure, errors: errors).errors,
            [.unknown("Your card was declined."), own])
        let update = ShippingContactUpdate(
            errors: [Opaque()], paymentSummaryItems: [SummaryItem(label: "Tea", amount: Money(3, .usd))],
            shippingMethods: [])
        XCTAssertEqual(update.errors, [.unknown("opaque failure 7")])
        XCTAssertEqual(update.shippingMethods, [])
    }

    // MARK: Shipping methods and dates as PassKit takes them

    func testShippingMethodWithoutIdentifierUsesItsLabel() {
        let method = ShippingMethod(label: "Ground", amount: Money(4.99, .usd))
        XCTAssertEqual(method.identifier, "Ground")
        var request = PaymentRequest()
        request.merchantIdentifier = "merchant.com.example"
        request.countryCode = "US"
        request.currencyCode = "USD"
        request.paymentSummaryItems = [SummaryItem(label: "Tea Shop", amount: Money(12.50, .usd))]
        request.shippingMethods = [method, ShippingMethod(label: "Ground", amount: Money(6, .usd))]
        XCTAssertEqual(
            request.problems.map(\.code), [.duplicateIdentifier], "two methods with one label are told apart by nothing"
        )
    }

    func testDeliveryDatesFromDateComponentsAndDates() throws {
        let range = try DeliveryDateRange(
            start: DateComponents(year: 2026, month: 12, day: 22), end: DateComponents(year: 2026, month: 12, day: 24))
        XCTAssertEqual(range.start, try CalendarDay("2026-12-22"))
        XCTAssertEqual(range.end.dateComponents.day, 24)
        // 2026-12-24T23:30:00Z is already the 25th in Tokyo.
        let instant = Date(timeIntervalSince1970: 1_798_155_000)
        XCTAssertEqual(try CalendarDay(instant, in: TimeZone(identifier: "UTC")!).description, "2026-12-24")
        XCTAssertEqual(try CalendarDay(instant, in: TimeZone(identifier: "Asia/Tokyo")!).description, "2026-12-25")
        XCTAssertThrowsError(
            try DeliveryDateRange(
                start: DateComponents(year: 2026, month: 12), end: DateComponents(year: 2026, month: 12, day: 1))
        ) { error in
            XCTAssertEqual((error as? CheckoutError)?.code, .missingField)
            XCTAssertEqual((error as? CheckoutError)?.field, "start.day")
        }
        XCTAssertThrowsError(
            try DeliveryDateRange(
                start: DateComponents(year: 2026, month: 12, day: 24),
                end: DateComponents(year: 2026, month: 12, day: 22)))
    }

    // MARK: A request step by step

    func testRequestBuiltStepByStepIsValidatedWhole() throws {
        var request = PaymentRequest()
        XCTAssertEqual(
            Set(request.problems.compactMap(\.field)),
            ["merchantIdentifier", "countryCode", "currencyCode", "summaryItems"])
        request.merchantIdentifier = "merchant.com.example"
        request.countryCode = "US"
        request.currencyCode = "USD"
        request.requiredShippingContactFields = [.postalAddress]
        request.paymentSummaryItems = [
            SummaryItem(label: "Tea", amount: Money(9.99, .usd)),
            SummaryItem(label: "Tea Shop", amount: Money.total(9.99, 0, in: .usd)),
        ]
        XCTAssertEqual(request.problems, [])
        XCTAssertEqual(request.summaryItems.last?.amount.amountString, "9.99")
    }

    // MARK: Order details

    func testOrderDetailsRoundTripAndMaskTheirTokenForTranscripts() throws {
        let order = PaymentOrderDetails(
            orderTypeIdentifier: "order.com.example.tea", orderIdentifier: "ORDER-42",
            webServiceURL: URL(string: "https://orders.example.com/v1")!, authenticationToken: "tok-31337")
        var result = PaymentAuthorizationResult.success
        result.orderDetails = order
        let json = try JSONEncoder().encode(result)
        XCTAssertEqual(try JSONDecoder().decode(PaymentAuthorizationResult.self, from: json), result)
        XCTAssertTrue(String(decoding: json, as: UTF8.self).contains("tok-31337"), "model JSON carries it whole")
        XCTAssertFalse(order.description.contains("tok-31337"))
        let masking = JSONEncoder()
        masking.userInfo = [.checkoutMasksSecrets: true]
        XCTAssertFalse(String(decoding: try masking.encode(result), as: UTF8.self).contains("tok-31337"))
        XCTAssertThrowsError(
            try JSONDecoder().decode(
                PaymentOrderDetails.self,
                from: Data(
                    #"{"orderTypeIdentifier":"a","orderIdentifier":"b","webServiceURL":"not a url","authenticationToken":"t"}"#
                        .utf8)))
    }
}
