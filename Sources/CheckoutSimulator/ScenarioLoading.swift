import CheckoutCore
import Foundation

/// A scenario file that cannot be used: the file, the place in it, the JSON path and what is
/// wrong there, in one to three lines.
public struct ScenarioFileError: Error, CustomStringConvertible {
    /// `FILE:LINE:COLUMN: unknown key `merchant.unservicable`; did you mean `unserviceable`?`, and
    /// possibly a second line with the keys or values allowed.
    public let message: String

    public var description: String { message }
}

extension Scenario {
    /// Reads and checks a scenario file: every key known, every value in its set, numbers whole and
    /// in range, the merchant's rules sound and the request presentable (see `docs/scenarios.md`).
    ///
    /// - Throws: ``ScenarioFileError`` naming the file, the line and column, the JSON path of the
    ///   problem and what was expected there.
    public static func load(contentsOfFile path: String) throws -> Scenario {
        do {
            return try ScenarioFile.load(path)
        } catch let error as CheckoutSimCommand.UsageError {
            throw ScenarioFileError(message: error.message)
        }
    }

    /// Checks and decodes a scenario from its JSON bytes as ``load(contentsOfFile:)`` does; `file`
    /// names it in messages.
    public static func load(json: [UInt8], file: String = "scenario") throws -> Scenario {
        do {
            return try ScenarioFile.decode(json, file: file)
        } catch let error as CheckoutSimCommand.UsageError {
            throw ScenarioFileError(message: error.message)
        }
    }

    /// Runs the scenario and returns what its expectation says about the result: every
    /// difference, and every broken invariant; empty when it passes. A scenario without `expect`
    /// expects no violations. A pay-context scenario runs on `backend`.
    public func check(backend: ScenarioBackend = .memory) async -> (result: ScenarioResult, differences: [String]) {
        let result = await ScenarioRunner.run(self, backend: backend)
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

/// Reading scenario files, with errors that name the file, the place, the JSON path and what was
/// expected.
package enum ScenarioFile {
    package static func load(_ path: String) throws -> Scenario {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CheckoutSimCommand.UsageError(message: "\(path): cannot read the file")
        }
        if isDirectory.boolValue {
            throw CheckoutSimCommand.UsageError(
                message: "\(path): is a directory, not a scenario file ('checkout-sim test DIR' runs a directory)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CheckoutSimCommand.UsageError(message: "\(path): cannot read the file (permission denied?)")
        }
        return try decode(Array(data), file: path)
    }

    static func decode(_ bytes: [UInt8], file: String) throws -> Scenario {
        func fail(_ location: ScenarioJSON.Location?, _ message: String, _ hint: String? = nil) -> any Error {
            let place = location.map { "\(file):\($0)" } ?? file
            return CheckoutSimCommand.UsageError(message: "\(place): \(message)" + (hint.map { "\n  \($0)" } ?? ""))
        }
        let root: ScenarioJSON
        do {
            root = try ScenarioJSON.parse(bytes)
        } catch {
            throw fail(error.location, error.message)
        }
        let flow: Scenario.Flow
        do {
            flow = try ScenarioSchema.check(root)
        } catch {
            throw fail(error.location, error.message, error.hint)
        }
        let scenario: Scenario
        do {
            scenario = try JSONDecoder().decode(Scenario.self, from: Data(bytes))
        } catch let error as DecodingError {
            let (path, message) = describe(error)
            throw fail(root.deepest(along: path).location, message)
        }
        if let problem = ScenarioRules.problem(in: scenario, flow: flow) {
            let node = root.deepest(along: ScenarioRules.steps(of: problem.path))
            throw fail(node.location, problem.message, problem.hint)
        }
        return scenario
    }

    /// A file stays as it is; a directory gives its `*.json` files, recursively, sorted.
    static func expand(_ path: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CheckoutSimCommand.UsageError(message: "\(path): no such file or directory")
        }
        guard isDirectory.boolValue else { return [path] }
        let enumerator = FileManager.default.enumerator(atPath: path)
        var files: [String] = []
        while let next = enumerator?.nextObject() as? String {
            let full = (path as NSString).appendingPathComponent(next)
            var isFolder: ObjCBool = false
            if next.hasSuffix(".json"), FileManager.default.fileExists(atPath: full, isDirectory: &isFolder),
                !isFolder.boolValue
            {
                files.append(full)
            }
        }
        guard !files.isEmpty else {
            throw CheckoutSimCommand.UsageError(message: "\(path): no scenario file (*.json) in this directory")
        }
        return files.sorted()
    }

    /// The coding path as keys and indexes, and a message: `at steps[2].card: expected a string`.
    static func describe(_ error: DecodingError) -> ([(key: String, index: Int?)], String) {
        func steps(_ keys: [any CodingKey]) -> [(key: String, index: Int?)] {
            keys.map { ($0.stringValue, $0.intValue) }
        }
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.reduce("") { path, key in
                if let index = key.intValue { return path + "[\(index)]" }
                return path.isEmpty ? key.stringValue : path + "." + key.stringValue
            }
            return text.isEmpty ? "the top level" : "`\(text)`"
        }
        switch error {
        case .dataCorrupted(let context):
            let detail = (context.underlyingError as? CheckoutError)?.message ?? context.debugDescription
            return (steps(context.codingPath), "at \(path(context.codingPath)): \(detail)")
        case .keyNotFound(let key, let context):
            return (
                steps(context.codingPath), "at \(path(context.codingPath)): missing key '\(key.stringValue)'"
            )
        case .typeMismatch(_, let context):
            return (steps(context.codingPath), "at \(path(context.codingPath)): a value of the wrong type")
        case .valueNotFound(_, let context):
            return (steps(context.codingPath), "at \(path(context.codingPath)): a value is missing (null)")
        @unknown default:
            return ([], "\(error)")
        }
    }
}
