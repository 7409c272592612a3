import CheckoutCore
import CheckoutFlows
import CheckoutStripeBackends
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
        // Written at once, line by line: `checkout-sim relay` answers a page's driver that waits
        // for each answer before it sends the next event.
        out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
        err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    )
}

/// `checkout-sim`: run, script, test and explore checkout sessions from the command line. Exit
/// codes: 0 success, 1 a failed test or a broken invariant or violation while exploring, 2 a
/// usage error or malformed input.
///
/// The habits of swift-argument-parser's tools, by hand (the package has no dependencies):
/// `--version`, `--option value` and `--option=value`, short forms (`-f`, `-n`, `-s`, `-h`),
/// `help COMMAND`, and usage errors that print the command's usage line.
public enum CheckoutSimCommand {
    /// The version `--version` prints.
    public static let version = "0.9.0"

    static let overview = """
        OVERVIEW: checkout-sim: run, script, test and explore checkout sessions.

        USAGE: checkout-sim <command> [options]

        COMMANDS:
          demo                      Run a built-in scenario for each flow and print what happened.
          run SCENARIO.json         Run one scenario; print its transcript and outcome.
          test PATH...              Run scenarios with expectations; print 'N passed, M failed'.
          explore SCENARIO.json     Random customers against the scenario's merchant.
          relay SCENARIO.json       A page's Apple Pay events (JSON Lines) through a server's relay.
          webhook verify FILE       Verify a Stripe webhook's body against its Stripe-Signature.
          help [COMMAND]            Show this help, or a command's.

        OPTIONS:
          --version                 Print the version.
          -h, --help                Show help.

        Run 'checkout-sim help <command>' for a command's options.
        Exit codes: 0 success, 1 failures found, 2 usage error or malformed input.
        """

    /// An option of a command: its long name, its short one, and whether it takes a value.
    struct Option {
        let long: String
        let short: Character?
        let takesValue: Bool
    }

    /// A command: its usage line, its help, its options.
    package struct Command {
        let usage: String
        let help: String
        let options: [Option]
    }

    static let formatOption = Option(long: "format", short: "f", takesValue: true)
    static let personalDataOption = Option(long: "show-personal-data", short: nil, takesValue: false)
    static let backendOption = Option(long: "backend", short: nil, takesValue: true)
    static let stripeBaseURLOption = Option(long: "stripe-base-url", short: nil, takesValue: true)
    static let stripeEmulatorOption = Option(long: "stripe-emulator", short: nil, takesValue: false)

    /// The environment variable `--backend stripe-http` reads its key from (never a flag: a flag
    /// would show in the shell's history and the process list).
    public static let secretKeyVariable = "STRIPE_SECRET_KEY"

    static let backendHelp = """
          --backend <backend>     The pay context's payment backend: memory (default, the
                                  in-memory Stripe test mode, with the scenario's merchant.radar)
                                  or stripe-http (Stripe's HTTP API, or an emulator's at
                                  --stripe-base-url; the merchant creates each intent there with
                                  the test-mode secret key in STRIPE_SECRET_KEY, and the account's
                                  own Radar rules apply). Other flows use no backend.
          --stripe-base-url <url> With --backend stripe-http: the API's base URL (default
                                  https://api.stripe.com), e.g. http://127.0.0.1:8420 for
                                  localstripe.
          --stripe-emulator       With --stripe-base-url: the URL is localstripe's, which needs a
                                  CVC, takes 16-digit numbers only and has no shipping on
                                  PaymentIntents: card numbers go with a test CVC (123), a
                                  plain-success card of another length (American Express,
                                  Diners Club) goes as 4242 4242 4242 4242, and no shipping is
                                  sent (said on stderr).
        """

