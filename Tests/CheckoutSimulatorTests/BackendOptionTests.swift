import CheckoutSimulator
import CheckoutStripeBackends
import Foundation
import XCTest

/// `run` and `test` with `--backend`, `--stripe-base-url` and `--stripe-emulator`, and the key
/// from `STRIPE_SECRET_KEY` (spec P9: the same scenarios on either backend; a key never shown).
/// The runs against a real emulator are `Scripts/with-localstripe.sh`'s.
final class BackendOptionTests: XCTestCase {
    let cli = SimHarness()
    let payment = "\(CommandLineTests.examples)/pay-context/payment-intent.json"
    let shipping = "\(CommandLineTests.examples)/shipping-address/us-express.json"
    let key = ["STRIPE_SECRET_KEY": "sk_test_4eC39HqLyjWDarjtT1zdp7dc"]

    func testTheInMemoryBackendIsTheDefaultAndCanBeNamed() async {
        let plain = await cli.sim(["run", payment, "--format", "json"])
        let named = await cli.sim(["run", payment, "--format", "json", "--backend", "memory"])
        let equals = await cli.sim(["run", payment, "--format=json", "--backend=memory"])
        XCTAssertEqual(plain.code, 0, plain.err)
        XCTAssertEqual(named.code, 0, named.err)
        XCTAssertEqual(plain.out, named.out)
        XCTAssertEqual(plain.out, equals.out)
        let test = await cli.sim(["test", payment, "--backend", "memory"])
        XCTAssertEqual(test.code, 0, test.out)
        XCTAssertEqual(test.out.split(separator: "\n").last, "1 passed, 0 failed")
    }

    func testAnUnknownBackendIsAUsageErrorNamingTheOptionAndTheValue() async {
        for arguments in [["run", payment, "--backend", "stripe-htp"], ["test", payment, "--backend=stripe-htp"]] {
            let run = await cli.sim(arguments, environment: key)
            XCTAssertEqual(run.code, 2, "\(arguments)")
            let message = "--backend must be memory or stripe-http, not 'stripe-htp'; did you mean 'stripe-http'?"
            XCTAssertTrue(run.err.contains(message), run.err)
            XCTAssertTrue(run.err.contains("USAGE: checkout-sim \(arguments[0])"), run.err)
            XCTAssertEqual(run.out, "", "nothing ran")
        }
        let missing = await cli.sim(["run", payment, "--backend"])
        XCTAssertEqual(missing.code, 2)
        XCTAssertTrue(missing.err.contains("--backend needs a value"), missing.err)
    }

    func testStripeHTTPWithoutTheKeyNamesTheVariable() async {
        for environment in [[:], ["STRIPE_SECRET_KEY": ""]] {
            let run = await cli.sim(["run", payment, "--backend", "stripe-http"], environment: environment)
            XCTAssertEqual(run.code, 2)
            XCTAssertTrue(run.err.contains("STRIPE_SECRET_KEY"), run.err)
            XCTAssertTrue(run.err.contains("it is not set"), run.err)
            XCTAssertEqual(run.out, "")
        }
        let test = await cli.sim(["test", payment, "--backend", "stripe-http"])
        XCTAssertEqual(test.code, 2)
        XCTAssertTrue(test.err.contains("STRIPE_SECRET_KEY"), test.err)
    }

    func testTheKeyIsNeverAFlag() async {
        let run = await cli.sim(["run", payment, "--backend", "stripe-http", "--stripe-key", "sk_test_x"])
        XCTAssertEqual(run.code, 2)
        XCTAssertTrue(run.err.contains("unknown option '--stripe-key' for 'run'"), run.err)
    }

    func testAKeyThatCannotBeUsedIsRefusedWithoutShowingIt() async {
        let cases: [(String, String, String)] = [
            ("hunter2-not-a-key", "is not a Stripe API key", "hunter2"),
            ("pk_test_publishablePart", "holds a publishable key (pk_test_•••)", "publishablePart"),
            ("sk_live_livePart123", "holds a live-mode key (sk_live_•••)", "livePart123"),
        ]
        for (value, message, secret) in cases {
            let run = await cli.sim(
                ["run", payment, "--backend", "stripe-http"], environment: ["STRIPE_SECRET_KEY": value])
            XCTAssertEqual(run.code, 2, value)
            XCTAssertTrue(run.err.contains("STRIPE_SECRET_KEY \(message)"), run.err)
            XCTAssertFalse(run.err.contains(secret), "the value is never printed: \(run.err)")
            XCTAssertEqual(run.out, "")
        }
    }

