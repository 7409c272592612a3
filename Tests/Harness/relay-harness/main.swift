import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// relay-harness: the Chromium harness's HTTP front for the relay (test harness, not a product).
//
//   relay-harness --docs docs/relay.md --web Tests/Harness/web --record-dir DIR [--port N] SCENARIO.json...
//
// Serves each scenario as a shop named after its file, records each shop's events and answers in
// DIR/<name>.jsonl, prints `listening on http://127.0.0.1:PORT` once it listens, and runs until
// it is stopped. Tests/Harness/chromium-payment-request.py drives it.

struct Arguments {
    var docs = "docs/relay.md"
    var web = "Tests/Harness/web"
    var recordDirectory: String?
    var port: UInt16 = 0
    var scenarios: [String] = []

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--docs", "--web", "--record-dir", "--port":
                guard let value = rest.popFirst() else { throw UsageError(text: "\(argument) needs a value") }
                switch argument {
                case "--docs": docs = value
                case "--web": web = value
                case "--record-dir": recordDirectory = value
                default:
                    guard let port = UInt16(value) else { throw UsageError(text: "--port: not a port: \(value)") }
                    self.port = port
                }
            default:
                guard !argument.hasPrefix("-") else { throw UsageError(text: "unknown option \(argument)") }
                scenarios.append(argument)
            }
        }
        guard recordDirectory != nil, !scenarios.isEmpty else {
            throw UsageError(
                text: "usage: relay-harness --record-dir DIR [--docs FILE] [--web DIR] [--port N] SCENARIO.json...")
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    var text: String
    var description: String { text }
}

signal(SIGPIPE, SIG_IGN)
do {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    let snippet = try PageSnippet.w3c(fromMarkdownAt: arguments.docs)
    let shops = try arguments.scenarios.map { path in
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return try HarnessShop(scenarioAt: path, recordingPath: "\(arguments.recordDirectory!)/\(name).jsonl")
    }
    let front = Mutex<HarnessFront?>(nil)
    let server = try LoopbackHTTPServer(port: arguments.port) { request in
        guard let front = front.withLock({ $0 }) else { return .text(404, "starting") }
        return await front.respond(to: request)
    }
    let origin = "http://127.0.0.1:\(server.port)"
    front.withLock {
        $0 = HarnessFront(shops: shops, snippet: snippet, web: URL(fileURLWithPath: arguments.web), origin: origin)
    }
    server.start()
    // Unbuffered, so the driver reads it at once.
    FileHandle.standardOutput.write(Data("listening on \(origin)\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
} catch {
    FileHandle.standardError.write(Data("relay-harness: \(error)\n".utf8))
    exit(2)
}
