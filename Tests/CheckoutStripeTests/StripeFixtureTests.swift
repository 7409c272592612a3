import CheckoutCore
import CheckoutStripe
import Foundation
import XCTest

/// Stripe's published fixtures (stripe/openapi `fixtures3.json`) decode into the package's
/// objects, and re-encode without losing a field the package models.
final class StripeFixtureTests: XCTestCase {
    private func fixture(_ name: String) throws -> Data {
        let url = try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }

    private func object(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Every key in `keys` has the same value in both objects; JSON null and an absent key are
    /// the same to Stripe.
    private func assertSameFields(
        _ keys: [String], _ original: [String: Any], _ reencoded: [String: Any],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for key in keys {
            let before = original[key].flatMap(withoutNulls)
            let after = reencoded[key].flatMap(withoutNulls)
            XCTAssertEqual(
                canonical(before), canonical(after), "field \(key) changed in the round trip", file: file, line: line)
        }
    }

    /// JSON text with sorted keys, so that equal values compare equal.
    private func canonical(_ value: Any?) -> String? {
        guard let value else { return nil }
        let data = try? JSONSerialization.data(withJSONObject: ["v": value], options: [.sortedKeys])
        return data.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The value with JSON nulls removed at every depth (nil for a null itself).
    private func withoutNulls(_ value: Any) -> Any? {
        if value is NSNull { return nil }
        if let hash = value as? [String: Any] { return hash.compactMapValues(withoutNulls) }
        if let list = value as? [Any] { return list.compactMap(withoutNulls) }
        return value
    }

    func testPaymentIntentFixture() throws {
        let data = try fixture("payment_intent")
        let intent = try JSONDecoder().decode(StripeIntent.self, from: data)
        XCTAssertEqual(intent.id, "pi_1PgafyB7WZ01zgkWSjxsAJo3")
        XCTAssertEqual(intent.kind, .paymentIntent)
        XCTAssertEqual(intent.status, .requiresPaymentMethod)
        XCTAssertEqual(intent.amount, Money(minorUnits: 1_099, currency: .usd))
        XCTAssertEqual(intent.captureMethod, .automatic)
        XCTAssertEqual(intent.confirmationMethod, .automatic)
        XCTAssertEqual(intent.lastError?.type, "idempotency_error")
        XCTAssertEqual(intent.lastError?.message, "", "Stripe's error object may come without a message")
        XCTAssertEqual(intent.nextAction?.type, "type")
        XCTAssertEqual(intent.clientSecret?.intentID, intent.id)
        XCTAssertNil(intent.shipping, "the fixture's empty shipping hash is no shipping")
        let reencoded = try object(try JSONEncoder().encode(intent))
        assertSameFields(
            [
                "id", "object", "status", "amount", "currency", "capture_method", "confirmation_method",
                "payment_method", "client_secret", "latest_charge", "livemode", "created",
            ], try object(data), reencoded)
        XCTAssertEqual((reencoded["last_payment_error"] as? [String: Any])?["type"] as? String, "idempotency_error")
        XCTAssertEqual((reencoded["next_action"] as? [String: Any])?["type"] as? String, "type")
        XCTAssertEqual(try JSONDecoder().decode(StripeIntent.self, from: try JSONEncoder().encode(intent)), intent)
    }

    func testEveryCaptureMethodAndStatusDecodes() throws {
        var json = try object(try fixture("payment_intent"))
        for method in CaptureMethod.allCases {
            json["capture_method"] = method.rawValue
            let intent = try JSONDecoder().decode(
                StripeIntent.self, from: try JSONSerialization.data(withJSONObject: json))
            XCTAssertEqual(intent.captureMethod, method)
        }
        XCTAssertEqual(CaptureMethod(rawValue: "automatic_async"), .automaticAsync, "the default since 2024-04-10")
        let statuses = [
            "requires_payment_method", "requires_confirmation", "requires_action", "processing", "requires_capture",
            "canceled", "succeeded",
        ]
        for status in statuses {
            json["status"] = status
            let intent = try JSONDecoder().decode(
                StripeIntent.self, from: try JSONSerialization.data(withJSONObject: json))
            XCTAssertEqual(intent.status.rawValue, status)
        }
        json.removeValue(forKey: "capture_method")
        let defaulted = try JSONDecoder().decode(
            StripeIntent.self, from: try JSONSerialization.data(withJSONObject: json))
        XCTAssertEqual(defaulted.captureMethod, .automaticAsync)
    }

    func testPaymentIntentWithShippingAndExpandedPaymentMethod() throws {
        var json = try object(try fixture("payment_intent"))
        json["shipping"] = [
            "name": "Jenny Rosen", "phone": NSNull(),
            "address": [
                "line1": "1 Main St", "city": "Austin", "state": "TX", "postal_code": "78701", "country": "US",
            ],
        ]
        json["payment_method"] = try object(try fixture("payment_method"))
        json["currency"] = "jpy"
        json["amount"] = 500
        let intent = try JSONDecoder().decode(StripeIntent.self, from: try JSONSerialization.data(withJSONObject: json))
        XCTAssertEqual(intent.shipping?.name, "Jenny Rosen")
        XCTAssertEqual(intent.shipping?.address.postalCode, "78701")
        XCTAssertEqual(intent.shipping?.address.country, .us)
        XCTAssertEqual(intent.paymentMethodID, "pm_1Pgc75B7WZ01zgkWlHVgdEGJ")
        XCTAssertEqual(intent.amount, Money(minorUnits: 500, currency: try CurrencyCode("JPY")))
        let reencoded = try object(try JSONEncoder().encode(intent))
        XCTAssertEqual(reencoded["currency"] as? String, "jpy", "currencies are lower case in Stripe's JSON")
        XCTAssertEqual(reencoded["amount"] as? Int, 500)
        let shipping = try XCTUnwrap(reencoded["shipping"] as? [String: Any])
        XCTAssertEqual((shipping["address"] as? [String: Any])?["postal_code"] as? String, "78701")
    }

    func testSetupIntentFixture() throws {
        let data = try fixture("setup_intent")
        let intent = try JSONDecoder().decode(StripeIntent.self, from: data)
        XCTAssertEqual(intent.kind, .setupIntent)
        XCTAssertEqual(intent.id, "seti_1Pgag7B7WZ01zgkWSgwGdb8Z")
        XCTAssertEqual(intent.status, .requiresPaymentMethod)
        XCTAssertNil(intent.amount)
        XCTAssertEqual(intent.lastError?.type, "idempotency_error", "a SetupIntent's error is last_setup_error")
        let reencoded = try object(try JSONEncoder().encode(intent))
        assertSameFields(
            ["id", "object", "status", "payment_method", "client_secret", "livemode", "created"], try object(data),
            reencoded)
        XCTAssertNotNil(reencoded["last_setup_error"])
        XCTAssertNil(reencoded["last_payment_error"])
        XCTAssertNil(reencoded["amount"])
    }

    func testPaymentMethodFixture() throws {
        let data = try fixture("payment_method")
        let method = try JSONDecoder().decode(StripePaymentMethod.self, from: data)
        XCTAssertEqual(method.id, "pm_1Pgc75B7WZ01zgkWlHVgdEGJ")
        XCTAssertEqual(method.type, "card")
        let card = try XCTUnwrap(method.card)
        XCTAssertEqual(card.brand, "visa")
        XCTAssertEqual(card.last4, "4242")
        XCTAssertEqual(card.expMonth, 8)
        XCTAssertEqual(card.expYear, 2030)
        XCTAssertEqual(card.funding, "credit")
        XCTAssertEqual(card.country, "US")
        XCTAssertEqual(card.wallet?.type, "link")
        XCTAssertEqual(card.checks?.cvcCheck, "pass")
        let original = try object(data)
        let reencoded = try object(try JSONEncoder().encode(method))
        assertSameFields(["id", "object", "type", "livemode", "created"], original, reencoded)
        assertSameFields(
            ["brand", "last4", "exp_month", "exp_year", "funding", "country", "wallet", "checks"],
            try XCTUnwrap(original["card"] as? [String: Any]), try XCTUnwrap(reencoded["card"] as? [String: Any]))
        XCTAssertEqual(
            try JSONDecoder().decode(StripePaymentMethod.self, from: try JSONEncoder().encode(method)), method)
    }

    func testErrorFixturesInTheirEnvelope() throws {
        let bare = try JSONDecoder().decode(StripeErrorResponse.self, from: try fixture("error_fixture_envelope"))
        XCTAssertEqual(bare.error, StripeError(type: "idempotency_error", message: ""))
        let data = try fixture("error_card_declined")
        let response = try JSONDecoder().decode(StripeErrorResponse.self, from: data)
        let error = response.error
        XCTAssertEqual(error.type, "card_error")
        XCTAssertEqual(error.code, "card_declined")
        XCTAssertEqual(error.declineCode, "insufficient_funds")
        XCTAssertEqual(error.param, "")
        XCTAssertEqual(error.adviceCode, "try_again_later")
        XCTAssertEqual(error.networkDeclineCode, "51")
        XCTAssertEqual(error.paymentMethodType, "card")
        XCTAssertEqual(error.docURL, "https://stripe.com/docs/error-codes/card-declined")
        XCTAssertNotNil(error.requestLogURL)
        XCTAssertNotNil(error.charge)
        let original = try XCTUnwrap(try object(data)["error"] as? [String: Any])
        let reencoded = try XCTUnwrap(try object(try JSONEncoder().encode(response))["error"] as? [String: Any])
        XCTAssertEqual(Set(original.keys), Set(reencoded.keys))
        assertSameFields(Array(original.keys), original, reencoded)
    }

    func testErrorWithItsIntent() throws {
        var envelope = try object(try fixture("error_card_declined"))
        var error = try XCTUnwrap(envelope["error"] as? [String: Any])
        error["payment_intent"] = try object(try fixture("payment_intent"))
        envelope["error"] = error
        let decoded = try JSONDecoder().decode(
            StripeErrorResponse.self, from: try JSONSerialization.data(withJSONObject: envelope))
        XCTAssertEqual(decoded.error.paymentIntent?.id, "pi_1PgafyB7WZ01zgkWSjxsAJo3")
        XCTAssertEqual(decoded.error.paymentIntent?.lastError?.type, "idempotency_error")
    }

    func testWrongObjectIsRefused() throws {
        var json = try object(try fixture("payment_intent"))
        json["object"] = "charge"
        XCTAssertThrowsError(
            try JSONDecoder().decode(StripeIntent.self, from: try JSONSerialization.data(withJSONObject: json)))
        var method = try object(try fixture("payment_method"))
        method["object"] = "card"
        XCTAssertThrowsError(
            try JSONDecoder().decode(StripePaymentMethod.self, from: try JSONSerialization.data(withJSONObject: method))
        )
    }

    func testDescriptionsMaskTheClientSecret() throws {
        let intent = try JSONDecoder().decode(StripeIntent.self, from: try fixture("payment_intent"))
        var dumped = ""
        dump(intent, to: &dumped)
        for text in [dumped, "\(intent)", String(reflecting: intent)] {
            XCTAssertFalse(text.contains("Dm43xiq1k0ywrRRjDoi8y1gkM"), text)
        }
    }
}
