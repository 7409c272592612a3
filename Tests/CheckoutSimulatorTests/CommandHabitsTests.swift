import CheckoutCore
import CheckoutSimulator
import Foundation
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `test` in CI (each file its own result, JUnit XML, JSON), `explore`'s deterministic report and
/// runnable replay, `demo`'s one JSON document, and the command-line habits of
/// swift-argument-parser's tools.
final class CommandHabitsTests: XCTestCase {
    let cli = SimHarness()
    let examples = CommandLineTests.examples

    /// A folder with a passing scenario, a failing one and a malformed file.
    func mixedFolder() throws -> URL {
        let folder = try cli.folder()
        let valid = try String(contentsOfFile: "\(examples)/pay-context/payment-intent.json", encoding: .utf8)
        try valid.write(to: folder.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        let failing = valid.replacingOccurrences(of: "\"outcome\": \"success\"", with: "\"outcome\": \"error\"")
        XCTAssertNotEqual(failing, valid)
        try failing.write(to: folder.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        try #"{"flow": "payContext", "stepz": []}"#.write(
            to: folder.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        return folder
    }

    func testEachFileHasItsOwnResultAndAMalformedOneDoesNotStopTheRest() async throws {
        let folder = try mixedFolder()
        let run = await cli.sim("test", folder.path)
        XCTAssertEqual(run.code, 2, "a malformed file: exit 2")
        let lines = run.out.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("PASS ") && $0.hasSuffix("a.json)") }, run.out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("FAIL ") && $0.hasSuffix("b.json)") }, run.out)
        XCTAssertTrue(lines.contains("FAIL c.json (\(folder.path)/c.json)"), run.out)
        XCTAssertTrue(run.out.contains("unknown key `stepz`; did you mean `steps`?"), run.out)
        XCTAssertEqual(lines.last, "1 passed, 2 failed")
    }

    func testJSONReportIsOneDocument() async throws {
        let run = await cli.sim("test", try mixedFolder().path, "--json")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        XCTAssertEqual(object["passed"] as? Int, 1)
        XCTAssertEqual(object["failed"] as? Int, 2)
        let results = try XCTUnwrap(object["results"] as? [[String: Any]])
        XCTAssertEqual(results.map { $0["status"] as? String }, ["passed", "failed", "malformed"])
        XCTAssertTrue((results[2]["error"] as? String)?.contains("`stepz`") == true)
    }

    /// The XML is well-formed and counts what the text counts; `Scripts/check-junit.py` reads it
    /// back with junitparser as CI does.
    func testJUnitReportCountsNamesAndFailureMessages() async throws {
        let xml = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID()).xml")
        let run = await cli.sim("test", try mixedFolder().path, "--junit=\(xml.path)")
        XCTAssertEqual(run.code, 2)
        let data = try Data(contentsOf: xml)
        final class Collector: NSObject, XMLParserDelegate {
            var elements: [(String, [String: String])] = []
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) { elements.append((name, attributes)) }
        }
        let collector = Collector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "well-formed XML: \(String(describing: parser.parserError))")
        let suite = try XCTUnwrap(collector.elements.first { $0.0 == "testsuite" }?.1)
        XCTAssertEqual(suite["tests"], "3")
        XCTAssertEqual(suite["failures"], "2")
        let failures = collector.elements.filter { $0.0 == "failure" }.map(\.1)
        XCTAssertEqual(failures.map { $0["type"] }, ["expectation", "malformed"])
        XCTAssertEqual(failures.first?["message"], "outcome: expected error, got success")
        XCTAssertTrue(failures.last?["message"]?.contains("unknown key `stepz`") == true)
        XCTAssertEqual(collector.elements.filter { $0.0 == "testcase" }.count, 3)
    }

    func testAFolderWithoutScenariosIsAnError() async throws {
        let run = await cli.sim("test", try cli.folder().path)
        XCTAssertEqual(run.code, 2)
        XCTAssertTrue(run.err.contains("no scenario file (*.json) in this directory"), run.err)
    }

    func testExploreIsTheSameOnEveryRunAndPrintsEachProblemOnceWithARunnableReplay() async throws {
        let file = "\(examples)/misbehaviour/answer-twice.json"
        let first = await cli.sim("explore", file, "-n", "120", "-s", "5")
        let second = await cli.sim("explore", file, "--sessions=120", "--seed=5")
        XCTAssertEqual(first.code, 1)
        XCTAssertEqual(first.out, second.out, "deterministic for a seed")
        XCTAssertFalse(first.out.contains("rate:"), "no rate unless asked")
        XCTAssertFalse(first.out.contains("FILE"))
        XCTAssertTrue(first.out.contains("1 distinct problem:"), first.out)
        XCTAssertTrue(
            first.out.contains("running means the session's random steps ran out"),
            "explains the sessions still running")
        let problems = first.out.split(separator: "\n").filter { $0.hasPrefix("1. ") }
        XCTAssertEqual(problems, ["1. violation completionCalledTwice in didSelectShippingMethod"], "printed once")
        let replay = try XCTUnwrap(first.out.split(separator: "\n").first { $0.contains("replay: ") })
        let words = replay.split(separator: " ").drop { $0 != "checkout-sim" }.dropFirst().map(String.init)
        XCTAssertEqual(words[1], file, "the file as given (no quoting needed here)")
        let replayed = await cli.sim(words)
        XCTAssertEqual(replayed.code, 1, replayed.out + replayed.err)
        XCTAssertTrue(replayed.out.contains("violation completionCalledTwice in didSelectShippingMethod"))

        let json = await cli.sim("explore", file, "-n", "120", "-s", "5", "--json")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        XCTAssertEqual(object["sessions"] as? Int, 120)
        XCTAssertEqual((object["problems"] as? [Any])?.count, 1, "the problem the text shows, once")
        // The sessions still running, told apart as the text tells them: no key is empty.
        let running = try XCTUnwrap(object["running"] as? [String: Any], json.out)
        let outcomes = try XCTUnwrap(object["outcomes"] as? [String: Int])
        let idle = try XCTUnwrap(running["noAnswerOwed"] as? Int)
        let waiting = try XCTUnwrap(running["waitingFor"] as? [String: Int])
        XCTAssertEqual(idle + waiting.values.reduce(0, +), outcomes["running"] ?? 0, json.out)
        XCTAssertFalse(waiting.keys.contains(""), json.out)
        XCTAssertTrue(
            json.out.contains("\"replay\" : \"checkout-sim explore \(file) --sessions 1"), "slashes as they are")
        let rate = await cli.sim("explore", file, "-n", "5", "--rate")
        XCTAssertTrue(rate.err.contains("rate: "), rate.err)
    }

    /// A scenario made in Swift is not checked at load: a request its flow refuses still fails.
    func testAScenarioWhoseFlowRefusesToStartFails() async throws {
        let request = PaymentRequest(
            merchantIdentifier: "merchant.com.example", countryCode: "ZZ", currencyCode: "USD", summaryItems: [])
        let scenario = Scenario(name: "refused", flow: .paymentAuthorization, paymentRequest: request, steps: [])
        let (result, differences) = await scenario.check()
        XCTAssertEqual(result.outcome, "refused")
        XCTAssertTrue(differences.first?.hasPrefix("the flow refused to start: present: ") == true, "\(differences)")
    }

    func testReplayCommandQuotesPathsTheShellWouldSplit() {
        XCTAssertEqual(ExploreOutput.shellQuoted("Examples/a b.json"), "'Examples/a b.json'")
        XCTAssertEqual(ExploreOutput.shellQuoted("it's.json"), #"'it'\''s.json'"#)
        XCTAssertEqual(ExploreOutput.shellQuoted("Examples/a.json"), "Examples/a.json")
    }

    func testDemoJSONIsOneDocumentAndJSONLinesOneALine() async throws {
        let json = await cli.sim("demo", "--format", "json")
        let array = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
        XCTAssertEqual(array.count, 3)
        let lines = await cli.sim("demo", "-f", "jsonl")
        let each = lines.out.split(separator: "\n")
        XCTAssertEqual(each.count, 3)
        for line in each { XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(line.utf8))) }
    }

    func testArgumentParserHabits() async {
        let version = await cli.sim("--version")
        XCTAssertEqual(version.code, 0)
        XCTAssertEqual(version.out, CheckoutSimCommand.version)
        for arguments in [["help", "run"], ["run", "-h"], ["run", "--help"]] {
            let help = await cli.sim(arguments)
            XCTAssertEqual(help.code, 0)
            XCTAssertTrue(help.out.hasPrefix("USAGE: checkout-sim run"), "\(arguments): \(help.out)")
        }
        let unknown = await cli.sim("help", "fly")
        XCTAssertEqual(unknown.code, 2)
        let nearHelp = await cli.sim("help", "tset")
        XCTAssertEqual(nearHelp.code, 2)
        XCTAssertTrue(nearHelp.err.contains("unknown command 'tset'; did you mean 'test'?"), nearHelp.err)
        let helpHelp = await cli.sim("help", "help")
        XCTAssertEqual(helpHelp.code, 0, "help is a command too")
        XCTAssertTrue(helpHelp.out.contains("help [COMMAND]"), helpHelp.out)
        let versionAndMore = await cli.sim("--version", "run")
        XCTAssertEqual(versionAndMore.code, 2, "nothing after --version is dropped in silence")
        let typo = await cli.sim("tset", "Examples")
        XCTAssertTrue(typo.err.contains("did you mean 'test'?"), typo.err)
        let option = await cli.sim("explore", "x.json", "--sesions", "3")
        XCTAssertEqual(option.code, 2)
        XCTAssertTrue(option.err.contains("unknown option '--sesions' for 'explore'; did you mean '--sessions'?"))
        XCTAssertTrue(option.err.contains("USAGE: checkout-sim explore <scenario.json> --sessions <n>"), option.err)
        let equals = await cli.sim("run", "\(examples)/pay-context/payment-intent.json", "--format=json")
        XCTAssertEqual(equals.code, 0)
        XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(equals.out.utf8)))
        let noValue = await cli.sim("run", "a.json", "--format")
        XCTAssertTrue(noValue.err.contains("--format needs a value"), noValue.err)
    }
}
