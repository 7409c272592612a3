import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutSimulator
import Foundation
import XCTest

/// The command line through its library entry point: every command, every exit code, malformed
/// scenarios of each kind, masking.
final class CommandLineTests: XCTestCase {
    struct Run {
        let code: Int32
        let out: String
        let err: String
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let examples = root.appendingPathComponent("Examples").path

    func sim(_ arguments: String...) async -> Run {
        let out = LockedValue([String]())
        let err = LockedValue([String]())
        let console = Console(
            out: { line in out.withLock { $0.append(line) } }, err: { line in err.withLock { $0.append(line) } })
        let code = await CheckoutSimCommand.main(arguments, console: console)
        return Run(
            code: code,
            out: out.withLock { $0.joined(separator: "\n") },
            err: err.withLock { $0.joined(separator: "\n") }
        )
    }

    /// Writes `text` to a temporary scenario file.
    func file(_ text: String, _ name: String = UUID().uuidString) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func example(_ path: String) -> String { "\(Self.examples)/\(path)" }

    // MARK: help and usage

    func testHelpForEachCommandExitsZero() async {
        let overview = await sim("--help")
        XCTAssertEqual(overview.code, 0)
        XCTAssertTrue(overview.out.contains("COMMANDS:"))
        for command in ["demo", "run", "test", "explore"] {
            let run = await sim(command, "--help")
            XCTAssertEqual(run.code, 0, command)
            XCTAssertTrue(run.out.contains("USAGE: checkout-sim \(command)"), run.out)
        }
    }

    func testUsageErrorsExitTwoWithOneClearLine() async {
        let cases: [([String], String)] = [
            ([], "COMMANDS:"),
            (["fly"], "unknown command 'fly'"),
            (["run"], "'run' takes exactly one scenario file"),
            (["run", "a.json", "--frmat", "json"], "unknown option '--frmat' for 'run'"),
            (["run", "a.json", "--format", "yaml"], "--format must be text, json, jsonl or mermaid, not 'yaml'"),
            (["run", "/nonexistent/scenario.json"], "/nonexistent/scenario.json: cannot read the file"),
            (["test"], "'test' needs at least one scenario file or directory"),
            (["test", "/nonexistent"], "/nonexistent: no such file or directory"),
            (["explore", example("pay-context/payment-intent.json")], "'explore' needs --sessions N"),
            (["explore", example("pay-context/payment-intent.json"), "--sessions", "0"], "--sessions must be"),
            (
                ["explore", example("pay-context/payment-intent.json"), "--sessions", "1", "--seed", "-3"],
                "--seed must be"
            ),
            (["demo", "extra.json"], "'demo' takes no file"),
        ]
        for (arguments, message) in cases {
            let run = await sim(arguments)
            XCTAssertEqual(run.code, 2, "\(arguments)")
            XCTAssertTrue(run.err.contains(message), "\(arguments): \(run.err)")
            if !arguments.isEmpty {
                // The message, and for a command line that does not fit the command its usage line
                // and where its help is (as swift-argument-parser's tools do): 1 to 3 lines.
                XCTAssertTrue((1...3).contains(run.err.split(separator: "\n").count), "1-3 lines for \(arguments)")
            }
            if arguments.count > 1, !message.contains("/nonexistent") {
                XCTAssertTrue(run.err.contains("USAGE: checkout-sim \(arguments[0])"), "usage line: \(run.err)")
            }
        }
    }

    func sim(_ arguments: [String]) async -> Run {
        let out = LockedValue([String]())
        let err = LockedValue([String]())
        let console = Console(
            out: { line in out.withLock { $0.append(line) } }, err: { line in err.withLock { $0.append(line) } })
        let code = await CheckoutSimCommand.main(arguments, console: console)
        return Run(
            code: code, out: out.withLock { $0.joined(separator: "\n") },
            err: err.withLock { $0.joined(separator: "\n") })
    }

    // MARK: malformed scenarios

