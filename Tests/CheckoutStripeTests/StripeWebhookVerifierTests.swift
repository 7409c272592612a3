import CheckoutCore
import CheckoutStripe
import Foundation
import XCTest

/// Spec P10: a webhook is accepted only with a `Stripe-Signature` whose timestamp is within the
/// tolerance on the injected clock and one of whose `v1` signatures is the HMAC-SHA256 of
/// `"{t}.{body}"` under one of the endpoint's secrets; every kind of tampering is refused with its
/// reason and never the secret.
///
/// The body is Stripe's `event` fixture (stripe/openapi `openapi/fixtures3.json`), the file's bytes
/// as they are. The signatures were computed independently, with Python's `hmac` module:
/// `hmac.new(secret.encode(), b"1700000000." + body, hashlib.sha256).hexdigest()`.
final class StripeWebhookVerifierTests: XCTestCase {
    private let oldSecret = "whsec_test_secret_old"
    private let newSecret = "whsec_test_secret_new"
    private let timestamp: Int64 = 1_700_000_000
    private let oldSignature = "08e6abcec7924850bab81aad988833cbefde92a798277fc3443d3fd789da4ffb"
    private let newSignature = "3f3ed42c092e7b939839cd870522ccf185e23289bdfa6fd7bd4f825f59928792"

