import CheckoutCore
import CheckoutWeb
import Foundation
import XCTest

/// Spec W2: a payload decoded into a model that is not its type is refused, never read as an
/// empty or partial value.
final class WrongModelTests: XCTestCase {
    /// Every keyed Codable model of CheckoutCore, by name.
    private let coreModels: [(String, (Data) throws -> Any)] = [
        ("Money", { try JSONDecoder().decode(Money.self, from: $0) }),
        ("Contact", { try JSONDecoder().decode(Contact.self, from: $0) }),
        ("Address", { try JSONDecoder().decode(Address.self, from: $0) }),
        ("DeliveryDateRange", { try JSONDecoder().decode(DeliveryDateRange.self, from: $0) }),
        ("ShippingMethod", { try JSONDecoder().decode(ShippingMethod.self, from: $0) }),
        ("SummaryItem", { try JSONDecoder().decode(SummaryItem.self, from: $0) }),
        ("PaymentMethod", { try JSONDecoder().decode(PaymentMethod.self, from: $0) }),
        ("PaymentToken", { try JSONDecoder().decode(PaymentToken.self, from: $0) }),
        ("Payment", { try JSONDecoder().decode(Payment.self, from: $0) }),
        ("PaymentError", { try JSONDecoder().decode(PaymentError.self, from: $0) }),
        ("PaymentAuthorizationResult", { try JSONDecoder().decode(PaymentAuthorizationResult.self, from: $0) }),
        ("PaymentRequest", { try JSONDecoder().decode(PaymentRequest.self, from: $0) }),
        ("ShippingContactUpdate", { try JSONDecoder().decode(ShippingContactUpdate.self, from: $0) }),
        ("ShippingMethodUpdate", { try JSONDecoder().decode(ShippingMethodUpdate.self, from: $0) }),
        ("PaymentMethodUpdate", { try JSONDecoder().decode(PaymentMethodUpdate.self, from: $0) }),
        ("CouponCodeUpdate", { try JSONDecoder().decode(CouponCodeUpdate.self, from: $0) }),
    ]

