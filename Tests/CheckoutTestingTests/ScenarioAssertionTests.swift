import CheckoutFlows
import CheckoutSimulator
import CheckoutTesting
import Foundation
import XCTest

/// CheckoutTesting's scenario helper: a scenario file run from a test.
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

    func testAnUnreadableScenarioNamesTheFile() {
        XCTAssertThrowsError(try Scenario.load(contentsOfFile: "/nonexistent.json")) { error in
            XCTAssertEqual("\(error)", "/nonexistent.json: cannot read the file")
        }
    }
}
