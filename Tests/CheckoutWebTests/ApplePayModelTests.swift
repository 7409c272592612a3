import CheckoutCore
import CheckoutWeb
import Foundation
import XCTest

final class ApplePayModelTests: XCTestCase {
    func testContactRoundTripsEveryMemberAndConvertsToTheCore() throws {
        let contact = try assertWireRoundTrip(ApplePayPaymentContact.self, Payloads.applePayPaymentContact)
        let core = try contact.core()
        XCTAssertEqual(core.name, "Ravi Patel")
        XCTAssertEqual(core.emailAddress, "ravi@example.com")
        XCTAssertEqual(core.phoneNumber, "+1 415 555 0100")
        XCTAssertEqual(
            core.postalAddress,
            Address(
                line1: "1 Infinite Loop", line2: "Building 4\nFloor 2", city: "Cupertino", state: "CA",
                postalCode: "95014", country: try CountryCode("US"), subLocality: "Rancho Rinconada",
                subAdministrativeArea: "Santa Clara")
        )
        XCTAssertFalse(core.isRedacted)
        // spec W1: only the phonetic names and the country's display name have no core place.
        XCTAssertEqual(contact.membersWithoutCoreCounterpart, ["phoneticGivenName", "phoneticFamilyName", "country"])
        let back = ApplePayPaymentContact(core)
        XCTAssertEqual(back.addressLines, ["1 Infinite Loop", "Building 4", "Floor 2"])
        XCTAssertEqual(back.subLocality, "Rancho Rinconada")
        XCTAssertEqual(back.subAdministrativeArea, "Santa Clara")
        XCTAssertEqual(back.givenName, "Ravi")
        XCTAssertEqual(back.familyName, "Patel")
        XCTAssertEqual(try back.core(), core)
    }

    func testContactFromTheCoreKeepsAMultiWordName() throws {
        let core = Contact(
            name: "Mary Ann Smith", postalAddress: Address(city: "Leeds", country: try CountryCode("GB")))
        let wire = ApplePayPaymentContact(core)
        XCTAssertEqual(wire.givenName, "Mary")
        XCTAssertEqual(wire.familyName, "Ann Smith")
        XCTAssertEqual(try wire.core(), core)
        XCTAssertEqual(try ApplePayPaymentContact(core: Contact()).core(), Contact())
    }

    func testRedactedContactAsApplePaySendsIt() throws {
        // Apple Pay on the web sends a redacted shipping contact with empty strings for what it
        // withholds.
        let json = """
            {"addressLines": [], "locality": "Cupertino", "administrativeArea": "CA", "postalCode": "95014",
             "country": "United States", "countryCode": "us", "givenName": "", "familyName": "",
             "emailAddress": "", "phoneNumber": ""}
            """
        let core = try decode(ApplePayPaymentContact.self, json).core()
        XCTAssertEqual(
            core,
            Contact(
                postalAddress: Address(
                    city: "Cupertino", state: "CA", postalCode: "95014", country: try CountryCode("US")))
        )
    }

    func testContactWithABadCountryCodeNamesTheField() throws {
        let contact = ApplePayPaymentContact(countryCode: "USA")
        assertCheckoutError(try contact.core(), code: .unknownCountry, field: "countryCode")
    }

