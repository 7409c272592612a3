import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import Foundation
import XCTest

/// Spec W2: the flows' own JSON models refuse unknown keys, naming the key's path, and still read
/// their own encoding.
final class StrictModelDecodingTests: XCTestCase {
    private func refusedPath<T: Decodable>(_ type: T.Type, _ json: String) -> String? {
        do {
            let value = try JSONDecoder().decode(T.self, from: Data(json.utf8))
            XCTFail("\(T.self) accepted \(json) as \(value)")
        } catch DecodingError.dataCorrupted(let context) {
            return context.codingPath.map(\.stringValue).joined(separator: ".")
        } catch {
            XCTFail("expected dataCorrupted, got \(error)")
        }
        return nil
    }

    // Stripe's objects (CheckoutStripe) are wire shapes: they accept keys Stripe adds (spec W2),
    // and CheckoutStripeTests decodes Stripe's own fixtures with them.
    func testUnknownKeysAreRefused() {
        XCTAssertEqual(
            refusedPath(
                ShippingAddressConfiguration.self,
                #"{"requiredShippingAddressFields": ["postalAddress"], "shippingType": "shipping", "prefilled": {}}"#),
            "prefilled")
        XCTAssertEqual(
            refusedPath(
                ShippingAddressConfiguration.self,
                #"{"requiredShippingAddressFields": ["postalAddress"], "shippingType": "shipping", "#
                    + #""prefilledAddress": {"address": {"city": "Austin", "zip": "1"}}}"#),
            "prefilledAddress.address.zip")
    }

    func testModelsReadTheirOwnEncoding() throws {
        let address = Address(
            line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701", country: try CountryCode("US"))
        let intent = StripeIntent(
            id: "pi_1", kind: .paymentIntent, status: .requiresAction, amount: Money(minorUnits: 100, currency: .usd),
            paymentMethodID: "pm_1", shipping: ShippingDetails(name: "Jane", phone: "1", address: address),
            lastError: StripeError(
                type: "card_error", code: "card_declined", declineCode: "generic_decline", message: "no"))
        XCTAssertEqual(try JSONDecoder().decode(StripeIntent.self, from: JSONEncoder().encode(intent)), intent)
        let method = StripePaymentMethod(id: "pm_1", brand: "visa", last4: "4242")
        XCTAssertEqual(try JSONDecoder().decode(StripePaymentMethod.self, from: JSONEncoder().encode(method)), method)
        let configuration = ShippingAddressConfiguration(
            shippingType: .delivery, prefilledAddress: Contact(postalAddress: address), currency: .usd)
        XCTAssertEqual(
            try JSONDecoder().decode(ShippingAddressConfiguration.self, from: JSONEncoder().encode(configuration)),
            configuration)
    }
}
