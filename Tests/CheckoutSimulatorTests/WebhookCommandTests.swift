import CheckoutSimulator
import CheckoutStripe
import Foundation
import XCTest

/// `checkout-sim webhook verify FILE --signature HEADER [--tolerance SECONDS]` (spec P10): exit 0
/// with the event's type and id, 1 with the reason, 2 for a usage error; the secret comes from
/// STRIPE_WEBHOOK_SECRET and is never printed.
final class WebhookCommandTests: XCTestCase {
    let cli = SimHarness()
    let secret = "whsec_cli_secret_9f8e"
    let body =
        #"{"id": "evt_cli_1", "object": "event", "type": "payment_intent.succeeded", "created": 1700000000, "#
        + #""livemode": false, "data": {"object": {"object": "refund", "id": "re_1"}}}"#

    private func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    private func signed(at timestamp: Int64, secrets: [String]? = nil) -> String {
        StripeWebhookVerifier.signatureHeader(for: Array(body.utf8), timestamp: timestamp, secrets: secrets ?? [secret])
    }

    private func assertNoSecret(_ run: CommandLineTests.Run, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(run.out.contains("secret_9f8e") || run.err.contains("secret_9f8e"), file: file, line: line)
    }

    func testAVerifiedWebhookPrintsItsTypeAndId() async throws {
        let path = try cli.file(body)
        let run = await cli.sim(
            ["webhook", "verify", path, "--signature", signed(at: now())],
            environment: ["STRIPE_WEBHOOK_SECRET": secret])
        XCTAssertEqual(run.code, 0, run.err)
        XCTAssertEqual(run.out, "payment_intent.succeeded evt_cli_1")
        assertNoSecret(run)
        let rotating = await cli.sim(
            ["webhook", "verify", path, "--signature=\(signed(at: now(), secrets: ["whsec_new"]))"],
            environment: ["STRIPE_WEBHOOK_SECRET": "\(secret), whsec_new"])
        XCTAssertEqual(rotating.code, 0, "the second secret of a rotation: \(rotating.err)")
    }

    func testARefusedWebhookExitsOneWithTheReason() async throws {
        let path = try cli.file(body)
        let tampered = try cli.file(body.replacingOccurrences(of: "evt_cli_1", with: "evt_cli_2"))
        let environment = ["STRIPE_WEBHOOK_SECRET": secret]
        let cases: [([String], String)] = [
            (["webhook", "verify", tampered, "--signature", signed(at: now())], "noMatchingSignature"),
            (["webhook", "verify", path, "--signature", signed(at: now() - 1_000)], "timestampOutsideTolerance"),
            (["webhook", "verify", path, "--signature", "v1=00"], "malformedHeader"),
            (["webhook", "verify", path, "--signature", "t=\(now())"], "noSignature"),
            (
                ["webhook", "verify", path, "--signature", signed(at: now(), secrets: ["whsec_other"])],
                "noMatchingSignature"
            ),
        ]
        for (arguments, code) in cases {
            let run = await cli.sim(arguments, environment: environment)
            XCTAssertEqual(run.code, 1, "\(arguments): \(run.err)")
            XCTAssertTrue(run.err.contains("webhook refused (\(code))"), run.err)
            XCTAssertEqual(run.out, "")
            assertNoSecret(run)
        }
        let wide = await cli.sim(
            ["webhook", "verify", path, "--signature", signed(at: now() - 1_000), "--tolerance", "2000"],
            environment: environment)
        XCTAssertEqual(wide.code, 0, "a wider tolerance: \(wide.err)")
    }

    func testUsageErrorsExitTwo() async throws {
        let path = try cli.file(body)
        let header = signed(at: now())
        let environment = ["STRIPE_WEBHOOK_SECRET": secret]
        let cases: [([String], [String: String], String)] = [
            (["webhook", "verify", path, "--signature", header], [:], "STRIPE_WEBHOOK_SECRET"),
            (["webhook", "verify", path, "--signature", header], ["STRIPE_WEBHOOK_SECRET": "a,,b"], "empty item"),
            (["webhook", "verify", path], environment, "needs --signature"),
            (["webhook", "verify", "--signature", header], environment, "exactly one file"),
            (["webhook", "check", path, "--signature", header], environment, "unknown subcommand 'webhook check'"),
            (["webhook"], environment, "needs a subcommand"),
            (["webhook", "verify", path, "--signature", header, "--tolerance", "-1"], environment, "--tolerance"),
            (["webhook", "verify", "/nonexistent/body.json", "--signature", header], environment, "cannot read"),
            (["webhook", "verify", path, "--signature", header, "--secret", secret], environment, "unknown option"),
        ]
        for (arguments, environment, message) in cases {
            let run = await cli.sim(arguments, environment: environment)
            XCTAssertEqual(run.code, 2, "\(arguments): \(run.err)")
            XCTAssertTrue(run.err.contains(message), "\(arguments): \(run.err)")
            XCTAssertEqual(run.out, "")
        }
        let help = await cli.sim(["help", "webhook"])
        XCTAssertEqual(help.code, 0)
        XCTAssertTrue(help.out.contains("USAGE: checkout-sim webhook verify <file> --signature <header>"), help.out)
    }
}