    package static let commands: [String: Command] = [
        "demo": Command(
            usage: "checkout-sim demo [--format <text|json|jsonl|mermaid>] [--show-personal-data]",
            help: """
                Runs a built-in scenario for each flow (shipping address; payment authorization with a
                contact change, a method change, a coupon and a failed-then-retried authorization; pay
                context against the in-memory Stripe test-mode backend) and prints each transcript
                and outcome. No files needed.

                OPTIONS:
                  -f, --format <format>   text (default), json (one document: an array of the three
                                          results), jsonl (JSON Lines: one result a line) or mermaid.
                  --show-personal-data    Show names, emails, phones and streets (secrets stay masked).
                  -h, --help              Show help.
                """,
            options: [formatOption, personalDataOption]),
        "run": Command(
            usage: "checkout-sim run <scenario.json> [--format <text|json|jsonl|mermaid>] [--show-personal-data]"
                + " [--backend <memory|stripe-http>] [--stripe-base-url <url> [--stripe-emulator]]",
            help: """
                Runs one scenario and prints its transcript and outcome. 'mermaid' prints a sequence
                diagram (customer, flow, merchant, backend) that renders on GitHub. Exits 1 when a
                spec invariant broke.

                OPTIONS:
                  -f, --format <format>   text (default), json (one document), jsonl (the same on
                                          one line) or mermaid.
                  --show-personal-data    Show names, emails, phones and streets (secrets stay masked).
                \(backendHelp)
                  -h, --help              Show help.
                """,
            options: [formatOption, personalDataOption, backendOption, stripeBaseURLOption, stripeEmulatorOption]),
        "test": Command(
            usage: "checkout-sim test <path>... [--junit <file>] [--json] [--backend <memory|stripe-http>]"
                + " [--stripe-base-url <url> [--stripe-emulator]]",
            help: """
                Runs every scenario file given, and every *.json under each directory given, checks
                its 'expect' (outcome, delegate calls, violations; none given: no violations) and the
                spec's invariants, prints PASS or FAIL for each file (a file that cannot be loaded is
                one failure, with its reason; the others still run) and ends with
                'N passed, M failed'. Exits 1 when any failed, 2 when a file could not be loaded
                or a directory holds no scenario.

                OPTIONS:
                  --junit <file>          Also write a JUnit XML report (what CI systems read).
                  --json                  Print one JSON document instead of the text.
                \(backendHelp)
                  -h, --help              Show help.
                """,
            options: [
                Option(long: "junit", short: nil, takesValue: true),
                Option(long: "json", short: nil, takesValue: false),
                backendOption, stripeBaseURLOption, stripeEmulatorOption,
            ]
        ),
        "explore": Command(
            usage: "checkout-sim explore <scenario.json> --sessions <n> [--seed <s>] [--json] [--rate]",
            help: """
                Runs N random sessions against the scenario's merchant (random actions, cancels, test
                cards, answers from other threads and late within the deadline), checks the spec's
                invariants in each, and prints how the sessions ended and, for each distinct problem,
                the seed, a command that replays it, and the shortest action list that shows it.
                The output is the same on every run with the same seed. Exits 1 when an invariant
                broke or the merchant violated the contract.

                OPTIONS:
                  -n, --sessions <n>      How many sessions (required, at least 1).
                  -s, --seed <s>          The random seed (default 1); a problem's seed replays its
                                          session with --sessions 1.
                  --json                  Print one JSON document instead of the text.
                  --rate                  Also print sessions per second (differs between runs).
                  -h, --help              Show help.
                """,
            options: [
                Option(long: "sessions", short: "n", takesValue: true),
                Option(long: "seed", short: "s", takesValue: true),
                Option(long: "json", short: nil, takesValue: false),
                Option(long: "rate", short: nil, takesValue: false),
            ]),
        "relay": relayCommand,
        "webhook": webhookCommand,
    ]

    static let order = ["demo", "run", "test", "explore", "relay", "webhook"]

    /// The help of `name`: its usage line and its text.
    static func help(_ name: String) -> String? {
        commands[name].map { "USAGE: \($0.usage)\n\n\($0.help)" }
    }

