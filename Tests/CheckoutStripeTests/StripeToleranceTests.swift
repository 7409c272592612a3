import CheckoutCore
import CheckoutStripe
import Foundation
import XCTest

/// Spec P10: what Stripe calls backwards-compatible (a new enum value, a currency the ISO table
/// has withdrawn, an identifier or secret of a new shape) decodes, is kept as sent and is written
/// back; charging still follows the strict ISO table (spec M). Variants of Stripe's own fixture
/// (stripe/openapi `openapi/fixtures3.json`, `payment_intent`).
final class StripeToleranceTests: XCTestCase {
    private func intentJSON() throws -> [String: Any] {
        let url = try XCTUnwrap(
            Bundle.module.url(forResource: "payment_intent", withExtension: "json", subdirectory: "Fixtures"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    private func decodeAndReencode(_ json: [String: Any]) throws -> (StripeIntent, [String: Any]) {
        let intent = try JSONDecoder().decode(StripeIntent.self, from: try JSONSerialization.data(withJSONObject: json))
        let back = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(intent))
        return (intent, try XCTUnwrap(back as? [String: Any]))
    }

    func testUnknownEnumValuesReadAsUnknownAndAreWrittenBack() throws {
        var json = try intentJSON()
        json["capture_method"] = "automatic_delayed"
        json["confirmation_method"] = "hybrid"
        json["setup_future_usage"] = "on_next_visit"
        let (intent, back) = try decodeAndReencode(json)
        XCTAssertEqual(intent.captureMethod, .unknown("automatic_delayed"))
        XCTAssertEqual(intent.confirmationMethod, .unknown("hybrid"))
        XCTAssertEqual(intent.setupFutureUsage, .unknown("on_next_visit"))
        XCTAssertEqual(back["capture_method"] as? String, "automatic_delayed")
        XCTAssertEqual(back["confirmation_method"] as? String, "hybrid")
        XCTAssertEqual(back["setup_future_usage"] as? String, "on_next_visit")
        XCTAssertEqual(CaptureMethod(rawValue: "manual"), .manual, "a known value is never unknown")
        XCTAssertEqual(SetupFutureUsage(rawValue: "off_session"), .offSession)
        XCTAssertEqual(ConfirmationMethod.unknown("hybrid").rawValue, "hybrid")
    }

    func testAWithdrawnCurrencyDecodesAndIsKeptWhileChargingRefusesIt() throws {
        var json = try intentJSON()
        json["currency"] = "bgn"
        json["amount"] = 2_500
        let (intent, back) = try decodeAndReencode(json)
        XCTAssertNil(intent.amount, "BGN is not in ISO 4217 list one since amendment 180")
        XCTAssertEqual(intent.currency, "bgn")
        XCTAssertEqual(intent.amountInStripeUnits, 2_500)
        XCTAssertEqual(back["currency"] as? String, "bgn")
        XCTAssertEqual(back["amount"] as? Int, 2_500)
        XCTAssertThrowsError(try CurrencyCode("bgn"), "charging still uses the strict table") { error in
            XCTAssertEqual((error as? CheckoutError)?.code, .unknownCurrency)
        }
    }

    func testAWithdrawnCurrencyInAnErrorEnvelopeKeepsTheDeclineCode() throws {
        var intent = try intentJSON()
        intent["currency"] = "bgn"
        let envelope: [String: Any] = [
            "error": [
                "type": "card_error", "code": "card_declined", "decline_code": "insufficient_funds",
                "message": "Your card has insufficient funds.", "payment_intent": intent,
            ]
        ]
        let decoded = try JSONDecoder().decode(
            StripeErrorResponse.self, from: try JSONSerialization.data(withJSONObject: envelope))
        XCTAssertEqual(decoded.error.declineCode, "insufficient_funds")
        XCTAssertEqual(decoded.error.paymentIntent?.currency, "bgn")
    }

    func testACurrencyThatIsNotThreeLettersIsRefusedNamingTheField() throws {
        var json = try intentJSON()
        json["currency"] = "us1"
        XCTAssertThrowsError(try decodeAndReencode(json)) { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else {
                return XCTFail("expected dataCorrupted, got \(error)")
            }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["currency"])
            XCTAssertTrue(context.debugDescription.contains("us1"), context.debugDescription)
        }
    }

    func testAClientSecretOfANewShapeIsKeptAsSent() throws {
        var json = try intentJSON()
        json["client_secret"] = "pi_1PgafyB7WZ01zgkWSjxsAJo3_csv2_secret_Dm43xiq1k0yw"
        json["id"] = "pi_1PgafyB7WZ01zgkWSjxsAJo3"
        let (intent, back) = try decodeAndReencode(json)
        XCTAssertNil(intent.clientSecret, "not a shape IntentClientSecret knows")
        XCTAssertEqual(back["client_secret"] as? String, "pi_1PgafyB7WZ01zgkWSjxsAJo3_csv2_secret_Dm43xiq1k0yw")
        var dumped = ""
        dump(intent, to: &dumped)
        for text in [dumped, "\(intent)", String(reflecting: intent)] {
            XCTAssertFalse(text.contains("Dm43xiq1k0yw"), "a kept secret is masked: \(text)")
        }
        json["id"] = "pi_3Q0a6-new.shape"
        let (renamed, renamedBack) = try decodeAndReencode(json)
        XCTAssertEqual(renamed.id, "pi_3Q0a6-new.shape", "identifiers are opaque strings")
        XCTAssertEqual(renamedBack["id"] as? String, "pi_3Q0a6-new.shape")
    }
}
