import CheckoutCore
import CheckoutFlows
import Foundation

/// Where the command line writes: standard output and standard error, or a test's buffers.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// The process's standard output and standard error.
    public static let standard = Console(
        out: { print($0) },
        err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    )
}

/// `checkout-sim`: run, script, test and explore checkout sessions from the command line. Exit
/// codes: 0 success, 1 a failed test or a broken invariant or violation while exploring, 2 a
/// usage error or malformed input.
public enum CheckoutSimCommand {
    static let overview = """
        checkout-sim: run, script, test and explore checkout sessions.

        USAGE: checkout-sim <command> [options]

        COMMANDS:
          demo                      Run a built-in scenario for each flow and print what happened.
          run SCENARIO.json         Run one scenario; print its transcript and outcome.
          test PATH...              Run scenarios with expectations; print 'N passed, M failed'.
          explore SCENARIO.json     Random customers against the scenario's merchant.

        Run 'checkout-sim <command> --help' for a command's options.
        Exit codes: 0 success, 1 failures found, 2 usage error or malformed input.
        """

    static let help: [String: String] = [
        "demo": """
        USAGE: checkout-sim demo [--format text|json|mermaid] [--show-personal-data]

        Runs a built-in scenario for each flow (shipping address; payment authorization with a
        contact change, a method change, a coupon and a failed-then-retried authorization; pay
        context against the in-memory Stripe test-mode backend) and prints each transcript
        and outcome. No files needed.

        OPTIONS:
          --format F              text (default), json or mermaid.
          --show-personal-data    Show names, emails, phones and streets (secrets stay masked).
        """,
        "run": """
        USAGE: checkout-sim run SCENARIO.json [--format text|json|mermaid] [--show-personal-data]

        Runs one scenario and prints its transcript and outcome. 'mermaid' prints a sequence
        diagram (customer, flow, merchant, backend) that renders on GitHub.

        OPTIONS:
          --format F              text (default), json or mermaid.
          --show-personal-data    Show names, emails, phones and streets (secrets stay masked).
        """,
        "test": """
        USAGE: checkout-sim test PATH...

        Runs every scenario file given, and every *.json under each directory given, checks
        its 'expect' (outcome, delegate calls, violations; none given: no violations) and the
        spec's invariants, prints a difference for each failure and ends with
        'N passed, M failed'. Exits 1 when any failed.
        """,
        "explore": """
        USAGE: checkout-sim explore SCENARIO.json --sessions N [--seed S]

        Runs N random sessions against the scenario's merchant (random actions, cancels, test
        cards, answers from other threads and late within the deadline), checks the spec's
        invariants in each, and prints a summary of outcomes and, for each problem, the seed
        and the shortest action list that reproduces it. Exits 1 when an invariant broke or
        the merchant violated the contract.

        OPTIONS:
          --sessions N            How many sessions (required, at least 1).
          --seed S                The random seed (default 1); a session's seed replays it
                                  with --sessions 1.
        """,
    ]

