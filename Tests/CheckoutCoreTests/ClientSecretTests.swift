import CheckoutCore
import XCTest

/// A valid secret and what it parses to.
private typealias ValidSecret = (text: String, kind: IntentClientSecret.Kind, intentID: String, scoped: Bool)

final class ClientSecretTests: XCTestCase {
    // spec P7: Stripe's own test vectors.
    private static let valid: [ValidSecret] = [
        ("pi_123_secret_abc", .paymentIntent, "pi_123", false),
        (
            "pi_1CkiBMLENEVhOs7YMtUehLau_secret_s4O8SDh7s6spSmHDw1VaYPGZA", .paymentIntent,
            "pi_1CkiBMLENEVhOs7YMtUehLau", false
        ),
        ("pi_123_scoped_secret_abc", .paymentIntent, "pi_123", true),
        ("seti_123_secret_abc", .setupIntent, "seti_123", false),
        (
            "seti_1Mm2dWLkdIwHu7ix7LhTtvOl_secret_NXFoJ9MvWkWX", .setupIntent,
            "seti_1Mm2dWLkdIwHu7ix7LhTtvOl", false
        ),
    ]

    private static let invalid = [
        "", "pi_123", "pi_123_secret_", "pi__secret_abc", "pi_123_secret_abc_def",
        "seti_123_scoped_secret_abc", "po_123_secret_abc", "sk_test_123", "pi_123_SECRET_abc",
        "PI_123_secret_abc", "pi_123_secret", "_pi_123_secret_abc", "pi_123_secret_abc_",
        "pi_123__secret_abc",
        "seti__secret_abc", "seti_123_secret_", "seti_123", "pi_123_scoped_abc", "pi_123_scoped_secret_",
        "pm_123_secret_abc", "secret_abc", "pi_secret_abc",
    ]

    func testValidSecrets() throws {
        // spec P7
        for (text, kind, intentID, scoped) in Self.valid {
            let secret = try IntentClientSecret(text)
            XCTAssertEqual(secret.kind, kind, text)
            XCTAssertEqual(secret.intentID, intentID, text)
            XCTAssertEqual(secret.isScoped, scoped, text)
            XCTAssertEqual(secret.unmaskedValue, text)
        }
    }

    func testInvalidSecrets() {
        // spec P7
        for text in Self.invalid {
            assertCheckoutError(
                try IntentClientSecret(text), code: .invalidClientSecret, field: "clientSecret", text)
        }
    }

    func testRenderingsNeverShowTheSecretPart() throws {
        // spec P7 and E8: a secret never appears unmasked in a description or log line.
        let cases: [(text: String, secretPart: String, masked: String)] = [
            (
                "pi_1CkiBMLENEVhOs7YMtUehLau_secret_s4O8SDh7s6spSmHDw1VaYPGZA", "s4O8SDh7s6spSmHDw1VaYPGZA",
                "pi_1CkiBMLENEVhOs7YMtUehLau_secret_•••"
            ),
            ("pi_123_scoped_secret_Zq9xTopSecret", "Zq9xTopSecret", "pi_123_scoped_secret_•••"),
            ("seti_123_secret_Zq9xTopSecret", "Zq9xTopSecret", "seti_123_secret_•••"),
        ]
        for (text, secretPart, masked) in cases {
            let secret = try IntentClientSecret(text)
            XCTAssertEqual(secret.description, masked)
            XCTAssertEqual(secret.debugDescription, "IntentClientSecret(\(masked))")
            var dumped = ""
            dump(secret, to: &dumped)
            var dumpedArray = ""
            dump([secret], to: &dumpedArray)
            let renderings = [
                secret.description, secret.debugDescription, "\(secret)", String(describing: secret),
                String(reflecting: secret), dumped, dumpedArray, "\([secret])", "\(Optional(secret) as Any)",
                "\(Mirror(reflecting: secret).children.map(\.value))",
            ]
            for rendering in renderings {
                XCTAssertFalse(rendering.contains(secretPart), "secret leaks in \(rendering)")
            }
            XCTAssertTrue(dumped.contains("•••"), dumped)
        }
    }

    func testErrorsNeverShowTheSecretPart() {
        // spec P7: an invalid secret is masked in the error's message and value too.
        let cases: [(text: String, secretPart: String)] = [
            ("pi_123_secret_Zq9xTopSecret_extra", "Zq9xTopSecret"),
            ("seti_123_scoped_secret_Zq9xTopSecret", "Zq9xTopSecret"),
            ("pi_123_SECRET_Zq9xTopSecret", "Zq9xTopSecret"),
            ("sk_test_Zq9xTopSecret", "Zq9xTopSecret"),
            ("Zq9xTopSecret", "xTopSecret"),
            ("pi_123_secret_Zq9xTopSecret_", "Zq9xTopSecret"),
        ]
        for (text, secretPart) in cases {
            guard
                let error = assertCheckoutError(
                    try IntentClientSecret(text), code: .invalidClientSecret, text)
            else {
                continue
            }
            for rendering in [error.message, error.value ?? "", error.description, String(reflecting: error)] {
                XCTAssertFalse(rendering.contains(secretPart), "secret leaks in \(rendering)")
            }
            XCTAssertTrue(error.value?.contains("•••") ?? false, error.value ?? "nil")
        }
    }

    func testJSONCarriesTheWholeSecret() throws {
        // A backend needs the secret, so JSON is the one place it is written in the clear.
        let secret = try IntentClientSecret("pi_123_secret_abc")
        let (decoded, json) = try JSON.roundTrip(secret)
        XCTAssertEqual(json, "\"pi_123_secret_abc\"")
        XCTAssertEqual(decoded, secret)
    }

    func testJSONErrorDoesNotShowTheSecret() throws {
        let error = try XCTUnwrap(
            assertDecodingError(try JSON.decode(IntentClientSecret.self, "\"pi_1_SECRET_Zq9xTopSecret\"")))
        XCTAssertEqual(error.underlyingCheckoutError?.code, .invalidClientSecret)
        XCTAssertFalse("\(error)".contains("Zq9xTopSecret"), "\(error)")
        XCTAssertFalse(String(reflecting: error).contains("Zq9xTopSecret"))
    }

    func testEqualityIsByValue() throws {
        XCTAssertEqual(try IntentClientSecret("pi_1_secret_a"), try IntentClientSecret("pi_1_secret_a"))
        XCTAssertNotEqual(try IntentClientSecret("pi_1_secret_a"), try IntentClientSecret("pi_1_secret_b"))
        // Both share a description but are different secrets.
        XCTAssertEqual(
            try IntentClientSecret("pi_1_secret_a").description,
            try IntentClientSecret("pi_1_secret_b").description)
    }
}
