import CheckoutCore
import CheckoutStripe
import Foundation
import XCTest

/// Spec P10: every object of Stripe's published fixtures (stripe/openapi `openapi/fixtures3.json`,
/// see Fixtures/README.md), and variants with what Stripe added later, comes back from a round
/// trip as the same JSON: same keys, same values, nulls and empty hashes included.
final class StripeRoundTripTests: XCTestCase {
    private func fixture(_ name: String) throws -> Data {
        let url = try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }

    private func object(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func data(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    /// JSON text with sorted keys: equal JSON, equal bytes.
    private func canonical(_ data: Data) throws -> String {
        let value = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        let text = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: text, as: UTF8.self)
    }

    /// Decodes `data` as `T`, encodes it again and asserts the JSON is the same, byte for byte
    /// once keys are sorted; returns the decoded value.
    @discardableResult
    private func assertRoundTrip<T: Codable & Equatable>(
        _ type: T.Type, _ data: Data, file: StaticString = #filePath, line: UInt = #line
    ) throws -> T {
        let value = try JSONDecoder().decode(T.self, from: data)
        let encoded = try JSONEncoder().encode(value)
        XCTAssertEqual(
            try canonical(encoded), try canonical(data), "\(T.self) lost or changed a field", file: file, line: line)
        XCTAssertEqual(try JSONDecoder().decode(T.self, from: encoded), value, file: file, line: line)
        return value
    }

    func testEveryFixtureComesBackWhole() throws {
        try assertRoundTrip(StripeIntent.self, try fixture("payment_intent"))
        try assertRoundTrip(StripeIntent.self, try fixture("setup_intent"))
        try assertRoundTrip(StripePaymentMethod.self, try fixture("payment_method"))
        try assertRoundTrip(StripeCharge.self, try fixture("charge"))
        try assertRoundTrip(StripeEvent.self, try fixture("event"))
        let token = try assertRoundTrip(StripeConfirmationToken.self, try fixture("confirmation_token"))
        XCTAssertEqual(token.options.returnURL, "https://example.com/return")
        XCTAssertEqual(token.options.setupFutureUsage, .offSession)
        XCTAssertEqual(token.shipping?.name, "Jenny Rosen")
        XCTAssertEqual(token.paymentMethodPreview?["type"]?.stringValue, "us_bank_account")
        XCTAssertFalse(token.isUsed)
        try assertRoundTrip(StripeErrorResponse.self, try fixture("error_card_declined"))
        try assertRoundTrip(StripeErrorResponse.self, try fixture("error_fixture_envelope"))
    }

    func testFieldsThePackageDoesNotModelAreKeptAndReadable() throws {
        let intent = try assertRoundTrip(StripeIntent.self, try fixture("payment_intent"))
        XCTAssertEqual(intent.unmodeledFields["payment_method_types"], .array([.string("card")]))
        XCTAssertEqual(intent.field("automatic_payment_methods.enabled"), .bool(true))
        XCTAssertEqual(intent.field("transfer_data.destination.object")?.stringValue, "account")
        XCTAssertEqual(intent.field("payment_method_types.0")?.stringValue, "card")
        XCTAssertNil(intent.field("payment_method_types.1"), "past the end of the array")
        XCTAssertNil(intent.field("amount.value"), "inside a number")
        XCTAssertEqual(intent.field("amount")?.integerValue, 1_099, "modeled fields read by path too")
        XCTAssertEqual(intent.field("application"), .null)
        XCTAssertEqual(intent.field("shipping"), .object([:]), "the empty hash as Stripe sent it")
    }

    func testNewerFieldsOnAnIntentAndItsErrorAreWrittenBack() throws {
        var json = try object(try fixture("payment_intent"))
        json["presentment_details"] = ["presentment_amount": 1_099, "presentment_currency": "eur"]
        json["payment_details"] = ["order_reference": "A-1", "customer_reference": NSNull()]
        json["hooks"] = ["inputs": ["tax": ["calculation": "taxcalc_1"]]]
        json["amount_details"] = ["tip": ["amount": 200], "line_items": ["object": "list", "data": []]]
        var error = try XCTUnwrap(try object(try fixture("error_card_declined"))["error"] as? [String: Any])
        error["user_message"] = "Votre carte a été refusée."
        json["last_payment_error"] = error
        let intent = try assertRoundTrip(StripeIntent.self, try data(json))
        XCTAssertEqual(intent.field("presentment_details.presentment_currency")?.stringValue, "eur")
        XCTAssertEqual(intent.field("hooks.inputs.tax.calculation")?.stringValue, "taxcalc_1")
        XCTAssertEqual(intent.field("amount_details.tip.amount")?.integerValue, 200)
        XCTAssertEqual(intent.lastError?.unmodeledFields["user_message"]?.stringValue, "Votre carte a été refusée.")
        XCTAssertEqual(intent.lastError?.declineCode, "insufficient_funds")
    }

    func testWhatAServerReadsIsTyped() throws {
        var json = try object(try fixture("payment_intent"))
        json["metadata"] = ["order_id": "6735"]
        json["amount_received"] = 1_099
        json["amount_capturable"] = 0
        json["customer"] = "cus_NffrFeUfNV2Hib"
        json["setup_future_usage"] = "off_session"
        json["cancellation_reason"] = "requested_by_customer"
        json["status"] = "succeeded"
        var method = try object(try fixture("payment_method"))
        var card = try XCTUnwrap(method["card"] as? [String: Any])
        card["wallet"] = ["type": "apple_pay", "dynamic_last4": "4242", "apple_pay": ["type": "apple_pay"]]
        method["card"] = card
        json["payment_method"] = method
        var charge = try object(try fixture("charge"))
        charge["payment_intent"] = "pi_1PgafyB7WZ01zgkWSjxsAJo3"
        json["latest_charge"] = charge
        let intent = try assertRoundTrip(StripeIntent.self, try data(json))
        XCTAssertEqual(intent.metadata?["order_id"], "6735")
        XCTAssertEqual(intent.amountReceived, 1_099)
        XCTAssertEqual(intent.amountCapturable, 0)
        XCTAssertEqual(intent.customerID, "cus_NffrFeUfNV2Hib")
        XCTAssertEqual(intent.setupFutureUsage, .offSession)
        XCTAssertEqual(intent.cancellationReason, "requested_by_customer")
        XCTAssertEqual(intent.canceledAt, 1_234_567_890)
        XCTAssertEqual(intent.paymentMethodID, "pm_1Pgc75B7WZ01zgkWlHVgdEGJ")
        let expanded = try XCTUnwrap(intent.paymentMethod)
        XCTAssertEqual(expanded.card?.brand, "visa")
        XCTAssertEqual(expanded.card?.last4, "4242")
        XCTAssertEqual(expanded.card?.wallet?.type, "apple_pay")
        XCTAssertEqual(expanded.card?.wallet?.unmodeledFields["apple_pay"], .object(["type": .string("apple_pay")]))
        XCTAssertEqual(intent.latestChargeID, "ch_1PgafuB7WZ01zgkWXYmPNZs8")
        let latest = try XCTUnwrap(intent.latestCharge)
        XCTAssertEqual(latest.receiptURL?.hasPrefix("https://"), true)
        XCTAssertEqual(latest.outcome?.type, "type")
        XCTAssertEqual(latest.walletType, "link")
        XCTAssertNil(latest.threeDSecureResult, "the fixture's 3-D Secure result is null")
        XCTAssertEqual(latest.paymentIntentID, intent.id)
        XCTAssertEqual(latest.paymentMethodID, "card_1PgaftB7WZ01zgkWm3waTcFp")
    }

    func testAPaymentMethodsCardDetailsAreTyped() throws {
        let method = try assertRoundTrip(StripePaymentMethod.self, try fixture("payment_method"))
        let json = try object(try fixture("payment_method"))
        let card = try XCTUnwrap(method.card)
        let original = try XCTUnwrap(json["card"] as? [String: Any])
        XCTAssertEqual(card.displayBrand, original["display_brand"] as? String)
        XCTAssertEqual(card.fingerprint, original["fingerprint"] as? String)
        let networks = try XCTUnwrap(original["networks"] as? [String: Any])
        XCTAssertEqual(card.availableNetworks, networks["available"] as? [String])
        XCTAssertEqual(card.preferredNetwork, networks["preferred"] as? String)
        let usage = try XCTUnwrap(original["three_d_secure_usage"] as? [String: Any])
        XCTAssertEqual(card.threeDSecureSupported, usage["supported"] as? Bool)
        let billing = try XCTUnwrap(method.billingDetails)
        XCTAssertEqual(billing.email, "jenny@example.com")
        XCTAssertEqual(billing.address?.postalCode, "94102")
        XCTAssertEqual(billing.address?.country, .us)
        XCTAssertNil(billing.address?.line2)
    }

    func testAChangedMemberIsWrittenInsteadOfTheKeptValue() throws {
        var intent = try JSONDecoder().decode(StripeIntent.self, from: try fixture("payment_intent"))
        intent.setupFutureUsage = .onSession
        intent.metadata = ["order_id": "7"]
        intent.paymentMethodID = "pm_2"
        let json = try object(try JSONEncoder().encode(intent))
        XCTAssertEqual(json["setup_future_usage"] as? String, "on_session", "was null in the fixture")
        XCTAssertEqual(json["metadata"] as? [String: String], ["order_id": "7"])
        XCTAssertEqual(json["payment_method"] as? String, "pm_2")
        intent.shipping = ShippingDetails(name: "Jenny Rosen", address: Address(line1: "1 Main St", country: .us))
        let shipped = try object(try JSONEncoder().encode(intent))
        XCTAssertEqual(
            (shipped["shipping"] as? [String: Any])?["name"] as? String, "Jenny Rosen", "was {} in the fixture")
    }

    func testAnExpandedObjectInsideAnotherComesBackWhole() throws {
        var charge = try object(try fixture("charge"))
        charge["payment_intent"] = try object(try fixture("payment_intent"))
        charge["customer"] = ["id": "cus_1", "object": "customer", "email": "jenny@example.com"]
        let decoded = try assertRoundTrip(StripeCharge.self, try data(charge))
        XCTAssertEqual(decoded.paymentIntentID, "pi_1PgafyB7WZ01zgkWSjxsAJo3")
        var intent = try object(try fixture("payment_intent"))
        intent["customer"] = ["id": "cus_1", "object": "customer", "email": "jenny@example.com"]
        XCTAssertEqual(try assertRoundTrip(StripeIntent.self, try data(intent)).customerID, "cus_1")
    }
}