    /// Runs the command line `arguments` (without the program name) and returns the exit code.
    public static func main(_ arguments: [String], console: Console = .standard) async -> Int32 {
        guard let command = arguments.first else {
            console.err(overview)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        if command == "--help" || command == "-h" || command == "help" {
            console.out(overview)
            return 0
        }
        guard let usage = help[command] else {
            console.err("checkout-sim: unknown command '\(command)' (see 'checkout-sim --help')")
            return 2
        }
        if rest.contains("--help") || rest.contains("-h") {
            console.out(usage)
            return 0
        }
        do {
            switch command {
            case "demo": return try await demo(rest, console)
            case "run": return try await run(rest, console)
            case "test": return try await test(rest, console)
            default: return try await explore(rest, console)
            }
        } catch let error as UsageError {
            console.err("checkout-sim: \(error.message)")
            return 2
        } catch {
            console.err("checkout-sim: \(error)")
            return 2
        }
    }

    struct UsageError: Error {
        let message: String
    }

    /// Options shared by `demo` and `run`.
    private struct Options {
        var positional: [String] = []
        var format = OutputFormat.text
        var showPersonalData = false
        var sessions: Int?
        var seed: UInt64 = 1
    }

    private static func parse(_ arguments: [String], command: String, allowed: Set<String>) throws -> Options {
        var options = Options()
        var index = 0
        func value(_ flag: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("-") {
                guard allowed.contains(argument) else {
                    throw UsageError(
                        message: "unknown option '\(argument)' for '\(command)' (see 'checkout-sim \(command) --help')"
                    )
                }
                switch argument {
                case "--format":
                    let text = try value(argument)
                    guard let format = OutputFormat(rawValue: text) else {
                        throw UsageError(message: "--format must be text, json or mermaid, not '\(text)'")
                    }
                    options.format = format
                case "--show-personal-data":
                    options.showPersonalData = true
                case "--sessions":
                    let text = try value(argument)
                    guard let sessions = Int(text), sessions >= 1 else {
                        throw UsageError(message: "--sessions must be a whole number of at least 1, not '\(text)'")
                    }
                    options.sessions = sessions
                default:
                    let text = try value(argument)
                    guard let seed = UInt64(text) else {
                        throw UsageError(
                            message: "--seed must be a whole number from 0 to \(UInt64.max), not '\(text)'")
                    }
                    options.seed = seed
                }
            } else {
                options.positional.append(argument)
            }
            index += 1
        }
        return options
    }

    // MARK: Commands

    private static func demo(_ arguments: [String], _ console: Console) async throws -> Int32 {
        let options = try parse(arguments, command: "demo", allowed: ["--format", "--show-personal-data"])
        guard options.positional.isEmpty else {
            throw UsageError(message: "'demo' takes no file (got '\(options.positional[0])')")
        }
        var broken = false
        for scenario in DemoScenarios.all {
            let result = await ScenarioRunner.run(scenario)
            console.out(result.rendered(options.format, showingPersonalData: options.showPersonalData))
            console.out("")
            broken = broken || !result.brokenInvariants.isEmpty
        }
        return broken ? 1 : 0
    }

    private static func run(_ arguments: [String], _ console: Console) async throws -> Int32 {
        let options = try parse(arguments, command: "run", allowed: ["--format", "--show-personal-data"])
        guard options.positional.count == 1 else {
            throw UsageError(message: "'run' takes exactly one scenario file (see 'checkout-sim run --help')")
        }
        let scenario = try ScenarioFile.load(options.positional[0])
        let result = await ScenarioRunner.run(scenario)
        console.out(result.rendered(options.format, showingPersonalData: options.showPersonalData))
        return result.brokenInvariants.isEmpty ? 0 : 1
    }

    private static func test(_ arguments: [String], _ console: Console) async throws -> Int32 {
        let options = try parse(arguments, command: "test", allowed: [])
        guard !options.positional.isEmpty else {
            throw UsageError(message: "'test' needs at least one scenario file or directory")
        }
        let files = try options.positional.flatMap(ScenarioFile.expand)
        let scenarios = try files.map { ($0, try ScenarioFile.load($0)) }
        var passed = 0
        var failed = 0
        for (file, scenario) in scenarios {
            let (_, differences) = await scenario.check()
            if differences.isEmpty {
                passed += 1
                console.out("PASS \(scenario.name) (\(file))")
            } else {
                failed += 1
                console.out("FAIL \(scenario.name) (\(file))")
                for difference in differences { console.out("  - \(difference)") }
            }
        }
        console.out("\(passed) passed, \(failed) failed")
        return failed == 0 ? 0 : 1
    }

    private static func explore(_ arguments: [String], _ console: Console) async throws -> Int32 {
        let options = try parse(arguments, command: "explore", allowed: ["--sessions", "--seed"])
        guard options.positional.count == 1 else {
            throw UsageError(message: "'explore' takes exactly one scenario file (see 'checkout-sim explore --help')")
        }
        guard let sessions = options.sessions else {
            throw UsageError(message: "'explore' needs --sessions N")
        }
        let scenario = try ScenarioFile.load(options.positional[0])
        let started = ContinuousClock.now
        let report = await Explorer.explore(scenario, sessions: sessions, seed: options.seed) { done in
            if sessions >= 1_000 { console.err("explore: \(done)/\(sessions) sessions") }
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        console.out("explored \(report.sessions) sessions of '\(scenario.name)' (seed \(options.seed))")
        if seconds > 0 {
            console.out("rate: \(Int(Double(report.sessions) / seconds)) sessions per second")
        }
        console.out("outcomes:")
        for (outcome, count) in report.outcomes.sorted(by: { $0.key < $1.key }) {
            console.out("  \(outcome): \(count)")
        }
        if report.failures.isEmpty {
            console.out("no invariant broke and the merchant kept the contract in every session")
            return 0
        }
        console.out("\(report.failedSessions) sessions failed; \(report.failures.count) distinct problems:")
        for failure in report.failures {
            console.out("- \(failure.problems.joined(separator: "; "))")
            console.out(
                "  seed: \(failure.seed) (replay: checkout-sim explore FILE --sessions 1 --seed \(failure.seed))")
            console.out("  shortest steps: " + failure.steps.map(\.description).joined(separator: " → "))
            if !failure.merchantVariation.isEmpty {
                let variation = failure.merchantVariation.map { "\($0.callback): \($0.kind.rawValue)" }
                console.out("  merchant: " + variation.joined(separator: ", "))
            }
        }
        return 1
    }
}

/// Reading scenario files, with errors that name the file, the JSON path and what was expected.
enum ScenarioFile {
    static func load(_ path: String) throws -> Scenario {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CheckoutSimCommand.UsageError(message: "\(path): cannot read the file")
        }
        do {
            return try JSONDecoder().decode(Scenario.self, from: data)
        } catch let error as DecodingError {
            throw CheckoutSimCommand.UsageError(message: "\(path): \(describe(error))")
        }
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
            if next.hasSuffix(".json") { files.append((path as NSString).appendingPathComponent(next)) }
        }
        return files.sorted()
    }

    /// `at steps[2].card: expected a string, found a number`.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.reduce("") { path, key in
                if let index = key.intValue { return path + "[\(index)]" }
                return path.isEmpty ? key.stringValue : path + "." + key.stringValue
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, !(context.underlyingError is CheckoutError) {
                let detail = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
                return "not valid JSON" + (detail.map { " (\($0))" } ?? "")
            }
            let detail = (context.underlyingError as? CheckoutError)?.message ?? context.debugDescription
            return "at \(path(context.codingPath)): \(detail)"
        case .keyNotFound(let key, let context):
            return "at \(path(context.codingPath)): missing key '\(key.stringValue)'"
        case .typeMismatch(let type, let context):
            return "at \(path(context.codingPath)): expected \(describe(type)) (\(context.debugDescription))"
        case .valueNotFound(let type, let context):
            return "at \(path(context.codingPath)): expected \(describe(type)), found null"
        @unknown default:
            return "\(error)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is UInt64.Type: "a whole number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: "a value of type \(type)"
        }
    }
}
