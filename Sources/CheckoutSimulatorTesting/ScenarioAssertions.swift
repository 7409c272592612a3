import CheckoutFlows
import CheckoutSimulator
import CheckoutTesting

/// Runs the `checkout-sim` scenario file at `path` from a test, and fails the test (XCTest or
/// Swift Testing, through `CheckoutTesting`'s `TestFailureReporter`) with a line per difference
/// from the scenario's `expect` (without one: for any violation) and per broken invariant, or
/// when the file cannot be read.
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
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async -> ScenarioResult? {
    let reporter = TestFailureReporter.current
    let location = TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column)
    let scenario: Scenario
    do {
        scenario = try Scenario.load(contentsOfFile: path)
    } catch {
        reporter.report("\(error)", at: location)
        return nil
    }
    let (result, differences) = await scenario.check()
    if let failure = FlowChecks.scenarioFailure(
        name: scenario.name, differences: differences, transcript: result.transcript)
    {
        reporter.report(failure, at: location)
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