    func testMalformedScenariosNameThePathAndWhatWasExpected() async throws {
        let valid = try String(contentsOfFile: example("pay-context/payment-intent.json"), encoding: .utf8)
        let cases: [(String, String)] = [
            ("{\"flow\": ", "not valid JSON"),
            (
                valid.replacingOccurrences(of: "\"flow\": \"payContext\"", with: "\"flow\": \"teleport\""),
                "unknown value `teleport` at `flow`"
            ),
            (
                valid.replacingOccurrences(of: "\"action\": \"authorize\"", with: "\"action\": \"fly\""),
                "unknown value `fly` at `steps[1].action`"
            ),
            (
                valid.replacingOccurrences(of: "\"card\": \"4242 4242 4242 4242\"", with: "\"card\": 4242"),
                "at `steps[1].card`: expected a string"
            ),
            (
                valid.replacingOccurrences(of: "\"value\": \"24.00\"", with: "\"value\": \"24.001\""),
                "at `request.summaryItems[0].amount.value`: amount \"24.001\" is finer"
            ),
            (
                valid.replacingOccurrences(of: "\"currency\": \"USD\"", with: "\"currency\": \"XYZ\""),
                "is not an active ISO 4217 code"
            ),
            (
                valid.replacingOccurrences(of: "\"country\": \"US\"", with: "\"country\": \"USA\""),
                "is not an ISO 3166-1 alpha-2 code"
            ),
            (
                valid.replacingOccurrences(of: "\"steps\"", with: "\"stepz\""),
                "unknown key `stepz`; did you mean `steps`?"
            ),
            (
                valid.replacingOccurrences(of: "\"taxRate\": \"0.0825\"", with: "\"taxRate\": \"8%\""),
                "at `merchant.taxRate`: expected a decimal rate"
            ),
            (
                valid.replacingOccurrences(of: "\"percentOff\": \"10\"", with: "\"percentOff\": \"ten\""),
                "at `merchant.coupons[0].percentOff`"
            ),
        ]
        for (text, message) in cases {
            XCTAssertNotEqual(
                text, valid.isEmpty ? "" : valid, "the replacement must change the scenario for \(message)")
            let path = try file(text)
            let run = await sim("run", path)
            XCTAssertEqual(run.code, 2, message)
            XCTAssertTrue(run.err.contains(message), "expected '\(message)' in: \(run.err)")
            XCTAssertTrue(run.err.contains(path), "names the file")
        }
        let wait = try file(
            #"{"flow": "shippingAddress", "steps": [{"action": "wait", "seconds": -1}]}"#
        )
        let run = await sim("run", wait)
        XCTAssertEqual(run.code, 2)
        XCTAssertTrue(run.err.contains("-1 at `steps[0].seconds` is out of range: expected 0 to 1000000000"), run.err)
    }

    // MARK: run

