import CheckoutCore
import CheckoutWeb
import XCTest

/// Google Pay's dictionaries to and from the core models, and Google's own rules applied before
/// anything is sent (spec W8, W9).
final class GooglePayConversionTests: XCTestCase {
    private func usd(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .usd) }

    func testTheRedactedAddressIsARedactedCoreContact() throws {
        let data = try decode(GooglePayIntermediatePaymentData.self, GooglePayFixtures.initialize)
        let contact = try XCTUnwrap(data.shippingAddress).core()
        XCTAssertTrue(contact.isRedacted)
        XCTAssertEqual(
            contact.postalAddress,
            Address(city: "Mountain View", state: "CA", postalCode: "94043", country: try CountryCode("US")))
        XCTAssertEqual(GooglePayIntermediateAddress(contact), data.shippingAddress)
        assertCheckoutError(
            try GooglePayIntermediateAddress(countryCode: "USA").core(), code: .unknownCountry, field: "countryCode")
    }

    func testPaymentDataIsTheCorePaymentWithFullAddressEmailAndToken() throws {
        let data = try decode(GooglePayPaymentData.self, GooglePayFixtures.paymentData)
        let payment = try data.core(transactionIdentifier: "t1")
        XCTAssertEqual(payment.token.paymentData, "examplePaymentMethodToken")
        XCTAssertEqual(payment.token.transactionIdentifier, "t1")
        XCTAssertEqual(payment.token.paymentMethod, PaymentMethod(displayName: "Visa •••• 1234", network: .visa))
        let shipping = try XCTUnwrap(payment.shippingContact)
        XCTAssertEqual(shipping.name, "Jane Doe")
        XCTAssertEqual(shipping.emailAddress, "jane@example.com")
        XCTAssertEqual(shipping.phoneNumber, "+1 650-555-5555")
        XCTAssertEqual(shipping.postalAddress?.line1, "1600 Amphitheatre Parkway")
        XCTAssertNil(shipping.postalAddress?.line2, "empty address2 and address3 are absent")
        XCTAssertEqual(shipping.postalAddress?.city, "Mountain View")
        XCTAssertEqual(
            data.membersWithoutCoreCounterpart,
            [
                "apiVersion", "apiVersionMinor", "paymentMethodData.tokenizationData.type",
                "paymentMethodData.info.cardDetails",
            ])
        var withoutToken = data
        withoutToken.paymentMethodData.tokenizationData = nil
        assertCheckoutError(
            try withoutToken.core(transactionIdentifier: "t"), code: .missingField,
            field: "paymentMethodData.tokenizationData")
        var badCountry = data
        badCountry.shippingAddress?.countryCode = "ZZZ"
        assertCheckoutError(
            try badCountry.core(transactionIdentifier: "t"), code: .unknownCountry,
            field: "shippingAddress.countryCode")
    }

    func testThreeStreetLinesSurviveTheCoreAndBack() throws {
        let address = GooglePayAddress(
            name: "A B", address1: "1 Rue", address2: "Bât. C", address3: "Étage 2", locality: "Paris",
            countryCode: "FR", postalCode: "75001", sortingCode: "CEDEX 01")
        let contact = try address.core()
        XCTAssertEqual(contact.postalAddress?.line2, "Bât. C\nÉtage 2")
        XCTAssertEqual(contact.postalAddress?.sortingCode, "CEDEX 01")
        XCTAssertEqual(address.membersWithoutCoreCounterpart, [])
        XCTAssertEqual(GooglePayAddress(contact), address)
    }

    func testSummaryItemsBecomeTransactionInfoAndBack() throws {
        let items = [
            SummaryItem(label: "Tea", amount: usd(2400)), SummaryItem(label: "Coupon", amount: usd(-500)),
            SummaryItem(label: "Tax", amount: usd(198), type: .pending),
            SummaryItem(label: "Tea Shop", amount: usd(2098)),
        ]
        let info = try GooglePayTransactionInfo(items, currency: .usd, countryCode: "US")
        XCTAssertEqual(info.totalPrice, "20.98")
        XCTAssertEqual(info.totalPriceLabel, "Tea Shop")
        XCTAssertEqual(info.totalPriceStatus, .final)
        XCTAssertEqual(info.displayItems?.map(\.price), ["24.00", "-5.00", "1.98"])
        XCTAssertEqual(info.displayItems?.map(\.status), [.final, .final, .pending])
        XCTAssertNoThrow(try info.check())
        XCTAssertEqual(try info.core(), items)
        let pendingTotal = try GooglePayTransactionInfo(
            [SummaryItem(label: "Ride", amount: usd(1200), type: .pending)], currency: .usd)
        XCTAssertEqual(pendingTotal.totalPriceStatus, .estimated)
        let yen = try GooglePayTransactionInfo(
            [SummaryItem(label: "Shop", amount: Money(minorUnits: 1500, currency: try CurrencyCode("JPY")))],
            currency: try CurrencyCode("JPY"))
        XCTAssertEqual(yen.totalPrice, "1500")
    }

    // spec W8, W9: what Google's sheet refuses is refused before it is sent, naming the field.
    func testGooglesRulesNameTheFieldAndValue() throws {
        let kwd = try CurrencyCode("KWD")
        assertCheckoutError(
            try GooglePayTransactionInfo(
                [SummaryItem(label: "Shop", amount: Money(minorUnits: 1234, currency: kwd))], currency: kwd),
            code: .invalidField, field: "totalPrice")
        let exact = try GooglePayTransactionInfo(
            [SummaryItem(label: "Shop", amount: Money(minorUnits: 1230, currency: kwd))], currency: kwd)
        XCTAssertEqual(exact.totalPrice, "1.23")
        assertCheckoutError(
            try GooglePayTransactionInfo([SummaryItem(label: "Refund", amount: usd(-100))], currency: .usd),
            code: .invalidField, field: "totalPrice")
        var info = try decode(GooglePayTransactionInfo.self, GooglePayFixtures.transactionInfo)
        info.totalPrice = "12.0"
        assertCheckoutError(try info.check(), code: .invalidField, field: "totalPrice")
        info.totalPrice = nil
        assertCheckoutError(try info.check(), code: .missingField, field: "totalPrice")
        info.totalPriceStatus = .notCurrentlyKnown
        XCTAssertNoThrow(try info.check())
        info.totalPriceLabel = nil
        assertCheckoutError(try info.check(), code: .missingField, field: "totalPriceLabel")
        info.totalPriceLabel = "Total"
        info.displayItems?[1].price = "1.001"
        assertCheckoutError(try info.check(), code: .invalidField, field: "displayItems[1].price")
        info.currencyCode = "XXY"
        assertCheckoutError(try info.check(), code: .unknownCurrency, field: "currencyCode")
        XCTAssertTrue(GooglePayPriceRules.isItemPrice("-5.00"))
        XCTAssertFalse(GooglePayPriceRules.isTotalPrice("-5.00"))
        XCTAssertFalse(GooglePayPriceRules.isTotalPrice("5."))
        XCTAssertFalse(GooglePayPriceRules.isTotalPrice(".50"))
        XCTAssertFalse(GooglePayPriceRules.isTotalPrice("1e3"))

        var options = try decode(GooglePayShippingOptionParameters.self, GooglePayFixtures.shippingOptionParameters)
        XCTAssertNoThrow(try options.check())
        options.defaultSelectedOptionId = "shipping-009"
        assertCheckoutError(try options.check(), code: .invalidField, field: "defaultSelectedOptionId")
        options.defaultSelectedOptionId = nil
        options.shippingOptions[2].id = "shipping-001"
        assertCheckoutError(try options.check(), code: .duplicateIdentifier, field: "shippingOptions[2].id")
        options.shippingOptions = []
        assertCheckoutError(try options.check(), code: .emptyList, field: "shippingOptions")

        let update = try decode(GooglePayPaymentDataRequestUpdate.self, GooglePayFixtures.offerUpdate)
        XCTAssertNoThrow(try update.check(answering: .offer))
        XCTAssertNoThrow(try update.check(answering: .initialize))
        assertCheckoutError(try update.check(answering: .shippingAddress), code: .invalidField, field: "error.intent")
        var authorizationIntent = update
        authorizationIntent.error?.intent = .paymentAuthorization
        assertCheckoutError(
            try authorizationIntent.check(answering: .initialize), code: .invalidField, field: "error.intent")
        var noDescription = update
        noDescription.newOfferInfo?.offers[0].description = ""
        assertCheckoutError(
            try noDescription.check(answering: .offer), code: .missingField,
            field: "newOfferInfo.offers[0].description")
    }

    func testShippingMethodsBecomeOptionsWithTheSelectedOneDefault() throws {
        let methods = [
            ShippingMethod(identifier: "ground", label: "Ground", detail: "5-7 days", amount: usd(0)),
            ShippingMethod(identifier: "express", label: "Express", amount: usd(1500)),
        ]
        let options = try GooglePayShippingOptionParameters(methods, selected: "express")
        XCTAssertEqual(
            options,
            GooglePayShippingOptionParameters(
                shippingOptions: [
                    GooglePaySelectionOption(id: "ground", label: "Ground", description: "5-7 days"),
                    GooglePaySelectionOption(id: "express", label: "Express"),
                ], defaultSelectedOptionId: "express"))
        XCTAssertEqual(
            try GooglePayShippingOptionParameters(methods, selected: "gone").defaultSelectedOptionId, "ground")
        assertCheckoutError(
            try GooglePayShippingOptionParameters([], selected: nil), code: .emptyList, field: "shippingOptions")
        // spec W3: the flow's "none available" is no list and the update's error, not an empty list.
        let update = try GooglePayPaymentDataRequestUpdate(
            summaryItems: [SummaryItem(label: "Shop", amount: usd(100))], currency: .usd, shippingMethods: [],
            selectedShippingMethod: nil,
            error: GooglePayPaymentDataError(
                reason: .shippingAddressUnserviceable, message: "No delivery", intent: .shippingAddress))
        XCTAssertNil(update.newShippingOptionParameters)
        assertCheckoutError(
            try GooglePayPaymentDataRequestUpdate(
                summaryItems: [SummaryItem(label: "Shop", amount: usd(-1))], currency: .usd, shippingMethods: nil,
                selectedShippingMethod: nil),
            code: .invalidField, field: "newTransactionInfo.totalPrice")
    }

    // spec W9: every Google reason maps to the flow's errors and back without loss.
    func testEveryErrorReasonComesBackFromTheCoreAsItWent() throws {
        for reason in GooglePayErrorReason.allCases {
            let error = GooglePayPaymentDataError(reason: reason, message: "m \(reason)", intent: .shippingAddress)
            XCTAssertEqual(try GooglePayPaymentDataError(error.core(), intent: .shippingAddress), error)
        }
        let expected: [GooglePayErrorReason: PaymentError.Code] = [
            .shippingAddressInvalid: .shippingContactInvalid,
            .shippingAddressUnserviceable: .shippingAddressUnserviceable,
            .shippingOptionInvalid: .shippingOptionInvalid, .offerInvalid: .couponCodeInvalid,
            .paymentDataInvalid: .billingContactInvalid, .otherError: .unknown,
        ]
        for (reason, code) in expected {
            XCTAssertEqual(GooglePayPaymentDataError(reason: reason, message: "", intent: .offer).core().code, code)
        }
        XCTAssertEqual(
            try GooglePayPaymentDataError(.couponCodeExpired("Expired in May"), intent: .offer),
            GooglePayPaymentDataError(reason: .offerInvalid, message: "Expired in May", intent: .offer))
        assertCheckoutError(
            try GooglePayPaymentDataError(
                PaymentError(code: .init(rawValue: "pinLocked"), message: ""), intent: .offer),
            code: .invalidField, field: "code")
        // Apple Pay has no code for Google's SHIPPING_OPTION_INVALID: refused there, not turned into another.
        assertCheckoutError(
            try ApplePayError(PaymentError(code: .shippingOptionInvalid, message: "")), code: .invalidField,
            field: "code")
    }

    func testAuthorizationResultsBothWays() throws {
        let result = try decode(GooglePayPaymentAuthorizationResult.self, GooglePayFixtures.authorizationError)
        XCTAssertNoThrow(try result.check())
        XCTAssertEqual(
            result.core(),
            PaymentAuthorizationResult(
                status: .invalidBillingPostalAddress,
                errors: [PaymentError(code: .billingContactInvalid, message: "Insufficient funds")]))
        XCTAssertEqual(try GooglePayPaymentAuthorizationResult(result.core()), result)
        XCTAssertEqual(try GooglePayPaymentAuthorizationResult(.success), .init(transactionState: .success))
        let declined = try GooglePayPaymentAuthorizationResult(PaymentAuthorizationResult(status: .failure))
        XCTAssertEqual(declined.error?.reason, .otherError)
        XCTAssertEqual(declined.error?.intent, .paymentAuthorization)
        let two = try GooglePayPaymentAuthorizationResult(
            PaymentAuthorizationResult(
                status: .invalidShippingPostalAddress,
                errors: [.shippingContactInvalid(.postalCode, "Bad ZIP"), .shippingAddressUnserviceable("Not AK")]))
        XCTAssertEqual(two.error?.reason, .shippingAddressInvalid)
        XCTAssertEqual(two.error?.message, "Bad ZIP\nNot AK")
        assertCheckoutError(
            try GooglePayPaymentAuthorizationResult(PaymentAuthorizationResult(status: .pinRequired)),
            code: .invalidField, field: "status")
        assertCheckoutError(
            try GooglePayPaymentAuthorizationResult(transactionState: .error).check(), code: .missingField,
            field: "error")
        var wrongIntent = result
        wrongIntent.error?.intent = .offer
        assertCheckoutError(try wrongIntent.check(), code: .invalidField, field: "error.intent")
    }

    func testCardNetworksMapBothWays() {
        XCTAssertEqual(GooglePayCardNetwork.core("MASTERCARD"), .masterCard)
        XCTAssertEqual(GooglePayCardNetwork.google(.masterCard), "MASTERCARD")
        XCTAssertEqual(GooglePayCardNetwork.google(GooglePayCardNetwork.core("ELO")), "ELO")
        XCTAssertEqual(GooglePayCardNetwork.google(.cartesBancaires), "CARTESBANCAIRES")
    }
}
