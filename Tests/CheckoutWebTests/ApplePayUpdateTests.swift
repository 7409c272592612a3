import CheckoutCore
import CheckoutWeb
import XCTest

final class ApplePayUpdateTests: XCTestCase {
    private let usd = CurrencyCode.usd
    private func money(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .usd) }
    private var items: [SummaryItem] {
        [SummaryItem(label: "Subtotal", amount: money(1000)), SummaryItem(label: "Shop", amount: money(1099))]
    }
    private var standard: ShippingMethod {
        ShippingMethod(identifier: "standard", label: "Standard", detail: "3-5 days", amount: money(99))
    }

    func testErrorRoundTripsAndMapsEveryCode() throws {
        let error = try assertWireRoundTrip(ApplePayError.self, Payloads.applePayError)
        XCTAssertEqual(error.core(), .shippingContactInvalid(.postalCode, "ZIP Code is invalid"))
        let codes: [(ApplePayErrorCode, PaymentError.Code)] = [
            (.unknown, .unknown), (.shippingContactInvalid, .shippingContactInvalid),
            (.billingContactInvalid, .billingContactInvalid), (.addressUnserviceable, .shippingAddressUnserviceable),
            (.couponCodeInvalid, .couponCodeInvalid), (.couponCodeExpired, .couponCodeExpired),
        ]
        XCTAssertEqual(Set(codes.map(\.0)), Set(ApplePayErrorCode.allCases))
        for (apple, core) in codes {
            XCTAssertEqual(ApplePayError(code: apple).core().code, core)
            XCTAssertEqual(try ApplePayError(PaymentError(code: core, message: "m")).code, apple)
        }
        XCTAssertEqual(ApplePayErrorCode.addressUnserviceable.rawValue, "addressUnserviceable")
        assertCheckoutError(
            try ApplePayError(PaymentError(code: .init(rawValue: "somethingElse"), message: "m")), code: .invalidField,
            field: "code")
        // The message may be absent (the constructor's default is ""), the code may not.
        XCTAssertEqual(try decode(ApplePayError.self, #"{"code": "unknown"}"#), ApplePayError(code: .unknown))
        assertDecodingFails(try decode(ApplePayError.self, #"{"message": "m"}"#), path: "code")
        assertDecodingFails(try decode(ApplePayError.self, #"{"code": "addressUnservicable"}"#), path: "code")
    }

    func testErrorContactFieldsMapBothWays() throws {
        let twoWay: [(ApplePayErrorContactField, PaymentErrorField)] = [
            (.phoneNumber, .phoneNumber), (.emailAddress, .emailAddress), (.name, .name),
            (.postalAddress, .postalAddress), (.addressLines, .street), (.locality, .city), (.postalCode, .postalCode),
            (.administrativeArea, .state), (.countryCode, .country), (.subLocality, .subLocality),
            (.subAdministrativeArea, .subAdministrativeArea),
        ]
        // Apple Pay has no field for these two: the sheet shows them on the address as a whole.
        let coreOnly: [PaymentErrorField] = [.sortingCode, .organizationName]
        XCTAssertEqual(Set(twoWay.map(\.1) + coreOnly), Set(PaymentErrorField.allCases))
        for core in coreOnly {
            XCTAssertEqual(try ApplePayError(.shippingContactInvalid(core, "m")).contactField, .postalAddress)
        }
        for (apple, core) in twoWay {
            XCTAssertEqual(ApplePayError(code: .shippingContactInvalid, contactField: apple).core().field, core)
            XCTAssertEqual(try ApplePayError(.shippingContactInvalid(core, "m")).contactField, apple)
        }
        let oneWay: [(ApplePayErrorContactField, PaymentErrorField)] = [
            (.phoneticName, .name), (.country, .country),
        ]
        XCTAssertEqual(Set(twoWay.map(\.0) + oneWay.map(\.0)), Set(ApplePayErrorContactField.allCases))
        for (apple, core) in oneWay {
            XCTAssertEqual(ApplePayError(code: .billingContactInvalid, contactField: apple).core().field, core)
        }
    }

    func testShippingContactUpdateRoundTripsAndConverts() throws {
        let update = try assertWireRoundTrip(ApplePayShippingContactUpdate.self, Payloads.applePayShippingContactUpdate)
        let core = try update.core(currency: usd)
        XCTAssertEqual(core.summaryItems.map(\.amount), [money(199), money(99), money(298)])
        XCTAssertEqual(core.errors, [.shippingContactInvalid(.postalCode, "ZIP Code is invalid")])
        XCTAssertEqual(core.shippingMethods?.map(\.identifier), ["standard"])
        // Today's Apple Pay terms are carried; the disbursement request alone has no counterpart.
        XCTAssertEqual(update.membersWithoutCoreCounterpart, ["newDisbursementRequest"])
        XCTAssertEqual(core.recurringPaymentRequest?.regularBilling.amount, money(299))
        XCTAssertEqual(core.automaticReloadPaymentRequest?.automaticReloadBilling.amount, money(2_000))
        XCTAssertEqual(core.deferredPaymentRequest?.deferredBilling.amount, money(12_000))
        XCTAssertEqual(core.multiTokenContexts?.map(\.merchantName), ["Partner"])
        XCTAssertEqual(try ApplePayShippingContactUpdate(core).core(currency: usd), core)
    }

    func testEmptyShippingMethodsBecomeABlockingErrorNeverAnEmptyList() throws {
        // W3: the flow's "none available" cannot be shown by Apple Pay.
        let none = ShippingContactUpdate(summaryItems: items, shippingMethods: [])
        let wire = try ApplePayShippingContactUpdate(none)
        XCTAssertNil(wire.newShippingMethods)
        XCTAssertEqual(wire.errors?.map(\.code), [.addressUnserviceable])
        let json = try JSONDecoder().decode(JSONValue.self, from: encode(wire))
        guard case .object(let members) = json else { return XCTFail("\(json)") }
        XCTAssertNil(members["newShippingMethods"], "no empty list is sent: \(json)")

        // The merchant's own blocking error stands; no second one is added.
        let own = ShippingContactUpdate(
            errors: [.shippingContactInvalid(.postalCode, "We do not ship to this ZIP code")], summaryItems: items,
            shippingMethods: [])
        XCTAssertEqual(
            try ApplePayShippingContactUpdate(own).errors,
            [
                ApplePayError(
                    code: .shippingContactInvalid, contactField: .postalCode, message: "We do not ship to this ZIP code"
                )
            ])
        // A non-blocking error does not count as the merchant's blocking one.
        let coupon = CouponCodeUpdate(
            errors: [.couponCodeInvalid("No such code")], summaryItems: items, shippingMethods: [])
        XCTAssertEqual(
            try ApplePayCouponCodeUpdate(coupon).errors?.map(\.code), [.couponCodeInvalid, .addressUnserviceable])
        XCTAssertNil(try ApplePayCouponCodeUpdate(coupon).newShippingMethods)

        // Absent stays absent (no change), and Apple's empty list is "no change" too.
        XCTAssertNil(try ApplePayShippingContactUpdate(ShippingContactUpdate(summaryItems: items)).newShippingMethods)
        XCTAssertEqual(try ApplePayShippingContactUpdate(ShippingContactUpdate(summaryItems: items)).errors, [])
        let appleEmpty = ApplePayShippingContactUpdate(
            newTotal: ApplePayLineItem(label: "Shop", amount: "1.00"), newShippingMethods: [])
        XCTAssertNil(try appleEmpty.core(currency: usd).shippingMethods)
    }

    func testUpdateWithoutSummaryItemsIsRefused() {
        assertCheckoutError(
            try ApplePayShippingContactUpdate(ShippingContactUpdate(summaryItems: [])), code: .emptyList,
            field: "summaryItems")
        assertCheckoutError(
            try ApplePayShippingMethodUpdate(ShippingMethodUpdate(summaryItems: [])), code: .emptyList,
            field: "summaryItems")
        assertDecodingFails(try decode(ApplePayShippingContactUpdate.self, #"{"newLineItems": []}"#), path: "newTotal")
    }

    func testUpdateAmountErrorsNameTheirPath() throws {
        var update = try decode(ApplePayShippingContactUpdate.self, Payloads.applePayShippingContactUpdate)
        update.newShippingMethods?[0].amount = "0.999"
        assertCheckoutError(
            try update.core(currency: usd), code: .amountTooPrecise, field: "newShippingMethods[0].amount")
        update.newLineItems?[1].amount = "-"
        assertCheckoutError(try update.core(currency: usd), code: .malformedAmount, field: "newLineItems[1].amount")
        update.newLineItems = nil
        update.newTotal.amount = "1e3"
        assertCheckoutError(try update.core(currency: usd), code: .malformedAmount, field: "newTotal.amount")
    }

    func testShippingMethodUpdateRoundTripsAndRefusesWhatTheCoreCannotCarry() throws {
        let update = try assertWireRoundTrip(ApplePayShippingMethodUpdate.self, Payloads.applePayShippingMethodUpdate)
        assertCheckoutError(try update.core(currency: usd), code: .invalidField, field: "newShippingMethods")
        var plain = update
        plain.newShippingMethods = []
        XCTAssertEqual(try plain.core(currency: usd).summaryItems.map(\.amount), [money(99), money(298)])
        let core = ShippingMethodUpdate(summaryItems: items)
        XCTAssertEqual(try ApplePayShippingMethodUpdate(core).core(currency: usd), core)
    }

    func testPaymentMethodUpdateRoundTripsAndConverts() throws {
        let update = try assertWireRoundTrip(ApplePayPaymentMethodUpdate.self, Payloads.applePayPaymentMethodUpdate)
        assertCheckoutError(try update.core(currency: usd), code: .invalidField, field: "newShippingMethods")
        var plain = update
        plain.newShippingMethods = nil
        let core = try plain.core(currency: usd)
        XCTAssertEqual(core.errors, [.billingContactInvalid(.postalAddress, "Billing address is required")])
        XCTAssertEqual(core.summaryItems.last?.amount, money(201))
        XCTAssertEqual(try ApplePayPaymentMethodUpdate(core).core(currency: usd), core)
    }

    func testCouponCodeUpdateRoundTripsAndConverts() throws {
        let update = try assertWireRoundTrip(ApplePayCouponCodeUpdate.self, Payloads.applePayCouponCodeUpdate)
        let core = try update.core(currency: usd)
        XCTAssertEqual(core.errors, [.couponCodeExpired("This coupon has expired")])
        XCTAssertEqual(core.summaryItems.first?.amount, money(-50))
        XCTAssertEqual(core.shippingMethods, [standard])
        XCTAssertEqual(try ApplePayCouponCodeUpdate(core).core(currency: usd), core)
    }
}