    func testRunPrintsTranscriptAndOutcomeMaskingPersonalData() async {
        let run = await sim("run", example("pay-context/payment-intent.json"))
        XCTAssertEqual(run.code, 0)
        XCTAssertTrue(run.out.contains("outcome: success"), run.out)
        XCTAssertTrue(run.out.contains("didCreatePaymentMethod"))
        XCTAssertFalse(run.out.contains("Grace"), "name masked")
        XCTAssertFalse(run.out.contains("Congress"), "street masked")
        XCTAssertFalse(run.out.contains("grace@example.com"), "email masked")
        XCTAssertTrue(run.out.contains("_secret_•••"), "secrets masked")
        XCTAssertNil(run.out.range(of: #"_secret_s\d"#, options: .regularExpression), "no secret shown")

        let unmasked = await sim("run", example("pay-context/payment-intent.json"), "--show-personal-data")
        XCTAssertTrue(unmasked.out.contains("Grace Hopper"))
        XCTAssertTrue(unmasked.out.contains("1 Congress Ave"))
        XCTAssertNil(unmasked.out.range(of: #"_secret_s\d"#, options: .regularExpression), "secrets stay masked")
    }

    func testRunFormatsJSONAndMermaid() async throws {
        let json = await sim("run", example("payment-authorization/full-checkout.json"), "--format", "json")
        XCTAssertEqual(json.code, 0)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        XCTAssertEqual(object["outcome"] as? String, "success")
        XCTAssertEqual((object["delegateCalls"] as? [String])?.last, "didFinish")
        XCTAssertFalse(json.out.contains("Grace"))

        let mermaid = await sim("run", example("pay-context/payment-intent.json"), "--format", "mermaid")
        XCTAssertEqual(mermaid.code, 0)
        let lines = mermaid.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "sequenceDiagram")
        for participant in [
            "participant C as Customer", "participant F as PayContext", "participant M as Merchant",
            "participant B as Backend",
        ] {
            XCTAssertTrue(lines.contains("    \(participant)"), participant)
        }
        XCTAssertTrue(lines.contains("    F->>M: didCreatePaymentMethod no. 4"), mermaid.out)
        XCTAssertTrue(lines.contains("    F->>B: confirmIntent no. 6"), mermaid.out)
        XCTAssertFalse(mermaid.out.contains(";"), "no ';' that would break Mermaid")
        XCTAssertFalse(mermaid.out.contains("Grace"))
    }

    // MARK: test

    func testTestCommandRunsTheExamplesAndAllPass() async {
        let run = await sim("test", Self.examples)
        XCTAssertEqual(run.code, 0, run.out)
        let last = run.out.split(separator: "\n").last.map(String.init)
        // Every scenario file under Examples/, counted apart from the command.
        let files =
            FileManager.default.enumerator(atPath: Self.examples)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".json") }.count ?? 0
        XCTAssertGreaterThan(files, 20)
        XCTAssertEqual(last, "\(files) passed, 0 failed")
    }

    func testTestCommandReportsDifferencesAndExitsOne() async throws {
        var text = try String(contentsOfFile: example("pay-context/decline.json"), encoding: .utf8)
        text = text.replacingOccurrences(
            of: "\"outcome\": \"error(insufficient_funds)\"", with: "\"outcome\": \"success\"")
        let wrong = try file(text)
        let run = await sim("test", wrong, example("pay-context/setup-intent.json"))
        XCTAssertEqual(run.code, 1)
        XCTAssertTrue(run.out.contains("FAIL pay context: insufficient funds"), run.out)
        XCTAssertTrue(run.out.contains("outcome: expected success, got error(insufficient_funds)"), run.out)
        XCTAssertTrue(run.out.contains("PASS pay context: SetupIntent"))
        XCTAssertTrue(run.out.hasSuffix("1 passed, 1 failed"))
    }

    // MARK: explore

    func testExploreAWellBehavedMerchantExitsZero() async {
        let run = await sim(
            "explore", example("payment-authorization/full-checkout.json"), "--sessions", "150", "--seed", "11")
        XCTAssertEqual(run.code, 0, run.out)
        XCTAssertTrue(run.out.contains("explored 150 sessions"))
        XCTAssertTrue(run.out.contains("no invariant broke"))
    }

    func testExploreAMisbehavingMerchantReportsSeedAndShortestStepsAndExitsOne() async throws {
        let run = await sim("explore", example("misbehaviour/answer-twice.json"), "--sessions", "100", "--seed", "3")
        XCTAssertEqual(run.code, 1)
        XCTAssertTrue(run.out.contains("violation completionCalledTwice in didSelectShippingMethod"), run.out)
        XCTAssertTrue(run.out.contains("shortest steps: selectShippingMethod(express)"), run.out)
        let seedLine = try XCTUnwrap(run.out.split(separator: "\n").first { $0.contains("first with seed ") })
        let seed = try XCTUnwrap(seedLine.split(separator: " ").last)
        // The seed replays the failing session on its own.
        let replay = await sim(
            "explore", example("misbehaviour/answer-twice.json"), "--sessions", "1", "--seed", String(seed))
        XCTAssertEqual(replay.code, 1)
        XCTAssertTrue(replay.out.contains("1 session failed; 1 distinct problem:"), replay.out)
    }

    func testExploreIsReproducible() async throws {
        let scenario = try ScenarioFile.load(example("pay-context/payment-intent.json"))
        let first = await Explorer.explore(scenario, sessions: 40, seed: 99)
        let second = await Explorer.explore(scenario, sessions: 40, seed: 99)
        XCTAssertEqual(first.outcomes, second.outcomes)
        let steps = Explorer.generate(for: scenario, seed: 1234).0
        XCTAssertEqual(steps, Explorer.generate(for: scenario, seed: 1234).0)
        XCTAssertNotEqual(steps, Explorer.generate(for: scenario, seed: 1235).0)
    }

    // MARK: demo

    func testDemoRunsEveryFlow() async {
        let run = await sim("demo")
        XCTAssertEqual(run.code, 0)
        for name in ["demo: shipping address", "demo: payment authorization", "demo: pay context"] {
            XCTAssertTrue(run.out.contains("== \(name)"), name)
        }
        XCTAssertTrue(run.out.contains("outcome: finished(method: express)"))
        XCTAssertTrue(run.out.contains("outcome: success"))
        XCTAssertTrue(run.out.contains("outcome: success"))
        XCTAssertFalse(run.out.contains("Grace"))
        let mermaid = await sim("demo", "--format", "mermaid")
        XCTAssertEqual(mermaid.out.components(separatedBy: "sequenceDiagram").count - 1, 3)
    }
}
