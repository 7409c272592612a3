import CheckoutFlows
import CheckoutSimulator
import XCTest

/// Runs the `checkout-sim` scenario file at `path` from a test, and fails the test with a line per
/// difference from the scenario's `expect` (without one: for any violation) and per broken
/// invariant, or when the file cannot be read.
///
/// ```swift
/// func testCheckoutScenarios() async {
///     await assertScenarioPasses("Scenarios/express-shipping.json")
/// }
/// ```
///
/// - Returns: the result, for further checks; nil when the file could not be used.
@discardableResult
public func assertScenarioPasses(
    _ path: String,
    file: StaticString = #filePath,
    line: UInt = #line
) async -> ScenarioResult? {
    let scenario: Scenario
    do {
        scenario = try Scenario.load(contentsOfFile: path)
    } catch {
        XCTFail("\(error)", file: file, line: line)
        return nil
    }
    let (result, differences) = await scenario.check()
    if let failure = FlowChecks.scenarioFailure(
        name: scenario.name, differences: differences, transcript: result.transcript)
    {
        XCTFail(failure, file: file, line: line)
    }
    return result
}

extension FlowChecks {
    /// The failure message of a scenario with these differences (with its transcript), or nil
    /// when there are none.
    public static func scenarioFailure(name: String, differences: [String], transcript: Transcript) -> String? {
        guard !differences.isEmpty else { return nil }
        return "scenario '\(name)' failed:\n" + differences.map { "  - \($0)" }.joined(separator: "\n")
            + "\ntranscript:\n" + transcript.text()
    }
}
