import CheckoutCore
import CheckoutWeb
import XCTest

final class PaymentRequestAPIModelTests: XCTestCase {
    private func money(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .usd) }

    func testPaymentAddressRoundTripsEveryMemberAndConvertsToTheCore() throws {
        let address = try assertWireRoundTrip(PaymentAddress.self, Payloads.paymentAddress)
        let core = try address.core()
        XCTAssertEqual(core.name, "Jane Doe")
        XCTAssertEqual(core.phoneNumber, "+15125550100")
        XCTAssertEqual(
            core.postalAddress,
            Address(
                line1: "1 Main St", line2: "Suite 100", city: "Austin", state: "TX", postalCode: "78701",
                country: try CountryCode("US"), subLocality: "Downtown", sortingCode: "CEDEX 1")
        )
        XCTAssertEqual(core.organizationName, "Example Inc.")
        // spec W1: every member of the dictionary has its place in the core.
        XCTAssertEqual(address.membersWithoutCoreCounterpart, [])
        XCTAssertEqual(try PaymentAddress(core).core(), core)
        XCTAssertEqual(PaymentAddress(core), address)
        assertCheckoutError(try PaymentAddress(country: "Texas").core(), code: .unknownCountry, field: "country")
    }

    func testRedactedPaymentAddressAsBrowsersSendIt() throws {
        let json = """
            {"country": "US", "addressLine": [], "region": "TX", "city": "Austin", "dependentLocality": "",
             "postalCode": "78701", "sortingCode": "", "organization": "", "recipient": "", "phone": ""}
            """
        let address = try decode(PaymentAddress.self, json)
        XCTAssertEqual(address.membersWithoutCoreCounterpart, [])
        XCTAssertEqual(
            try address.core(),
            Contact(
                postalAddress: Address(city: "Austin", state: "TX", postalCode: "78701", country: try CountryCode("US"))
            )
        )
        assertDecodingFails(
            try decode(PaymentAddress.self, #"{"line1": "1 Main St", "postal_code": "78701"}"#), path: "")
    }

    func testPaymentItemKeepsPending() throws {
        let item = try assertWireRoundTrip(PaymentItem.self, Payloads.paymentItem)
        XCTAssertEqual(try item.core(), SummaryItem(label: "Estimated tax", amount: money(150), type: .pending))
        XCTAssertEqual(PaymentItem(try item.core()), item)
        let final = SummaryItem(label: "Total", amount: Money(minorUnits: 500, currency: .jpy))
        XCTAssertNil(PaymentItem(final).pending)
        XCTAssertEqual(PaymentItem(final).amount, PaymentCurrencyAmount(currency: "JPY", value: "500"))
        XCTAssertEqual(try PaymentItem(final).core(), final)
        let tooFine = PaymentItem(label: "x", amount: PaymentCurrencyAmount(currency: "JPY", value: "1.5"))
        assertCheckoutError(try tooFine.core(), code: .amountTooPrecise, field: "amount.value")
        let badCurrency = PaymentItem(label: "x", amount: PaymentCurrencyAmount(currency: "XYZ", value: "1"))
        assertCheckoutError(try badCurrency.core(), code: .unknownCurrency, field: "amount.currency")
        assertDecodingFails(try decode(PaymentItem.self, #"{"label": "x", "amount": "1.00"}"#), path: "amount")
    }

    func testShippingOptionRoundTripsAndConverts() throws {
        let option = try assertWireRoundTrip(PaymentShippingOption.self, Payloads.paymentShippingOption)
        let core = try option.core()
        XCTAssertEqual(core, ShippingMethod(identifier: "standard", label: "Standard shipping", amount: money(500)))
        XCTAssertEqual(PaymentShippingOption(core, selected: true), option)
        XCTAssertNil(PaymentShippingOption(core).selected)
    }

    func testDetailsUpdateRoundTripsEveryMember() throws {
        let update = try assertWireRoundTrip(PaymentDetailsUpdate.self, Payloads.paymentDetailsUpdate)
        XCTAssertEqual(update.membersWithoutCoreCounterpart, ["modifiers", "paymentMethodErrors"])
        let core = try update.shippingContactUpdate()
        XCTAssertEqual(core.summaryItems.map(\.amount), [money(5500), money(150), money(6000)])
        XCTAssertEqual(core.summaryItems[1].type, .pending)
        XCTAssertEqual(core.shippingMethods?.map(\.identifier), ["standard", "express"])
        XCTAssertEqual(
            core.errors,
            [
                .shippingContactInvalid(.street, "a"), .shippingContactInvalid(.city, "b"),
                .shippingContactInvalid(.subLocality, "d"), .shippingContactInvalid(.state, "i"),
                .shippingContactInvalid(.postalCode, "g"), .shippingContactInvalid(.sortingCode, "j"),
                .shippingContactInvalid(.country, "c"), .shippingContactInvalid(.name, "h"),
                .shippingContactInvalid(.phoneNumber, "f"), .shippingContactInvalid(.organizationName, "e"),
                .shippingContactInvalid(.name, "Full name, please"),
                .shippingContactInvalid(.emailAddress, "Use your work email"),
                .shippingContactInvalid(.phoneNumber, "A mobile number"),
            ]
        )
        // With shipping options the browser ignores `error`; without any it blocks the address.
        var withoutOptions = update
        withoutOptions.shippingOptions = []
        XCTAssertEqual(
            try withoutOptions.shippingContactUpdate().errors.last,
            .shippingAddressUnserviceable("We cannot ship to this address on Sundays."))
    }

    func testLocalityErrorFieldsReachTheirOwnMembers() throws {
        // The W3C `AddressErrors` has members for the core's locality fields (spec W8); WebKit's
        // ApplePayPaymentHandler.cpp maps `dependentLocality` to Apple's `subLocality` the same way.
        let items = [SummaryItem(label: "Total", amount: money(6000))]
        let core = ShippingContactUpdate(
            errors: [
                .shippingContactInvalid(.subLocality, "Which district?"),
                .shippingContactInvalid(.sortingCode, "CEDEX code unknown"),
                .shippingContactInvalid(.organizationName, "Company required"),
            ],
            summaryItems: items, shippingMethods: [])
        let wire = try PaymentDetailsUpdate(core, selectedShippingOptionID: nil)
        XCTAssertEqual(
            wire.shippingAddressErrors,
            AddressErrors(
                dependentLocality: "Which district?", organization: "Company required",
                sortingCode: "CEDEX code unknown"))
        XCTAssertNil(wire.error)
        XCTAssertEqual(Set(try wire.shippingContactUpdate().errors), Set(core.errors))
        // The W3C has no member for a subdivision of the state: it is shown on the region.
        let county = ShippingContactUpdate(
            errors: [.shippingContactInvalid(.subAdministrativeArea, "Which county?")], summaryItems: items,
            shippingMethods: [])
        XCTAssertEqual(
            try PaymentDetailsUpdate(county, selectedShippingOptionID: nil).shippingAddressErrors,
            AddressErrors(region: "Which county?"))
    }

    func testDetailsUpdateFromACoreShippingContactUpdate() throws {
        let standard = ShippingMethod(identifier: "standard", label: "Standard", amount: money(500))
        let express = ShippingMethod(identifier: "express", label: "Express", amount: money(1500))
        let items = [
            SummaryItem(label: "Subtotal", amount: money(5500)), SummaryItem(label: "Total", amount: money(6000)),
        ]
        let core = ShippingContactUpdate(
            errors: [
                .shippingContactInvalid(.postalCode, "Unknown ZIP code"),
                .shippingContactInvalid(.street, "No P.O. boxes"),
                .shippingContactInvalid(.emailAddress, "Use your work email"),
            ],
            summaryItems: items, shippingMethods: [standard, express])
        let wire = try PaymentDetailsUpdate(core, selectedShippingOptionID: "express")
        XCTAssertEqual(
            wire.total, PaymentItem(label: "Total", amount: PaymentCurrencyAmount(currency: "USD", value: "60.00")))
        XCTAssertEqual(wire.displayItems?.count, 1)
        XCTAssertEqual(wire.shippingOptions?.map(\.selected), [nil, true])
        XCTAssertEqual(
            wire.shippingAddressErrors, AddressErrors(addressLine: "No P.O. boxes", postalCode: "Unknown ZIP code"))
        XCTAssertEqual(wire.payerErrors, PayerErrors(email: "Use your work email"))
        XCTAssertNil(wire.error)
        XCTAssertEqual(Set(try wire.shippingContactUpdate().errors), Set(core.errors))
        XCTAssertEqual(try wire.shippingContactUpdate().summaryItems, core.summaryItems)
        XCTAssertEqual(try wire.shippingContactUpdate().shippingMethods, core.shippingMethods)
        // A selection that is gone: the first is selected (spec A2).
        XCTAssertEqual(
            try PaymentDetailsUpdate(core, selectedShippingOptionID: "gone").shippingOptions?.map(\.selected),
            [true, nil])

        // W3: W3C shows "none available" as it is, an empty list, with the reason in `error`.
        let none = ShippingContactUpdate(
            errors: [.shippingAddressUnserviceable("We do not ship to Mars")], summaryItems: items, shippingMethods: [])
        let noneWire = try PaymentDetailsUpdate(none)
        XCTAssertEqual(noneWire.shippingOptions, [])
        XCTAssertEqual(noneWire.error, "We do not ship to Mars")
        XCTAssertEqual(try noneWire.shippingContactUpdate(), none)
        // Absent stays absent.
        XCTAssertNil(try PaymentDetailsUpdate(ShippingContactUpdate(summaryItems: items)).shippingOptions)
        XCTAssertNil(
            try PaymentDetailsUpdate(ShippingContactUpdate(summaryItems: items)).shippingContactUpdate().shippingMethods
        )
        assertCheckoutError(
            try PaymentDetailsUpdate(ShippingContactUpdate(summaryItems: [])), code: .emptyList, field: "summaryItems")
    }

    func testDetailsUpdateForTheOtherEvents() throws {
        let items = [SummaryItem(label: "Total", amount: money(6000))]
        let method = ShippingMethodUpdate(summaryItems: items)
        XCTAssertEqual(try PaymentDetailsUpdate(method).shippingMethodUpdate(), method)
        let payment = PaymentMethodUpdate(
            errors: [PaymentError(code: .unknown, message: "Card type not accepted")], summaryItems: items)
        let paymentWire = try PaymentDetailsUpdate(payment)
        XCTAssertEqual(paymentWire.error, "Card type not accepted")
        XCTAssertEqual(try paymentWire.paymentMethodUpdate(), payment)

        let full = try decode(PaymentDetailsUpdate.self, Payloads.paymentDetailsUpdate)
        assertCheckoutError(try full.shippingMethodUpdate(), code: .invalidField, field: "error")
        assertCheckoutError(try full.paymentMethodUpdate(), code: .invalidField, field: "shippingAddressErrors")
        var withOptions = PaymentDetailsUpdate(total: PaymentItem(items[0]), shippingOptions: [])
        assertCheckoutError(try withOptions.paymentMethodUpdate(), code: .invalidField, field: "shippingOptions")
        withOptions.total = nil
        assertCheckoutError(try withOptions.shippingMethodUpdate(), code: .missingField, field: "total")
        var badAmount = full
        badAmount.shippingOptions?[1].amount.value = "15.001"
        assertCheckoutError(
            try badAmount.shippingContactUpdate(), code: .amountTooPrecise, field: "shippingOptions[1].amount.value")
    }

    func testErrorsObjectsRefuseForeignPayloads() throws {
        try assertWireRoundTrip(AddressErrors.self, #"{"postalCode": "Unknown"}"#)
        try assertWireRoundTrip(PayerErrors.self, #"{"email": "Invalid"}"#)
        assertDecodingFails(try decode(AddressErrors.self, #"{"postal_code": "Unknown"}"#), path: "")
        assertDecodingFails(try decode(PayerErrors.self, #"{"emailAddress": "Invalid"}"#), path: "")
        assertDecodingFails(
            try decode(PaymentDetailsUpdate.self, #"{"shippingAddressErrors": {"zip": "x"}}"#),
            path: "shippingAddressErrors")
        assertDecodingFails(
            try decode(PaymentDetailsUpdate.self, #"{"newTotal": {"label": "x", "amount": "1"}}"#), path: "")
    }

    /// A wire type whose keys can be listed looks for a known member first; what it refuses and
    /// accepts is the same as when it listed every key (spec W2).
    func testAContactOrCardRefusesOnlyAPayloadWithoutAKnownMember() throws {
        // Known members late in the type's list of keys, beside unknown ones.
        let contact = try decode(ApplePayPaymentContact.self, #"{"x": 1, "countryCode": "US", "postalCode": "78701"}"#)
        XCTAssertEqual(contact.countryCode, "US")
        XCTAssertEqual(contact.postalCode, "78701")
        XCTAssertEqual(try decode(ApplePayPaymentContact.self, "{}"), ApplePayPaymentContact())
        XCTAssertEqual(try decode(ApplePayPaymentMethod.self, #"{"bindToken": "b", "other": []}"#).bindToken, "b")
        assertDecodingFails(try decode(ApplePayPaymentContact.self, #"{"country_code": "US", "zip": "1"}"#), path: "")
        assertDecodingFails(try decode(ApplePayPaymentMethod.self, #"{"brand": "visa"}"#), path: "")
        assertDecodingFails(try decode(ApplePayPaymentContact.self, #"["US"]"#), path: "")
        assertDecodingFails(try decode(PaymentAddress.self, #"{"line1": "1 Main St"}"#), path: "")
    }
}