    func testTheBaseURLNeedsTheHTTPBackendAndMustBeAnHTTPURL() async {
        let alone = await cli.sim(["run", payment, "--stripe-base-url", "http://127.0.0.1:8420"], environment: key)
        XCTAssertEqual(alone.code, 2)
        XCTAssertTrue(alone.err.contains("--stripe-base-url needs --backend stripe-http"), alone.err)
        for bad in ["ftp://127.0.0.1:8420", "not a url", "http://", "127.0.0.1:8420", "http://h/?q=1"] {
            let run = await cli.sim(
                ["test", payment, "--backend", "stripe-http", "--stripe-base-url=\(bad)"], environment: key)
            XCTAssertEqual(run.code, 2, bad)
            XCTAssertTrue(
                run.err.contains("--stripe-base-url must be an http or https URL with a host, such as "), run.err)
            XCTAssertTrue(run.err.contains("not '\(bad)'"), run.err)
        }
        let emulator = await cli.sim(
            ["run", payment, "--backend", "stripe-http", "--stripe-emulator"], environment: key)
        XCTAssertEqual(emulator.code, 2)
        XCTAssertTrue(emulator.err.contains("--stripe-emulator needs --stripe-base-url"), emulator.err)
        let valued = await cli.sim(
            [
                "run", payment, "--backend", "stripe-http", "--stripe-base-url", "http://127.0.0.1:1",
                "--stripe-emulator=1",
            ],
            environment: key)
        XCTAssertEqual(valued.code, 2)
        XCTAssertTrue(valued.err.contains("--stripe-emulator takes no value"), valued.err)
    }

    func testTheOptionsMakeTheBackend() throws {
        func backend(_ arguments: [String], _ environment: [String: String]) throws -> ScenarioBackend {
            let command = try XCTUnwrap(CheckoutSimCommand.commands["run"])
            let options = try CheckoutSimCommand.parse([payment] + arguments, "run", command)
            return try CheckoutSimCommand.backend(options, environment)
        }
        guard case .memory = try backend([], key) else { return XCTFail("memory by default") }
        guard case .stripeHTTP(let stripe) = try backend(["--backend", "stripe-http"], key) else {
            return XCTFail("stripe-http")
        }
        XCTAssertEqual(stripe.baseURL, StripeHTTPBackend.Configuration.stripeAPI)
        XCTAssertEqual(stripe.apiKey.unmaskedValue, key["STRIPE_SECRET_KEY"])
        XCTAssertEqual(stripe.apiKey.kind, .secret)
        XCTAssertFalse(stripe.sendsTestCVC, "Apple Pay sends no CVC, and neither does the backend to Stripe")
        XCTAssertTrue(stripe.sendsShipping)
        XCTAssertFalse(stripe.sendsStandInCards, "Stripe itself gets every card as it is")
        let arguments = ["--backend", "stripe-http", "--stripe-base-url", "http://127.0.0.1:8420", "--stripe-emulator"]
        guard case .stripeHTTP(let emulator) = try backend(arguments, ["STRIPE_SECRET_KEY": "rk_test_restricted"])
        else { return XCTFail("stripe-http") }
        XCTAssertEqual(emulator.baseURL.absoluteString, "http://127.0.0.1:8420")
        XCTAssertTrue(emulator.sendsTestCVC)
        XCTAssertFalse(emulator.sendsShipping)
        XCTAssertTrue(emulator.sendsStandInCards)
        XCTAssertEqual("\(ScenarioBackend.stripeHTTP(emulator))", "stripe-http (http://127.0.0.1:8420, rk_test_•••)")
    }

    func testStripeHTTPRunsPayContextScenariosOnly() async {
        let run = await cli.sim(["run", shipping, "--backend", "stripe-http"], environment: key)
        XCTAssertEqual(run.code, 2)
        XCTAssertTrue(
            run.err.contains(
                "--backend stripe-http runs pay-context scenarios; this one is a shippingAddress scenario"),
            run.err)
        // `test` over a directory runs the other flows as usual: they use no backend.
        let test = await cli.sim(["test", shipping, "--backend", "stripe-http"], environment: key)
        XCTAssertEqual(test.code, 0, test.out)
    }

    func testUnreachableStripeEndsInTheTranscriptWithTheKeyMasked() async {
        // Nothing listens on port 1: every attempt fails at once, the backend's bounded retries
        // end with `api_connection_error`, and the sheet shows the failure for a retry (P3).
        let run = await cli.sim(
            [
                "run", payment, "--backend", "stripe-http", "--stripe-base-url", "http://127.0.0.1:1", "--format",
                "json",
            ],
            environment: key)
        XCTAssertEqual(run.code, 0, "no invariant broke: \(run.err)")
        XCTAssertTrue(run.out.contains("api_connection_error"), run.out)
        XCTAssertTrue(
            run.out.contains("\"outcome\" : \"running\"") || run.out.contains("\"outcome\":\"running\""), run.out)
        XCTAssertFalse(run.out.contains("4eC39HqLyjWDarjtT1zdp7dc"), "the key never shows")
        XCTAssertFalse(run.err.contains("4eC39HqLyjWDarjtT1zdp7dc"), "the key never shows")
    }

    func testHelpNamesTheOptionsAndTheVariable() async {
        for command in ["run", "test"] {
            let help = await cli.sim(["help", command])
            XCTAssertEqual(help.code, 0)
            for text in [
                "[--backend <memory|stripe-http>]", "--stripe-base-url <url>", "--stripe-emulator", "STRIPE_SECRET_KEY",
                "memory (default",
            ] {
                XCTAssertTrue(help.out.contains(text), "\(command): \(text)")
            }
        }
    }
}