    /// Runs the command line `arguments` (without the program name) and returns the exit code;
    /// `environment` is where `--backend stripe-http` finds ``secretKeyVariable`` and
    /// `webhook verify` finds ``webhookSecretVariable``.
    public static func main(
        _ arguments: [String],
        console: Console = .standard,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Int32 {
        guard let name = arguments.first else {
            console.err(overview)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "--help", "-h":
            console.out(overview)
            return 0
        case "--version":
            guard rest.isEmpty else {
                console.err("checkout-sim: --version takes nothing more (got '\(rest.joined(separator: " "))')")
                return 2
            }
            console.out(version)
            return 0
        case "help":
            guard let topic = rest.first, !(topic == "help" && rest.count == 1) else {
                console.out(overview)
                return 0
            }
            guard let text = help(topic), rest.count == 1 else {
                let near =
                    rest.count == 1 ? ScenarioSchema.nearest(topic, order).map { "; did you mean '\($0)'?" } : nil
                console.err(
                    "checkout-sim: unknown command '\(rest.joined(separator: " "))'\(near ?? "") "
                        + "(commands: \(order.joined(separator: ", ")))"
                )
                return 2
            }
            console.out(text)
            return 0
        default:
            break
        }
        guard let command = commands[name] else {
            let near = ScenarioSchema.nearest(name, order).map { "; did you mean '\($0)'?" } ?? ""
            console.err("checkout-sim: unknown command '\(name)'\(near) (see 'checkout-sim --help')")
            return 2
        }
        do {
            let options = try parse(rest, name, command)
            if options.help {
                console.out(help(name) ?? overview)
                return 0
            }
            switch name {
            case "demo": return try await demo(options, console)
            case "run": return try await run(options, console, try backend(options, environment))
            case "test": return try await test(options, console, try backend(options, environment))
            case "relay": return try await relay(options, console)
            case "webhook": return try webhook(options, console, environment)
            default: return try await explore(options, console)
            }
        } catch let error as ArgumentError {
            console.err("checkout-sim: \(error.message)")
            console.err("USAGE: \(command.usage)")
            console.err("  See 'checkout-sim help \(name)'.")
            return 2
        } catch let error as UsageError {
            console.err("checkout-sim: \(error.message)")
            return 2
        } catch {
            console.err("checkout-sim: \(error)")
            return 2
        }
    }

    /// Input that cannot be used (a scenario file): the message says it all.
    struct UsageError: Error {
        let message: String
    }

    /// A command line that does not fit the command: the message, then the command's usage line.
    struct ArgumentError: Error {
        let message: String
    }

    /// The parsed command line of one command.
    package struct Options {
        var positional: [String] = []
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var help = false

        var format = OutputFormat.text
        var showPersonalData: Bool { flags.contains("show-personal-data") }
        var sessions: Int?
        var seed: UInt64 = 1
        var backend = BackendChoice.memory
        var stripeBaseURL: URL?
    }

    /// `--backend`'s values.
    enum BackendChoice: String, CaseIterable {
        case memory
        case stripeHTTP = "stripe-http"
    }

    package static func parse(_ arguments: [String], _ name: String, _ command: Command) throws -> Options {
        var options = Options()
        var index = 0
        var onlyPositional = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || argument == "-" || !argument.hasPrefix("-") {
                options.positional.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                options.help = true
                continue
            }
            var spelled = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                spelled = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            let option: Option?
            if spelled.hasPrefix("--") {
                option = command.options.first { "--\($0.long)" == spelled }
            } else if spelled.count == 2 {
                option = command.options.first { $0.short.map { "-\($0)" } == spelled }
            } else {
                option = nil
            }
            guard let option else {
                let near = ScenarioSchema.nearest(
                    String(spelled.drop { $0 == "-" }), command.options.map(\.long)
                ).map { "; did you mean '--\($0)'?" }
                throw ArgumentError(message: "unknown option '\(spelled)' for '\(name)'" + (near ?? ""))
            }
            if option.takesValue {
                if let inline {
                    options.values[option.long] = inline
                } else {
                    guard index < arguments.count else {
                        throw ArgumentError(message: "--\(option.long) needs a value")
                    }
                    options.values[option.long] = arguments[index]
                    index += 1
                }
            } else {
                if inline != nil { throw ArgumentError(message: "--\(option.long) takes no value") }
                options.flags.insert(option.long)
            }
        }
        if let text = options.values["format"] {
            guard let format = OutputFormat(rawValue: text) else {
                throw ArgumentError(message: "--format must be text, json, jsonl or mermaid, not '\(text)'")
            }
            options.format = format
        }
        if let text = options.values["sessions"] {
            guard let sessions = Int(text), sessions >= 1 else {
                throw ArgumentError(message: "--sessions must be a whole number of at least 1, not '\(text)'")
            }
            options.sessions = sessions
        }
        if let text = options.values["backend"] {
            guard let backend = BackendChoice(rawValue: text) else {
                let near =
                    ScenarioSchema.nearest(text, BackendChoice.allCases.map(\.rawValue))
                    .map { "; did you mean '\($0)'?" } ?? ""
                throw ArgumentError(message: "--backend must be memory or stripe-http, not '\(text)'" + near)
            }
            options.backend = backend
        }
        if let text = options.values["stripe-base-url"] {
            guard options.backend == .stripeHTTP else {
                throw ArgumentError(message: "--stripe-base-url needs --backend stripe-http")
            }
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme),
                let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
            else {
                throw ArgumentError(
                    message: "--stripe-base-url must be an http or https URL with a host, such as "
                        + "http://127.0.0.1:8420, not '\(text)'")
            }
            options.stripeBaseURL = url
        }
        if options.flags.contains("stripe-emulator"), options.stripeBaseURL == nil {
            throw ArgumentError(message: "--stripe-emulator needs --stripe-base-url (the emulator's URL)")
        }
        if let text = options.values["seed"] {
            guard let seed = UInt64(text) else {
                throw ArgumentError(message: "--seed must be a whole number from 0 to \(UInt64.max), not '\(text)'")
            }
            options.seed = seed
        }
        return options
    }

    /// The backend the options choose; for `stripe-http`, the test-mode secret key from
    /// `environment` (a missing, malformed, publishable or live key is a usage error naming the
    /// variable, never showing its value).
    package static func backend(_ options: Options, _ environment: [String: String]) throws -> ScenarioBackend {
        guard options.backend == .stripeHTTP else { return .memory }
        let variable = secretKeyVariable
        guard let text = environment[variable], !text.isEmpty else {
            throw UsageError(
                message: "--backend stripe-http needs a Stripe test-mode secret key in the environment "
                    + "variable \(variable) (sk_test_…); it is not set")
        }
        let key: StripeAPIKey
        do {
            key = try StripeAPIKey(text)
        } catch {
            throw UsageError(
                message: "\(variable) is not a Stripe API key (sk_test_… expected; its value is not shown)")
        }
        guard key.kind == .secret else {
            throw UsageError(
                message: "\(variable) holds a publishable key (\(key)): the merchant's server creates intents "
                    + "with a secret key (sk_test_…)")
        }
        guard key.isTestMode else {
            throw UsageError(
                message: "\(variable) holds a live-mode key (\(key)): checkout-sim runs in test mode only "
                    + "(sk_test_…)")
        }
        let emulator = options.flags.contains("stripe-emulator")
        return .stripeHTTP(
            StripeHTTPBackend.Configuration(
                apiKey: key, baseURL: options.stripeBaseURL ?? StripeHTTPBackend.Configuration.stripeAPI,
                sendsTestCVC: emulator, sendsShipping: !emulator, sendsStandInCards: emulator))
    }

    /// On `stripe-http`, notes on what the backend leaves out: the scenario's `merchant.radar`
    /// (the account's own rules decide) and, for an emulator, shipping.
    private static func note(_ scenario: Scenario, _ backend: ScenarioBackend, _ console: Console) {
        guard case .stripeHTTP(let configuration) = backend, scenario.flow == .payContext else { return }
        if scenario.merchant.radar != nil {
            console.err(
                "checkout-sim: note: '\(scenario.name)' sets merchant.radar, which only the memory backend "
                    + "applies; on stripe-http the account's own Radar rules decide")
        }
        if !configuration.sendsShipping, !(scenario.paymentRequest?.requiredShippingContactFields.isEmpty ?? true) {
            console.err(
                "checkout-sim: note: '\(scenario.name)': --stripe-emulator sends no shipping to the emulator")
        }
    }

    // MARK: Commands

    private static func demo(_ options: Options, _ console: Console) async throws -> Int32 {
        guard options.positional.isEmpty else {
            throw ArgumentError(message: "'demo' takes no file (got '\(options.positional[0])')")
        }
        var broken = false
        var results: [ScenarioResult] = []
        for scenario in DemoScenarios.all {
            let result = await ScenarioRunner.run(scenario)
            results.append(result)
            broken = broken || !result.brokenInvariants.isEmpty
        }
        switch options.format {
        case .json:
            console.out(ScenarioResult.jsonArray(results, showingPersonalData: options.showPersonalData))
        case .text, .mermaid, .jsonl:
            for result in results {
                console.out(result.rendered(options.format, showingPersonalData: options.showPersonalData))
                if options.format != .jsonl { console.out("") }
            }
        }
        return broken ? 1 : 0
    }

    private static func run(_ options: Options, _ console: Console, _ backend: ScenarioBackend) async throws
        -> Int32
    {
        guard options.positional.count == 1 else {
            throw ArgumentError(message: "'run' takes exactly one scenario file")
        }
        let scenario = try ScenarioFile.load(options.positional[0])
        if case .stripeHTTP = backend, scenario.flow != .payContext {
            throw UsageError(
                message: "\(options.positional[0]): --backend stripe-http runs pay-context scenarios; "
                    + "this one is a \(scenario.flow.rawValue) scenario, which uses no backend")
        }
        note(scenario, backend, console)
        let result = await ScenarioRunner.run(scenario, backend: backend)
        console.out(result.rendered(options.format, showingPersonalData: options.showPersonalData))
        return result.brokenInvariants.isEmpty ? 0 : 1
    }

    private static func test(_ options: Options, _ console: Console, _ backend: ScenarioBackend) async throws
        -> Int32
    {
        guard !options.positional.isEmpty else {
            throw ArgumentError(message: "'test' needs at least one scenario file or directory")
        }
        let files = try options.positional.flatMap(ScenarioFile.expand)
        var report = TestReport()
        let json = options.flags.contains("json")
        for file in files {
            let started = ContinuousClock.now
            let entry: TestReport.Entry
            do {
                let scenario = try ScenarioFile.load(file)
                note(scenario, backend, console)
                let (_, differences) = await scenario.check(backend: backend)
                entry = TestReport.Entry(
                    file: file, name: scenario.name, differences: differences, malformed: nil,
                    duration: ContinuousClock.now - started)
            } catch let error as UsageError {
                entry = TestReport.Entry(
                    file: file, name: (file as NSString).lastPathComponent, differences: [], malformed: error.message,
                    duration: ContinuousClock.now - started)
            }
            report.entries.append(entry)
            if !json { console.out(entry.text) }
        }
        if let path = options.values["junit"] {
            do {
                try Data(report.junit().utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                throw UsageError(message: "\(path): cannot write the JUnit report (\(error.localizedDescription))")
            }
        }
        console.out(json ? report.json() : report.summary)
        if report.entries.contains(where: { $0.malformed != nil }) { return 2 }
        return report.failed == 0 ? 0 : 1
    }

    private static func explore(_ options: Options, _ console: Console) async throws -> Int32 {
        guard options.positional.count == 1 else {
            throw ArgumentError(message: "'explore' takes exactly one scenario file")
        }
        guard let sessions = options.sessions else {
            throw ArgumentError(message: "'explore' needs --sessions N")
        }
        let file = options.positional[0]
        let scenario = try ScenarioFile.load(file)
        let started = ContinuousClock.now
        let report = await Explorer.explore(scenario, sessions: sessions, seed: options.seed) { done in
            if sessions >= 1_000 { console.err("explore: \(done)/\(sessions) sessions") }
        }
        let elapsed = ContinuousClock.now - started
        let output = ExploreOutput(report: report, scenario: scenario, file: file, seed: options.seed)
        if options.flags.contains("json") {
            console.out(output.json())
        } else {
            for line in output.lines() { console.out(line) }
        }
        if options.flags.contains("rate") {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if seconds > 0 { console.err("rate: \(Int(Double(report.sessions) / seconds)) sessions per second") }
        }
        return report.failures.isEmpty ? 0 : 1
    }
}