    private func body() throws -> Data {
        let url = try XCTUnwrap(
            Bundle.module.url(forResource: "event", withExtension: "json", subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }

    /// A verifier whose clock reads `timestamp + secondsLater`.
    private func verifier(
        _ secrets: [String], secondsLater: Int64 = 10, tolerance: Duration = StripeWebhookVerifier.defaultTolerance
    ) throws -> StripeWebhookVerifier {
        let now = Date(timeIntervalSince1970: TimeInterval(timestamp + secondsLater))
        return try StripeWebhookVerifier(secrets: secrets, tolerance: tolerance, now: { now })
    }

    private func assertRefused(
        _ code: StripeWebhookError.Code, _ verifier: StripeWebhookVerifier, _ body: Data, _ header: String?,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try verifier.event(from: body, signature: header), file: file, line: line) { error in
            guard let error = error as? StripeWebhookError else {
                return XCTFail("expected a StripeWebhookError, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(error.code, code, error.message, file: file, line: line)
            for text in ["\(error)", error.message, error.value ?? "", String(reflecting: error)] {
                XCTAssertFalse(text.contains("secret_old"), "the secret leaked: \(text)", file: file, line: line)
                XCTAssertFalse(text.contains("secret_new"), "the secret leaked: \(text)", file: file, line: line)
            }
        }
    }

    func testASignatureComputedWithPythonVerifiesAndTheEventIsRead() throws {
        let event = try verifier([oldSecret]).event(from: try body(), signature: "t=\(timestamp),v1=\(oldSignature)")
        XCTAssertEqual(event.id, "evt_1Pgc76B7WZ01zgkWwyRHS12y")
        XCTAssertEqual(event.type.rawValue, "plan.created")
        XCTAssertEqual(event.data.object.objectName, "plan")
        XCTAssertEqual(event.data.object.id, "price_1PgafmB7WZ01zgkW6dKueIc5")
        guard case .other(let plan) = event.data.object else { return XCTFail("a plan has no type here") }
        XCTAssertEqual(plan["amount"], .integer(2_000), "kept whole")
        XCTAssertEqual(event.request, StripeEvent.Request(id: nil, idempotencyKey: nil))
        XCTAssertEqual(event.pendingWebhooks, 0)
        XCTAssertNil(event.apiVersion)
    }

    func testTheHeaderThisPackageSignsIsPythonsAndVerifies() throws {
        let header = StripeWebhookVerifier.signatureHeader(
            for: try body(), timestamp: timestamp, secrets: [oldSecret, newSecret])
        XCTAssertEqual(header, "t=\(timestamp),v1=\(oldSignature),v1=\(newSignature)")
        XCTAssertNoThrow(try verifier([newSecret]).verify(try body(), signature: header))
    }

    func testStripesDocumentedHeaderIsReadAndItsV0Skipped() throws {
        // docs.stripe.com/webhooks, "Verify events manually": the example header.
        let header =
            "t=1492774577,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd,"
            + "v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39"
        let parsed = try StripeSignatureHeader(header)
        XCTAssertEqual(parsed.timestamp, 1_492_774_577)
        XCTAssertEqual(parsed.signatures, ["5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd"])
        let clock = Date(timeIntervalSince1970: 1_492_774_577)
        let verifier = try StripeWebhookVerifier(secrets: [oldSecret], now: { clock })
        // Stripe does not publish the example's secret or body: with ours, no signature matches.
        assertRefused(.noMatchingSignature, verifier, try body(), header)
    }

    func testATamperedBodyIsRefused() throws {
        var tampered = try body()
        let index = try XCTUnwrap(tampered.firstIndex(of: UInt8(ascii: "2")))
        tampered[index] = UInt8(ascii: "9")  // "amount": 2000 becomes 9000
        assertRefused(.noMatchingSignature, try verifier([oldSecret]), tampered, "t=\(timestamp),v1=\(oldSignature)")
        assertRefused(
            .noMatchingSignature, try verifier([oldSecret]), try body() + Data(" ".utf8),
            "t=\(timestamp),v1=\(oldSignature)")
    }

    func testATamperedTimestampIsRefused() throws {
        assertRefused(
            .noMatchingSignature, try verifier([oldSecret]), try body(), "t=\(timestamp + 1),v1=\(oldSignature)")
        assertRefused(
            .timestampOutsideTolerance, try verifier([oldSecret], secondsLater: 301), try body(),
            "t=\(timestamp),v1=\(oldSignature)")
        assertRefused(
            .timestampOutsideTolerance, try verifier([oldSecret], secondsLater: -301), try body(),
            "t=\(timestamp),v1=\(oldSignature)")
        XCTAssertNoThrow(
            try verifier([oldSecret], secondsLater: 300).verify(
                try body(), signature: "t=\(timestamp),v1=\(oldSignature)"),
            "at the tolerance exactly")
        XCTAssertNoThrow(
            try verifier([oldSecret], secondsLater: 3_600, tolerance: .seconds(3_600))
                .verify(try body(), signature: "t=\(timestamp),v1=\(oldSignature)"),
            "a wider tolerance")
        assertRefused(
            .timestampOutsideTolerance, try verifier([oldSecret], secondsLater: 1, tolerance: .zero), try body(),
            "t=\(timestamp),v1=\(oldSignature)")
        for extreme in [Int64.min, Int64.max, -1] {
            assertRefused(
                .timestampOutsideTolerance, try verifier([oldSecret]), try body(), "t=\(extreme),v1=\(oldSignature)")
        }
        let farClock = try StripeWebhookVerifier(secrets: [oldSecret], now: { Date.distantFuture })
        assertRefused(.timestampOutsideTolerance, farClock, try body(), "t=\(Int64.min),v1=\(oldSignature)")
    }

    func testAnotherSecretIsRefused() throws {
        assertRefused(
            .noMatchingSignature, try verifier(["whsec_someone_else"]), try body(), "t=\(timestamp),v1=\(oldSignature)")
        assertRefused(
            .noMatchingSignature, try verifier([newSecret]), try body(), "t=\(timestamp),v1=\(oldSignature)")
    }

    func testEveryWrongHeaderShapeIsRefusedWithItsReason() throws {
        let verifier = try verifier([oldSecret])
        let body = try body()
        let cases: [(StripeWebhookError.Code, String?)] = [
            (.noSignatureHeader, nil),
            (.noSignatureHeader, ""),
            (.noSignatureHeader, "  "),
            (.malformedHeader, "v1=\(oldSignature)"),
            (.malformedHeader, "t=17e8,v1=\(oldSignature)"),
            (.malformedHeader, "t=\(timestamp),t=\(timestamp),v1=\(oldSignature)"),
            (.malformedHeader, "t=\(timestamp),\(oldSignature)"),
            (.malformedHeader, oldSignature),
            (.noSignature, "t=\(timestamp)"),
            (.noSignature, "t=\(timestamp),v0=\(oldSignature)"),
            (.noSignature, "t=\(timestamp),V1=\(oldSignature)"),
            (.noMatchingSignature, "t=\(timestamp),v1="),
            (.noMatchingSignature, "t=\(timestamp),v1=zz\(oldSignature.dropFirst(2))"),
            (.noMatchingSignature, "t=\(timestamp),v1=\(oldSignature.dropLast(2))"),
            (.noMatchingSignature, "t=\(timestamp),v1=\(oldSignature)00"),
        ]
        for (code, header) in cases { assertRefused(code, verifier, body, header) }
        XCTAssertNoThrow(
            try verifier.verify(body, signature: " t=\(timestamp) , v1=\(oldSignature) "), "spaces around items")
    }

    func testSeveralSignaturesAndSeveralSecretsDuringARotation() throws {
        let both = "t=\(timestamp),v1=\(String(repeating: "0", count: 64)),v1=\(newSignature)"
        XCTAssertNoThrow(try verifier([newSecret]).verify(try body(), signature: both), "the second v1 matches")
        let rotating = try verifier([oldSecret, newSecret])
        XCTAssertNoThrow(try rotating.verify(try body(), signature: "t=\(timestamp),v1=\(oldSignature)"))
        XCTAssertNoThrow(try rotating.verify(try body(), signature: "t=\(timestamp),v1=\(newSignature)"))
        assertRefused(
            .noMatchingSignature, rotating, try body(), "t=\(timestamp),v1=\(String(repeating: "0", count: 64))")
        XCTAssertFalse("\(rotating)".contains("whsec"), "\(rotating)")
    }

    func testASignedBodyThatIsNotAnEventIsRefusedNamingWhatFailed() throws {
        for (text, path) in [("not json", nil), ("{\"object\": \"event\"}", "id"), ("[1]", nil)] as [(String, String?)]
        {
            let body = Data(text.utf8)
            let header = StripeWebhookVerifier.signatureHeader(for: body, timestamp: timestamp, secrets: [oldSecret])
            XCTAssertThrowsError(try verifier([oldSecret]).event(from: body, signature: header)) { error in
                let error = error as? StripeWebhookError
                XCTAssertEqual(error?.code, .notAnEvent)
                XCTAssertEqual(error?.field, "body")
                if let path { XCTAssertEqual(error?.value, path) }
            }
        }
    }

    func testAVerifierNeedsASecret() {
        for secrets in [[], [""], [oldSecret, ""]] {
            XCTAssertThrowsError(try StripeWebhookVerifier(secrets: secrets)) { error in
                XCTAssertEqual((error as? StripeWebhookError)?.code, .noSecret)
            }
        }
    }
}
