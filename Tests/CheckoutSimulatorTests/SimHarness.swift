import CheckoutFlows
import CheckoutSimulator
import Foundation

/// Runs `checkout-sim` through its library entry point and collects what it prints.
struct SimHarness {
    typealias Run = CommandLineTests.Run

    func sim(_ arguments: [String], environment: [String: String] = [:]) async -> Run {
        let out = LockedValue([String]())
        let err = LockedValue([String]())
        let console = Console(
            out: { line in out.withLock { $0.append(line) } }, err: { line in err.withLock { $0.append(line) } })
        let code = await CheckoutSimCommand.main(arguments, console: console, environment: environment)
        return Run(
            code: code, out: out.withLock { $0.joined(separator: "\n") },
            err: err.withLock { $0.joined(separator: "\n") })
    }

    func sim(_ arguments: String...) async -> Run { await sim(arguments) }

    /// Writes `text` to a temporary scenario file.
    func file(_ text: String, _ name: String = UUID().uuidString) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A new empty temporary directory.
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
