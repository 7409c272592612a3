import CheckoutFlows
import CheckoutSimulator
import CheckoutSimulatorTesting
import CheckoutTesting
import Foundation
import XCTest

/// CheckoutSimulatorTesting's scenario helper: a scenario file run from a test, passing and
/// failing (under a recording reporter).
final class ScenarioAssertionTests: XCTestCase {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")

    func testAnExampleScenarioPassesFromATest() async {
        let result = await assertScenarioPasses(
            Self.examples.appendingPathComponent("pay-context/payment-intent.json").path)
        XCTAssertEqual(result?.outcome, "success")
    }

    func testAFailingScenarioIsReportedWithItsDifferencesAndTranscript() async throws {
        var scenario = try Scenario.load(
            contentsOfFile: Self.examples.appendingPathComponent("pay-context/decline.json").path)
        scenario.expect = Expectation(outcome: "success")
        let (result, differences) = await scenario.check()
        XCTAssertEqual(differences, ["outcome: expected success, got error(insufficient_funds)"])
        let failure = try XCTUnwrap(
            FlowChecks.scenarioFailure(name: scenario.name, differences: differences, transcript: result.transcript)
        )
        XCTAssertTrue(
            failure.hasPrefix("scenario 'pay context: insufficient funds' failed:\n  - outcome: expected success"))
        XCTAssertTrue(failure.contains("didCreatePaymentMethod"), "the transcript follows")
        XCTAssertNil(FlowChecks.scenarioFailure(name: "x", differences: [], transcript: result.transcript))
    }

    // A scenario whose expectation does not hold fails the test at the caller, with its
    // differences; an unreadable file fails it with the file's name; a passing one fails nothing.
    func testAFailingScenarioFailsTheTestAtTheCaller() async throws {
        var scenario = try Scenario.load(
            contentsOfFile: Self.examples.appendingPathComponent("pay-context/decline.json").path)
        scenario.expect = Expectation(outcome: "success")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kit-failing-\(UUID()).json")
        try JSONEncoder().encode(scenario).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        var line: UInt = 0
        let failures = await withRecordedFailures {
            line = #line + 1
            _ = await assertScenarioPasses(file.path)
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.message.hasPrefix(
                "scenario 'pay context: insufficient funds' failed:\n  - outcome: expected success") ?? false,
            "\(failures)")
        XCTAssertEqual(failures.first?.location.fileID, "CheckoutTestingTests/ScenarioAssertionTests.swift")
        XCTAssertEqual(failures.first?.location.line, Int(line))

        let unreadable = await withRecordedFailures {
            let result = await assertScenarioPasses("/nonexistent.json")
            XCTAssertNil(result)
        }
        XCTAssertEqual(unreadable.map(\.message), ["/nonexistent.json: cannot read the file"])

        let passing = await withRecordedFailures {
            _ = await assertScenarioPasses(Self.examples.appendingPathComponent("pay-context/decline.json").path)
        }
        XCTAssertEqual(passing, [])
    }

    func testAnUnreadableScenarioNamesTheFile() {
        XCTAssertThrowsError(try Scenario.load(contentsOfFile: "/nonexistent.json")) { error in
            XCTAssertEqual("\(error)", "/nonexistent.json: cannot read the file")
        }
    }
}
