import Foundation

/// A scenario file that cannot be used: the file, the JSON path and what was expected there.
public struct ScenarioFileError: Error, CustomStringConvertible {
    /// `FILE: at steps[1].card: expected a string ...`.
    public let message: String

    public var description: String { message }
}

extension Scenario {
    /// Reads and decodes a scenario file.
    ///
    /// - Throws: ``ScenarioFileError`` naming the file, the JSON path of the problem and what was
    ///   expected there.
    public static func load(contentsOfFile path: String) throws -> Scenario {
        do {
            return try ScenarioFile.load(path)
        } catch let error as CheckoutSimCommand.UsageError {
            throw ScenarioFileError(message: error.message)
        }
    }

    /// Runs the scenario and returns what its expectation says about the result: every
    /// difference, and every broken invariant; empty when it passes. A scenario without `expect`
    /// expects no violations.
    public func check() async -> (result: ScenarioResult, differences: [String]) {
        let result = await ScenarioRunner.run(self)
        var differences = (expect ?? Expectation(violations: [])).differences(from: result)
        if strict, expect?.violations == nil {
            // Strict mode (spec E2): the delegate's faults fail the scenario unless it lists them.
            for violation in result.violations where violation.kind.isDelegateFault {
                differences.append("strict mode: the delegate's fault \(violation)")
            }
        }
        return (result, differences)
    }
}