    /// Every wire payload, by its dictionary's name.
    private let wirePayloads: [(String, String)] = [
        ("ApplePayPaymentContact", Payloads.applePayPaymentContact),
        ("ApplePayLineItem", Payloads.applePayLineItem),
        ("ApplePayShippingMethod", Payloads.applePayShippingMethod),
        ("ApplePayPaymentPass", Payloads.applePayPaymentPass),
        ("ApplePayPaymentMethod", Payloads.applePayPaymentMethod),
        ("ApplePayPaymentToken", Payloads.applePayPaymentToken),
        ("ApplePayPayment", Payloads.applePayPayment),
        ("ApplePayPaymentRequest", Payloads.applePayPaymentRequest),
        ("ApplePayError", Payloads.applePayError),
        ("ApplePayShippingContactUpdate", Payloads.applePayShippingContactUpdate),
        ("ApplePayShippingMethodUpdate", Payloads.applePayShippingMethodUpdate),
        ("ApplePayPaymentMethodUpdate", Payloads.applePayPaymentMethodUpdate),
        ("ApplePayCouponCodeUpdate", Payloads.applePayCouponCodeUpdate),
        ("ApplePayPaymentAuthorizationResult", Payloads.applePayPaymentAuthorizationResult),
        ("PaymentAddress", Payloads.paymentAddress),
        ("PaymentItem", Payloads.paymentItem),
        ("PaymentShippingOption", Payloads.paymentShippingOption),
        ("PaymentDetailsUpdate", Payloads.paymentDetailsUpdate),
        ("AddressErrors", #"{"postalCode": "Unknown postal code", "region": "Unknown state"}"#),
    ]

    func testPayerErrorsHaveTheShapeOfACoreContact() throws {
        // The one known collision: W3C PayerErrors' members (`email`, `name`, `phone`, all strings)
        // are also the core Contact's keys, so key checks cannot tell the two apart. PayerErrors
        // only ever arrives inside a PaymentDetailsUpdate, which every core model refuses (above).
        let payerErrors = #"{"email": "Invalid email", "phone": "Invalid phone"}"#
        XCTAssertEqual(
            try decode(Contact.self, payerErrors), Contact(emailAddress: "Invalid email", phoneNumber: "Invalid phone"))
        for (coreName, decodeCore) in coreModels where coreName != "Contact" {
            XCTAssertThrowsError(try decodeCore(Data(payerErrors.utf8)), coreName)
        }
    }

    func testEveryWirePayloadIsRefusedByEveryCoreModel() {
        for (wireName, payload) in wirePayloads {
            for (coreName, decodeCore) in coreModels {
                do {
                    let value = try decodeCore(Data(payload.utf8))
                    XCTFail("\(wireName) decoded as a core \(coreName): \(value)")
                } catch is DecodingError {
                    // Refused, as it must be.
                } catch {
                    XCTFail("\(wireName) as \(coreName): expected a DecodingError, got \(error)")
                }
            }
        }
    }

    func testTheIssuesExamplesAreRefusedWithTheKeysPath() {
        // An ApplePayPaymentContact used to decode into an empty Contact.
        assertDecodingFails(try decode(Contact.self, Payloads.applePayPaymentContact), path: "addressLines")
        // A W3C PaymentAddress used to decode as "Austin, US".
        assertDecodingFails(try decode(Address.self, Payloads.paymentAddress), path: "addressLine")
        // A W3C PaymentItem with pending: true used to become final.
        assertDecodingFails(try decode(SummaryItem.self, Payloads.paymentItem), path: "pending")
        // Nested: the path leads to the unknown key.
        let request = """
            {"merchantIdentifier": "m", "countryCode": "US", "currencyCode": "USD",
             "summaryItems": [{"label": "Total", "amount": {"currency": "USD", "value": "1.00"}, "pending": true}]}
            """
        assertDecodingFails(try decode(PaymentRequest.self, request), path: "summaryItems[0].pending")
    }

    func testCoreModelsStillReadTheirOwnJSON() throws {
        // The refusal above is not vacuous: each model reads its own encoding.
        let usd = CurrencyCode.usd
        let method = ShippingMethod(
            identifier: "standard", label: "Standard", detail: "3-5 days", amount: Money(minorUnits: 99, currency: usd),
            deliveryDateRange: try DeliveryDateRange(start: CalendarDay("2026-12-04"), end: CalendarDay("2026-12-06")))
        let contact = Contact(
            name: "Jane Doe", emailAddress: "jane@example.com", phoneNumber: "+1 512 555 0100",
            postalAddress: Address(
                line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701", country: try CountryCode("US")))
        let items = [SummaryItem(label: "Total", amount: Money(minorUnits: 199, currency: usd), type: .pending)]
        let token = PaymentToken(
            paymentMethod: PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit),
            transactionIdentifier: "t", paymentData: "pm_card_visa")
        try assertCoreRoundTrip(method)
        try assertCoreRoundTrip(contact)
        try assertCoreRoundTrip(items[0])
        try assertCoreRoundTrip(
            Payment(token: token, billingContact: contact, shippingContact: contact, shippingMethod: method))
        try assertCoreRoundTrip(
            PaymentAuthorizationResult(status: .failure, errors: [.shippingContactInvalid(.postalCode, "x")]))
        try assertCoreRoundTrip(
            PaymentRequest(
                merchantIdentifier: "m", countryCode: "US", currencyCode: "USD",
                requiredShippingContactFields: [.postalAddress],
                shippingMethods: [method], summaryItems: items, couponCode: "C", supportsCouponCode: true))
        try assertCoreRoundTrip(
            ShippingContactUpdate(
                errors: [.shippingAddressUnserviceable("no")], summaryItems: items, shippingMethods: []))
        try assertCoreRoundTrip(ShippingMethodUpdate(summaryItems: items))
        try assertCoreRoundTrip(PaymentMethodUpdate(errors: [.billingContactInvalid(.city, "x")], summaryItems: items))
        try assertCoreRoundTrip(
            CouponCodeUpdate(errors: [.couponCodeExpired("old")], summaryItems: items, shippingMethods: [method]))
    }

    private func assertCoreRoundTrip<T: Codable & Equatable>(
        _ value: T, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(try JSONDecoder().decode(T.self, from: encode(value)), value, file: file, line: line)
    }
}
