import CheckoutCore
import Foundation
import XCTest

private let usAddress = Address(
    line1: "510 Townsend St",
    line2: "Floor 2",
    city: "San Francisco",
    state: "CA",
    postalCode: "94103",
    country: try! CountryCode("US")
)

private let jane = Contact(
    name: "Jane Appleseed",
    emailAddress: "jane@example.com",
    phoneNumber: "+1 415 555 0100",
    postalAddress: usAddress
)

private let express = ShippingMethod(
    identifier: "express",
    label: "Express",
    detail: "Arrives in 1-2 days",
    amount: money("15.00"),
    deliveryDateRange: try! DeliveryDateRange(
        start: CalendarDay("2026-12-22"), end: CalendarDay("2026-12-24"))
)

final class JSONRoundTripTests: XCTestCase {
    private func assertRoundTrip<T: Codable & Equatable>(
        _ value: T,
        json expected: String? = nil,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let (decoded, json) = try JSON.roundTrip(value)
        XCTAssertEqual(decoded, value, json, file: file, line: line)
        if let expected {
            XCTAssertEqual(json, expected, file: file, line: line)
        }
    }

    func testMoney() throws {
        // spec M: the W3C PaymentCurrencyAmount shape, the value a string.
        try assertRoundTrip(money("12.50"), json: #"{"currency":"USD","value":"12.50"}"#)
        try assertRoundTrip(money("500", "JPY"), json: #"{"currency":"JPY","value":"500"}"#)
        try assertRoundTrip(money("1.25", "KWD"), json: #"{"currency":"KWD","value":"1.250"}"#)
        try assertRoundTrip(money("-0.99"), json: #"{"currency":"USD","value":"-0.99"}"#)
        try assertRoundTrip(Money(minorUnits: .min, currency: .usd))
        // Decoding judges the string as Money's initializer does.
        let cases: [(json: String, money: Money)] = [
            (#"{"currency":"usd","value":"12.5"}"#, money("12.50")),
            (#"{"value":"500.0","currency":"JPY"}"#, money("500", "JPY")),
            (#"{"currency":"USD","value":"-0.00"}"#, Money.zero(.usd)),
        ]
        for (json, expected) in cases {
            XCTAssertEqual(try JSON.decode(Money.self, json), expected, json)
        }
    }

    func testCodes() throws {
        try assertRoundTrip(CurrencyCode.kwd, json: #""KWD""#)
        try assertRoundTrip(try CountryCode("gb"), json: #""GB""#)
        XCTAssertEqual(try JSON.decode(CurrencyCode.self, #""jpy""#), .jpy)
        XCTAssertEqual(try JSON.decode(CountryCode.self, #""us""#).code, "US")
        XCTAssertEqual(try JSON.decode(CurrencyCode.self, #""JPY""#).minorUnitDigits, 0)
    }

    func testAddressUsesStripesSnakeCaseKeys() throws {
        let json = try JSON.encode(usAddress)
        XCTAssertEqual(
            json,
            #"{"city":"San Francisco","country":"US","line1":"510 Townsend St","line2":"Floor 2","#
                + #""postal_code":"94103","state":"CA"}"#
        )
        XCTAssertFalse(json.contains("postalCode"))
        try assertRoundTrip(usAddress)
        try assertRoundTrip(Address(), json: "{}")
        try assertRoundTrip(
            Address(city: "Dubai", country: try CountryCode("AE")), json: #"{"city":"Dubai","country":"AE"}"#)
        let decoded = try JSON.decode(Address.self, #"{"postal_code":"SW1A 1AA","country":"gb"}"#)
        XCTAssertEqual(decoded.postalCode, "SW1A 1AA")
        XCTAssertEqual(decoded.country?.code, "GB")
    }

    func testContact() throws {
        try assertRoundTrip(jane)
        try assertRoundTrip(jane.redactedForShipping())
        try assertRoundTrip(Contact())
        let json = try JSON.encode(jane)
        for key in [
            #""name""#, #""email""#, #""phone""#, #""address""#, #""redacted":false"#, #""postal_code""#,
        ] {
            XCTAssertTrue(json.contains(key), "\(key) in \(json)")
        }
        XCTAssertTrue(try JSON.encode(jane.redactedForShipping()).contains(#""redacted":true"#))
        // Every key is optional; "redacted" defaults to false.
        XCTAssertEqual(try JSON.decode(Contact.self, "{}"), Contact())
        XCTAssertEqual(try JSON.decode(Contact.self, #"{"email":"a@b"}"#), Contact(emailAddress: "a@b"))
    }

    func testShippingMethodAndSummaryItem() throws {
        try assertRoundTrip(express)
        let json = try JSON.encode(express)
        XCTAssertTrue(json.contains(#""deliveryDateRange":{"end":"2026-12-24","start":"2026-12-22"}"#), json)
        XCTAssertTrue(json.contains(#""amount":{"currency":"USD","value":"15.00"}"#), json)
        try assertRoundTrip(ShippingMethod(identifier: "free", label: "Free", amount: Money.zero(.eur)))
        try assertRoundTrip(
            try DeliveryDateRange(start: CalendarDay("2026-01-01"), end: CalendarDay("2026-01-01")))

        try assertRoundTrip(
            SummaryItem(label: "Fare", amount: money("7.5"), type: .pending),
            json: #"{"amount":{"currency":"USD","value":"7.50"},"label":"Fare","type":"pending"}"#
        )
        let decoded = try JSON.decode(
            SummaryItem.self, #"{"label":"Total","amount":{"currency":"USD","value":"1"}}"#)
        XCTAssertEqual(decoded, SummaryItem(label: "Total", amount: money("1.00"), type: .final))
    }

    func testPaymentRequest() throws {
        var request = validRequest()
        request.shippingMethods.append(express)
        request.couponCode = "WELCOME"
        request.supportsCouponCode = true
        request.shippingType = .storePickup
        request.merchantCapabilities = [.threeDSecure, .emv, .debit]
        request.requiredShippingContactFields = [.postalAddress, .emailAddress, .name]
        try assertRoundTrip(request)
        let json = try JSON.encode(request)
        XCTAssertTrue(json.contains(#""merchantCapabilities":["threeDSecure","emv","debit"]"#), json)
        XCTAssertTrue(
            json.contains(#""requiredShippingContactFields":["name","emailAddress","postalAddress"]"#), json)
        XCTAssertTrue(json.contains(#""supportedNetworks":["visa","masterCard"]"#), json)
        XCTAssertTrue(json.contains(#""shippingType":"storePickup""#), json)
    }

    func testPaymentRequestDefaults() throws {
        let json = #"""
            {"merchantIdentifier": "merchant.com.example", "countryCode": "us", "currencyCode": "usd",
             "summaryItems": [{"label": "Example", "amount": {"currency": "USD", "value": "1.00"}}]}
            """#
        let request = try JSON.decode(PaymentRequest.self, json)
        // Absent networks and capabilities are the Swift initializer's defaults.
        XCTAssertEqual(request.supportedNetworks, [.visa, .masterCard, .amex])
        XCTAssertEqual(request.merchantCapabilities, .threeDSecure)
        XCTAssertEqual(request.requiredBillingContactFields, [])
        XCTAssertEqual(request.shippingType, .shipping)
        XCTAssertEqual(request.shippingMethods, [])
        XCTAssertNil(request.couponCode)
        XCTAssertFalse(request.supportsCouponCode)
        // Decoding keeps the codes as given; validation judges them.
        XCTAssertEqual(request.countryCode, "us")
        XCTAssertEqual(codesAndFields(request.problems), [])
    }

    func testEveryUpdate() throws {
        let items = validRequest().summaryItems
        let error = PaymentError.shippingContactInvalid(.postalCode, "We do not ship to this ZIP code")
        try assertRoundTrip(
            ShippingContactUpdate(errors: [error], summaryItems: items, shippingMethods: [express]))
        try assertRoundTrip(ShippingContactUpdate(summaryItems: items))
        try assertRoundTrip(ShippingMethodUpdate(summaryItems: items))
        try assertRoundTrip(
            PaymentMethodUpdate(errors: [.billingContactInvalid(.country, "no")], summaryItems: items))
        try assertRoundTrip(CouponCodeUpdate(errors: [.couponCodeExpired("expired")], summaryItems: items))
        try assertRoundTrip(CouponCodeUpdate(summaryItems: items, shippingMethods: []))
    }

    func testAbsentAndEmptyShippingMethodsStayDistinct() throws {
        // spec A2: an absent list leaves the methods unchanged, an empty one means none.
        let absent = try JSON.roundTrip(ShippingContactUpdate(summaryItems: validRequest().summaryItems))
        XCTAssertNil(absent.decoded.shippingMethods)
        let empty = try JSON.roundTrip(
            ShippingContactUpdate(summaryItems: validRequest().summaryItems, shippingMethods: []))
        XCTAssertEqual(empty.decoded.shippingMethods, [])
        XCTAssertNotEqual(absent.json, empty.json)
    }

    func testPaymentAndAuthorizationResult() throws {
        let token = PaymentToken(
            paymentMethod: PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit),
            transactionIdentifier: "txn_1",
            paymentData: "tok_visa"
        )
        try assertRoundTrip(
            Payment(
                token: token, billingContact: jane, shippingContact: jane.limited(to: [.postalAddress]),
                shippingMethod: express)
        )
        try assertRoundTrip(Payment(token: token))
        XCTAssertFalse(token.description.contains("tok_visa"), token.description)
        XCTAssertTrue(token.description.contains("Visa 4242"), token.description)

        try assertRoundTrip(PaymentAuthorizationResult.success, json: #"{"errors":[],"status":0}"#)
        try assertRoundTrip(
            PaymentAuthorizationResult(
                status: .failure, errors: [.billingContactInvalid(.postalCode, "Wrong ZIP")]),
            json:
                #"{"errors":[{"code":"billingContactInvalid","field":"postalCode","message":"Wrong ZIP"}],"status":1}"#
        )
        for status in PaymentAuthorizationStatus.allCases {
            try assertRoundTrip(PaymentAuthorizationResult(status: status))
        }
        XCTAssertEqual(PaymentAuthorizationStatus.pinLockout.rawValue, 7)
    }

    func testClientSecret() throws {
        let secret = try IntentClientSecret("pi_123_scoped_secret_abc")
        try assertRoundTrip(secret, json: #""pi_123_scoped_secret_abc""#)
    }

    func testCalendarDay() throws {
        for text in ["2024-02-29", "2000-02-29", "2026-12-31", "0001-01-01", "9999-12-31"] {
            try assertRoundTrip(try CalendarDay(text), json: "\"\(text)\"")
            XCTAssertEqual(try CalendarDay(text).description, text)
        }
        let invalid = [
            "2026-02-29", "1900-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00", "0000-01-01",
            "2026-1-01", "26-01-01", "20260101", "2026-01-01T00:00", "", "+026-01-01", "２０２６-01-01",
        ]
        for text in invalid {
            assertCheckoutError(try CalendarDay(text), code: .invalidField, text)
        }
        XCTAssertEqual(try CalendarDay(year: 5, month: 1, day: 2).description, "0005-01-02")
        XCTAssertLessThan(try CalendarDay("2026-01-31"), try CalendarDay("2026-02-01"))
        assertCheckoutError(
            try DeliveryDateRange(start: CalendarDay("2026-12-24"), end: CalendarDay("2026-12-22")),
            code: .invalidField,
            field: "end"
        )
    }

    func testMerchantCapabilitiesNames() throws {
        try assertRoundTrip(
            MerchantCapabilities([.credit, .threeDSecure]), json: #"["threeDSecure","credit"]"#)
        try assertRoundTrip(MerchantCapabilities(), json: "[]")
        XCTAssertEqual(try JSON.decode(MerchantCapabilities.self, #"["emv","emv"]"#), .emv)
        assertDecodingError(try JSON.decode(MerchantCapabilities.self, #"["3ds"]"#))
    }
}

final class JSONErrorTests: XCTestCase {
    /// A request whose second summary item carries `amount`.
    private func requestJSON(secondAmount amount: String, methods: String = "[]") -> String {
        """
        {"merchantIdentifier": "merchant.com.example", "countryCode": "US", "currencyCode": "USD",
         "supportedNetworks": ["visa"], "merchantCapabilities": ["threeDSecure"],
         "shippingMethods": \(methods),
         "summaryItems": [
           {"label": "Widget", "amount": {"currency": "USD", "value": "1.00"}},
           {"label": "Total", "amount": \(amount)}]}
        """
    }

    func testTheTemplateIsValid() throws {
        let request = try JSON.decode(
            PaymentRequest.self, requestJSON(secondAmount: #"{"currency": "USD", "value": "2"}"#))
        XCTAssertEqual(request.problems, [])
        XCTAssertEqual(request.grandTotal, money("2.00"))
    }

    func testBadAmountsNameTheirPath() throws {
        // spec A1 and M: a bad amount in JSON is refused at its path, with the reason.
        let cases: [(amount: String, path: [String], code: CheckoutError.Code)] = [
            (
                #"{"currency": "USD", "value": "0.001"}"#, ["summaryItems", "[1]", "amount", "value"],
                .amountTooPrecise
            ),
            (
                #"{"currency": "USD", "value": "1e3"}"#, ["summaryItems", "[1]", "amount", "value"],
                .malformedAmount
            ),
            (
                #"{"currency": "USD", "value": ""}"#, ["summaryItems", "[1]", "amount", "value"],
                .malformedAmount
            ),
            (
                #"{"currency": "JPY", "value": "9223372036854775808"}"#,
                ["summaryItems", "[1]", "amount", "value"],
                .amountOutOfRange
            ),
            (
                #"{"currency": "XAU", "value": "1.00"}"#, ["summaryItems", "[1]", "amount", "currency"],
                .unknownCurrency
            ),
            (
                #"{"currency": "HRK", "value": "1.00"}"#, ["summaryItems", "[1]", "amount", "currency"],
                .unknownCurrency
            ),
        ]
        for (amount, path, code) in cases {
            let error = try XCTUnwrap(
                assertDecodingError(try JSON.decode(PaymentRequest.self, requestJSON(secondAmount: amount))))
            XCTAssertEqual(pathDescription(error.codingPath), path, amount)
            XCTAssertEqual(error.underlyingCheckoutError?.code, code, amount)
        }
    }

    func testNumericAmountIsRefused() throws {
        // spec M: amounts never pass through binary floating point.
        for amount in [#"{"currency": "USD", "value": 12.5}"#, #"{"currency": "USD", "value": 12}"#] {
            let error = try XCTUnwrap(
                assertDecodingError(try JSON.decode(PaymentRequest.self, requestJSON(secondAmount: amount))))
            XCTAssertTrue(error.isTypeMismatch, "\(error)")
            XCTAssertEqual(pathDescription(error.codingPath), ["summaryItems", "[1]", "amount", "value"])
        }
        assertDecodingError(try JSON.decode(Money.self, #"{"currency": "USD", "value": 0.1}"#))
        assertDecodingError(try JSON.decode(Money.self, #"{"currency": "USD"}"#))
        assertDecodingError(try JSON.decode(Money.self, #""12.50 USD""#))
    }

    func testBadShippingMethodNamesItsPath() throws {
        let cases: [(method: String, path: [String])] = [
            (
                #"{"identifier": "a", "label": "A", "amount": {"currency": "USD", "value": "1.001"}}"#,
                ["shippingMethods", "[0]", "amount", "value"]
            ),
            (
                #"{"identifier": "a", "label": "A", "amount": {"currency": "USD", "value": "1"}, "#
                    + #""deliveryDateRange": {"start": "2026-02-30", "end": "2026-03-02"}}"#,
                ["shippingMethods", "[0]", "deliveryDateRange", "start"]
            ),
            (
                #"{"identifier": "a", "label": "A", "amount": {"currency": "USD", "value": "1"}, "#
                    + #""deliveryDateRange": {"start": "2026-03-02", "end": "2026-03-01"}}"#,
                ["shippingMethods", "[0]", "deliveryDateRange", "end"]
            ),
        ]
        for (method, path) in cases {
            let json = requestJSON(
                secondAmount: #"{"currency": "USD", "value": "2"}"#, methods: "[\(method)]")
            let error = try XCTUnwrap(assertDecodingError(try JSON.decode(PaymentRequest.self, json)))
            XCTAssertEqual(pathDescription(error.codingPath), path, method)
            XCTAssertNotNil(error.underlyingCheckoutError, method)
        }
    }

    func testBadCountryInAnAddressNamesItsPath() throws {
        let json = #"{"name": "Jane", "address": {"city": "London", "country": "UK"}}"#
        let error = try XCTUnwrap(assertDecodingError(try JSON.decode(Contact.self, json)))
        XCTAssertEqual(pathDescription(error.codingPath), ["address", "country"])
        XCTAssertEqual(error.underlyingCheckoutError?.code, .unknownCountry)
    }

    func testMissingRequiredKeys() {
        assertDecodingError(
            try JSON.decode(PaymentRequest.self, #"{"countryCode": "US", "currencyCode": "USD"}"#))
        assertDecodingError(try JSON.decode(SummaryItem.self, #"{"label": "x"}"#))
        assertDecodingError(try JSON.decode(ShippingMethod.self, #"{"identifier": "x", "label": "x"}"#))
        assertDecodingError(try JSON.decode(PaymentAuthorizationResult.self, #"{"status": 8, "errors": []}"#))
    }
}