    func testContactRefusesAPayloadOfAnotherShapeButNotAnEmptyObject() throws {
        // A core Contact's JSON (Stripe's names): not one ApplePayPaymentContact member.
        assertDecodingFails(
            try decode(ApplePayPaymentContact.self, #"{"name": "Ravi", "email": "r@example.com"}"#), path: "")
        XCTAssertEqual(try decode(ApplePayPaymentContact.self, "{}"), ApplePayPaymentContact())
        // Unknown members beside known ones are tolerated.
        let tolerant = try decode(ApplePayPaymentContact.self, #"{"locality": "Paris", "futureMember": 1}"#)
        XCTAssertEqual(tolerant.locality, "Paris")
        // A known member of the wrong type is refused with its path.
        assertDecodingFails(
            try decode(ApplePayPaymentContact.self, #"{"addressLines": "1 Main St"}"#), path: "addressLines")
    }

    func testLineItemRoundTripsAndConverts() throws {
        let item = try assertWireRoundTrip(ApplePayLineItem.self, Payloads.applePayLineItem)
        XCTAssertEqual(
            try item.core(currency: .usd),
            SummaryItem(label: "Monthly subscription", amount: Money(minorUnits: 999, currency: .usd)))
        XCTAssertEqual(
            item.membersWithoutCoreCounterpart,
            [
                "paymentTiming", "recurringPaymentStartDate", "recurringPaymentIntervalUnit",
                "recurringPaymentIntervalCount", "recurringPaymentEndDate", "deferredPaymentDate",
                "automaticReloadPaymentThresholdAmount",
            ]
        )
        let pending = try decode(ApplePayLineItem.self, #"{"label": "Tax", "amount": "500", "type": "pending"}"#)
        XCTAssertEqual(try pending.core(currency: .jpy).type, .pending)
        XCTAssertEqual(try pending.core(currency: .jpy).amount, Money(minorUnits: 500, currency: .jpy))
        let core = SummaryItem(label: "Tax", amount: Money(minorUnits: 1250, currency: .kwd), type: .pending)
        let wire = ApplePayLineItem(core)
        XCTAssertEqual(wire.amount, "1.250")
        XCTAssertEqual(wire.type, .pending)
        XCTAssertEqual(try wire.core(currency: .kwd), core)
    }

    func testLineItemAmountsAreCheckedAgainstTheCurrency() {
        let item = ApplePayLineItem(label: "Tax", amount: "500.5")
        assertCheckoutError(try item.core(currency: .jpy), code: .amountTooPrecise, field: "amount")
        assertCheckoutError(
            try ApplePayLineItem(label: "x", amount: "1,00").core(currency: .eur), code: .malformedAmount,
            field: "amount")
        // A number instead of a string is refused with its path.
        assertDecodingFails(try decode(ApplePayLineItem.self, #"{"label": "x", "amount": 1.5}"#), path: "amount")
        assertDecodingFails(
            try decode(ApplePayLineItem.self, #"{"label": "x", "amount": "1", "type": "later"}"#), path: "type")
    }

    func testShippingMethodRoundTripsAndConverts() throws {
        let method = try assertWireRoundTrip(ApplePayShippingMethod.self, Payloads.applePayShippingMethod)
        let core = try method.core(currency: .usd)
        XCTAssertEqual(core.identifier, "FreeShip")
        XCTAssertEqual(core.label, "Free Shipping")
        XCTAssertEqual(core.detail, "Arrives in 5 to 7 days")
        XCTAssertEqual(core.amount, Money.zero(.usd))
        XCTAssertEqual(
            core.deliveryDateRange,
            try DeliveryDateRange(start: CalendarDay("2026-12-04"), end: CalendarDay("2026-12-06")))
        let back = ApplePayShippingMethod(core)
        XCTAssertEqual(try back.core(currency: .usd), core)
        let noDetail = ShippingMethod(identifier: "pickup", label: "Pickup", amount: .zero(.usd))
        XCTAssertEqual(ApplePayShippingMethod(noDetail).detail, "")
        XCTAssertEqual(try ApplePayShippingMethod(noDetail).core(currency: .usd), noDetail)
    }

    func testShippingMethodErrorsNameTheirPath() throws {
        var method = try decode(ApplePayShippingMethod.self, Payloads.applePayShippingMethod)
        method.dateComponentsRange?.startDateComponents.hours = 9
        assertCheckoutError(
            try method.core(currency: .usd), code: .invalidField, field: "dateComponentsRange.startDateComponents.hours"
        )
        method.dateComponentsRange?.startDateComponents.hours = nil
        method.dateComponentsRange?.endDateComponents.days = nil
        assertCheckoutError(
            try method.core(currency: .usd), code: .missingField, field: "dateComponentsRange.endDateComponents.days")
        method.dateComponentsRange?.endDateComponents.days = 1
        assertCheckoutError(
            try method.core(currency: .usd), code: .invalidField, field: "dateComponentsRange.endDateComponents")
        method.dateComponentsRange = nil
        method.amount = "0.001"
        assertCheckoutError(try method.core(currency: .usd), code: .amountTooPrecise, field: "amount")
        // Apple requires every member but the range: a missing one is refused with its key.
        assertDecodingFails(
            try decode(ApplePayShippingMethod.self, #"{"label": "x", "amount": "1", "identifier": "x"}"#),
            path: "detail")
    }

    func testPaymentPassAndPaymentMethodRoundTrip() throws {
        try assertWireRoundTrip(ApplePayPaymentPass.self, Payloads.applePayPaymentPass)
        let method = try assertWireRoundTrip(ApplePayPaymentMethod.self, Payloads.applePayPaymentMethod)
        XCTAssertEqual(
            method.core(),
            PaymentMethod(displayName: "Visa 1234", network: PaymentNetwork(rawValue: "Visa"), type: .credit))
        XCTAssertEqual(method.billingContact?.postalCode, "95014")
        XCTAssertEqual(method.membersWithoutCoreCounterpart, ["paymentPass", "billingContact", "bindToken"])
        XCTAssertEqual(ApplePayPaymentMethod(displayName: "Visa").membersWithoutCoreCounterpart, [])
    }

    func testPaymentMethodWithoutTypeIsUnknownInTheCore() throws {
        let method = try decode(
            ApplePayPaymentMethod.self, #"{"displayName": "MasterCard 1471", "network": "MasterCard"}"#)
        XCTAssertEqual(method.core().type, .unknown)
        XCTAssertNil(try ApplePayPaymentMethod(method.core()).type)
        for type in PaymentMethodType.allCases where type != .eMoney {
            XCTAssertEqual(try ApplePayPaymentMethod(PaymentMethod(type: type)).core().type, type)
        }
        assertCheckoutError(try ApplePayPaymentMethod(PaymentMethod(type: .eMoney)), code: .invalidField, field: "type")
        assertDecodingFails(try decode(ApplePayPaymentMethod.self, #"{"brand": "visa"}"#), path: "")
    }

    func testPaymentTokenKeepsPaymentDataLosslessly() throws {
        let token = try assertWireRoundTrip(ApplePayPaymentToken.self, Payloads.applePayPaymentToken)
        let core = try token.core()
        XCTAssertEqual(core.transactionIdentifier, "8E0A4D4C0C1F4A1B9E8B7A6C5D4E3F2A")
        XCTAssertEqual(JSONValue(jsonText: core.paymentData), token.paymentData)
        XCTAssertTrue(core.paymentData.hasPrefix(#"{"data":"#), "sorted keys: \(core.paymentData)")
        let back = try ApplePayPaymentToken(core)
        XCTAssertEqual(back.paymentData, token.paymentData)
        XCTAssertEqual(try back.core(), core)
        // A test card's name, as the in-memory backend uses, stays a string.
        let testCard = PaymentToken(
            paymentMethod: PaymentMethod(type: .credit), transactionIdentifier: "t1", paymentData: "pm_card_visa")
        XCTAssertEqual(try ApplePayPaymentToken(testCard).paymentData, .string("pm_card_visa"))
        XCTAssertEqual(try ApplePayPaymentToken(testCard).core(), testCard)
    }

    func testPaymentTokenWithoutWhatTheCoreNeedsIsRefusedNamingTheMember() throws {
        let method = ApplePayPaymentMethod(displayName: "Visa 1234")
        assertCheckoutError(
            try ApplePayPaymentToken(paymentMethod: method, paymentData: .object([:])).core(), code: .missingField,
            field: "transactionIdentifier")
        assertCheckoutError(
            try ApplePayPaymentToken(paymentMethod: method, transactionIdentifier: "t").core(), code: .missingField,
            field: "paymentData")
        assertDecodingFails(
            try decode(ApplePayPaymentToken.self, #"{"transactionIdentifier": "t"}"#), path: "paymentMethod")
    }

    func testPaymentRoundTripsAndConverts() throws {
        let payment = try assertWireRoundTrip(ApplePayPayment.self, Payloads.applePayPayment)
        let express = ShippingMethod(
            identifier: "express", label: "Express", amount: Money(minorUnits: 499, currency: .usd))
        let core = try payment.core(shippingMethod: express)
        XCTAssertEqual(core.shippingMethod, express)
        XCTAssertEqual(
            payment.membersWithoutCoreCounterpart,
            [
                "installmentAuthorizationToken", "token.paymentMethod.paymentPass",
                "token.paymentMethod.billingContact", "token.paymentMethod.bindToken",
            ])
        XCTAssertEqual(core.shippingContact?.name, "Ravi Patel")
        XCTAssertEqual(core.billingContact?.postalAddress?.line1, "1 Infinite Loop")
        XCTAssertEqual(try ApplePayPayment(core).core(shippingMethod: express), core)
        var bad = payment
        bad.shippingContact?.countryCode = "ZZ"
        assertCheckoutError(try bad.core(), code: .unknownCountry, field: "shippingContact.countryCode")
    }

    private func codes(_ problems: [CheckoutError]) -> [String] {
        problems.map { "\($0.code) @ \($0.field ?? "-")" }
    }

    func testPaymentRequestRoundTripsAndConverts() throws {
        let request = try assertWireRoundTrip(ApplePayPaymentRequest.self, Payloads.applePayPaymentRequest)
        let core = try request.core(merchantIdentifier: "merchant.com.example")
        // The payload sets every one of today's terms at once, which PassKit refuses: the
        // recurring, automatic-reload and deferred requests exclude each other, and contexts
        // exclude them all.
        XCTAssertEqual(
            codes(core.problems),
            ["conflictingFields @ automaticReloadPaymentRequest", "conflictingFields @ multiTokenContexts"])
        XCTAssertEqual(core.recurringPaymentRequest?.regularBilling.amount, Money(1.99, .usd))
        XCTAssertEqual(core.recurringPaymentRequest?.regularBilling.intervalUnit, .month)
        XCTAssertEqual(core.automaticReloadPaymentRequest?.automaticReloadBilling.thresholdAmount, Money(0, .usd))
        XCTAssertEqual(
            core.deferredPaymentRequest?.deferredBilling.deferredDate, Date(timeIntervalSince1970: 1_736_294_400))
        XCTAssertEqual(core.multiTokenContexts.map(\.amount), [Money(0.5, .usd)])
        XCTAssertEqual(core.shippingContactEditingMode, .available)
        XCTAssertEqual(core.applePayLaterAvailability, .available)
        XCTAssertEqual(core.merchantCategoryCode?.rawValue, "5411")
        XCTAssertEqual(
            core.summaryItems.map(\.label), ["Bag Subtotal", "Estimated Shipping", "Demo (Card is not charged)"])
        XCTAssertEqual(core.summaryItems.map(\.type), [.final, .pending, .final])
        XCTAssertEqual(core.grandTotal, Money(minorUnits: 199, currency: .usd))
        XCTAssertEqual(core.merchantCapabilities, [.threeDSecure, .emv, .credit, .debit])
        XCTAssertEqual(core.requiredBillingContactFields, [.postalAddress, .name])
        XCTAssertEqual(core.requiredShippingContactFields, [.postalAddress, .name, .phoneNumber, .emailAddress])
        XCTAssertEqual(core.shippingMethods.map(\.identifier), ["FreeShip"])
        XCTAssertEqual(core.couponCode, "WELCOME")
        XCTAssertTrue(core.supportsCouponCode)
        XCTAssertEqual(
            request.membersWithoutCoreCounterpart,
            [
                "features", "billingContact", "shippingContact", "applicationData", "supportedCountries",
                "installmentConfiguration", "disbursementRequest",
            ]
        )
        let back = try ApplePayPaymentRequest(core)
        XCTAssertEqual(try back.core(merchantIdentifier: "merchant.com.example"), core)
        XCTAssertEqual(back.requiredShippingContactFields, [.name, .email, .phone, .postalAddress])
    }

    func testPaymentRequestErrorsNameTheirPath() throws {
        var request = try decode(ApplePayPaymentRequest.self, Payloads.applePayPaymentRequest)
        request.lineItems?[1].amount = "0.999"
        assertCheckoutError(
            try request.core(merchantIdentifier: "m"), code: .amountTooPrecise, field: "lineItems[1].amount")
        request.lineItems = nil
        request.shippingMethods?[0].amount = "free"
        assertCheckoutError(
            try request.core(merchantIdentifier: "m"), code: .malformedAmount, field: "shippingMethods[0].amount")
        request.currencyCode = "XXX"
        assertCheckoutError(try request.core(merchantIdentifier: "m"), code: .unknownCurrency, field: "currencyCode")
        let empty = PaymentRequest(merchantIdentifier: "m", countryCode: "US", currencyCode: "USD", summaryItems: [])
        assertCheckoutError(try ApplePayPaymentRequest(empty), code: .emptyList, field: "summaryItems")
        let phonetic = """
            {"merchantCapabilities": ["supports3DS", "supportsInstantFundsOut"], "supportedNetworks": ["visa"],
             "countryCode": "US", "currencyCode": "USD", "total": {"label": "x", "amount": "1.00"},
             "requiredShippingContactFields": ["phoneticName", "name"]}
            """
        let withPhonetic = try decode(ApplePayPaymentRequest.self, phonetic)
        XCTAssertEqual(
            withPhonetic.membersWithoutCoreCounterpart, ["merchantCapabilities[1]", "requiredShippingContactFields[0]"])
        XCTAssertEqual(try withPhonetic.core(merchantIdentifier: "m").requiredShippingContactFields, [.name])
        assertDecodingFails(
            try decode(
                ApplePayPaymentRequest.self, phonetic.replacingOccurrences(of: "supports3DS", with: "supports3ds")),
            path: "merchantCapabilities[0]")
    }

    func testPaymentAuthorizationResultRoundTripsAndMapsEveryStatus() throws {
        let result = try assertWireRoundTrip(
            ApplePayPaymentAuthorizationResult.self, Payloads.applePayPaymentAuthorizationResult)
        XCTAssertEqual(
            try result.core(),
            PaymentAuthorizationResult(
                status: .failure, errors: [.shippingContactInvalid(.street, "We cannot deliver to a P.O. box")],
                orderDetails: PaymentOrderDetails(
                    orderTypeIdentifier: "order.com.example", orderIdentifier: "ORDER-1",
                    webServiceURL: URL(string: "https://example.com/orders")!, authenticationToken: "abc"))
        )
        let constants = [
            ApplePayPaymentAuthorizationResult.statusSuccess, ApplePayPaymentAuthorizationResult.statusFailure,
            ApplePayPaymentAuthorizationResult.statusInvalidBillingPostalAddress,
            ApplePayPaymentAuthorizationResult.statusInvalidShippingPostalAddress,
            ApplePayPaymentAuthorizationResult.statusInvalidShippingContact,
            ApplePayPaymentAuthorizationResult.statusPINRequired, ApplePayPaymentAuthorizationResult.statusPINIncorrect,
            ApplePayPaymentAuthorizationResult.statusPINLockout,
        ]
        XCTAssertEqual(constants, Array(0...7))
        XCTAssertEqual(result.membersWithoutCoreCounterpart, [])
        XCTAssertEqual(try result.core().orderDetails?.orderIdentifier, result.orderDetails?.orderIdentifier)
        XCTAssertEqual(try ApplePayPaymentAuthorizationResult(result.core()).orderDetails, result.orderDetails)
        for status in PaymentAuthorizationStatus.allCases {
            let core = PaymentAuthorizationResult(status: status)
            let wire = try ApplePayPaymentAuthorizationResult(core)
            XCTAssertEqual(wire.status, constants[status.rawValue])
            XCTAssertNil(wire.errors)
            XCTAssertEqual(try wire.core(), core)
        }
        assertCheckoutError(
            try ApplePayPaymentAuthorizationResult(status: 8).core(), code: .invalidField, field: "status")
        let unmappable = PaymentAuthorizationResult(
            status: .failure, errors: [PaymentError(code: .init(rawValue: "cardDeclined"), message: "no")])
        assertCheckoutError(
            try ApplePayPaymentAuthorizationResult(unmappable), code: .invalidField, field: "errors[0].code")
    }
}

extension ApplePayPaymentContact {
    /// The wire form of a core contact, for tests that read better with a label.
    init(core: Contact) { self.init(core) }
}
