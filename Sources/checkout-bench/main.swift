import CheckoutFlows
import CheckoutSimulator
import CheckoutWebRelay
import Foundation

// checkout-bench: the cost of a checkout session, side by side with the bare minimum. See
// BENCHMARKS.md for the method and the latest figures.

let usage = """
    USAGE: checkout-bench [--quick] [--json] [--runs N] [--only PARTS] [--examples DIR]

    Measures the delegate round trip beside plain closures, whole sessions per second, the memory
    of parked sessions, throughput on one and two worker threads, and the explorer. Every figure
    is the median of several runs after a warm-up, shown with its range. Build in release:
    swift run -c release checkout-bench

    OPTIONS:
      --quick          A reduced run (fewer and shorter runs), under a minute.
      --json           Print one JSON object instead of the table.
      --runs N         Runs per figure (default 7, quick 3).
      --only PARTS     A comma-separated subset of: roundtrip, sessions, memory, concurrency, explorer,
                       relay (whole Apple Pay sessions through WebRelay.handle(json:) beside plain
                       Codable), flood (not run unless named: a relay flooded with and without its
                       limits, COUNT events, default 20000).
      --examples DIR   The scenarios the explorer runs (default: Examples).
      --profile WHAT   Run one workload COUNT times without measuring, for a profiler such as
                       valgrind --tool=callgrind (Scripts/profile.sh): baseline,
                       baseline-prebuilt, baseline-concrete, roundtrip-off, roundtrip-on,
                       roundtrip-bare, roundtrip-off-prebuilt, roundtrip-on-prebuilt,
                       shipping, authorization, park, park-off,
                       concurrency-1, concurrency-2, concurrency-pinned-1,
                       concurrency-pinned-2, concurrency-baseline-1,
                       concurrency-baseline-2, explore
                       (each example under --examples, COUNT sessions each), relay, relay-off
                       (transcripts off), relay-baseline (COUNT whole sessions of five events), relay-idle
                       (COUNT sessions left idle after four events, for a heap profiler), relay-idle-off
                       (the same, transcripts off).
      --count COUNT    How many round trips, sessions or parked sessions --profile runs, or events a
                       flood sends
                       (default 100000).
    """

struct Options {
    var quick = false
    var json = false
    var runs: Int?
    var parts: Set<String> = ["roundtrip", "sessions", "memory", "concurrency", "explorer", "relay"]
    var examples = "Examples"
    var profile: String?
    var count = 100_000
    /// Whether --count was given (the flood's own default is 20,000 events).
    var countGiven = false
}

func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var rest = arguments[...]
    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("checkout-bench: \(message)\n\n\(usage)\n".utf8))
        exit(2)
    }
    while let argument = rest.popFirst() {
        switch argument {
        case "--quick": options.quick = true
        case "--json": options.json = true
        case "--runs":
            guard let value = rest.popFirst().flatMap({ Int($0) }), value > 0 else { fail("--runs needs a count") }
            options.runs = value
        case "--only":
            guard let value = rest.popFirst() else { fail("--only needs a list") }
            let parts = Set(value.split(separator: ",").map(String.init))
            guard parts.isSubset(of: options.parts.union(["flood"])), !parts.isEmpty else {
                fail("unknown part in '\(value)'")
            }
            options.parts = parts
        case "--examples":
            guard let value = rest.popFirst() else { fail("--examples needs a directory") }
            options.examples = value
        case "--profile":
            guard let value = rest.popFirst() else { fail("--profile needs a workload") }
            options.profile = value
        case "--count":
            guard let value = rest.popFirst().flatMap({ Int($0) }), value > 0 else { fail("--count needs a count") }
            options.count = value
            options.countGiven = true
        case "--help", "-h":
            print(usage)
            exit(0)
        default: fail("unknown argument '\(argument)'")
        }
    }
    return options
}

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
let runs = options.runs ?? (options.quick ? 3 : 7)

if let workload = options.profile {
    let merchant = Merchant()
    let shop = Merchants.opaque(.shop)
    let prebuilt = Merchants.opaque(.prebuilt)
    let count = options.count
    func bareSheet() -> RoundTripBench.BareSheet {
        RoundTripBench.BareSheet(methods: Shop.methods, summaryItems: Shop.request.summaryItems)
    }
    let argumentFlow = try! PaymentAuthorizationFlow(request: Shop.request, delegate: merchant)
    switch workload {
    case "baseline": _ = RoundTripBench.baseline(count, shop, argumentFlow, bareSheet())
    case "baseline-prebuilt": _ = RoundTripBench.baseline(count, prebuilt, argumentFlow, bareSheet())
    case "baseline-concrete": _ = RoundTripBench.concreteBaseline(count, argumentFlow, bareSheet())
    case "roundtrip-off": _ = RoundTripBench.flow(count, .transcriptOff, shop)
    case "roundtrip-on": _ = RoundTripBench.flow(count, .transcriptOn, shop)
    case "roundtrip-bare": _ = RoundTripBench.flow(count, .bare, shop)
    case "roundtrip-off-prebuilt": _ = RoundTripBench.flow(count, .transcriptOff, prebuilt)
    case "roundtrip-on-prebuilt": _ = RoundTripBench.flow(count, .transcriptOn, prebuilt)
    case "shipping": _ = SessionsBench.shipping(count, merchant)
    case "authorization": _ = SessionsBench.authorization(count, merchant)
    case "explore":
        guard let examples = try? ExplorerBench.load(options.examples), !examples.isEmpty else {
            FileHandle.standardError.write(Data("checkout-bench: no examples under \(options.examples)\n".utf8))
            exit(2)
        }
        for example in examples { _ = await Explorer.explore(example.scenario, sessions: count, seed: 1) }
    case "concurrency-1": _ = ConcurrencyBench.sample(count, workers: 1)
    case "concurrency-2": _ = ConcurrencyBench.sample(count, workers: 2)
    case "concurrency-pinned-1": _ = ConcurrencyBench.sample(count, workers: 1, pinned: true)
    case "concurrency-pinned-2": _ = ConcurrencyBench.sample(count, workers: 2, pinned: true)
    case "concurrency-baseline-1": _ = ConcurrencyBench.sample(count, workers: 1, baseline: true)
    case "concurrency-baseline-2": _ = ConcurrencyBench.sample(count, workers: 2, baseline: true)
    case "park": _ = MemoryBench.sample(count, transcripts: true)
    case "park-off": _ = MemoryBench.sample(count, transcripts: false)
    case "relay", "relay-off":
        let pages = RelayPage.sessions(RelayBench.pagesPerPool)
        let relay = RelayBench.relay(merchant, transcripts: workload == "relay")
        _ = await RelayBench.relaySessions(count, relay, pages, caller: RelayCaller("profile"))
    case "relay-idle": _ = await RelayBench.idleBytes(count)
    case "relay-idle-off": _ = await RelayBench.idleBytes(count, transcripts: false)
    case "relay-baseline":
        _ = RelayBench.plainSessions(count, RelayBench.plainRelay(), RelayPage.sessions(RelayBench.pagesPerPool))
    default:
        FileHandle.standardError.write(Data("checkout-bench: unknown workload '\(workload)'\n".utf8))
        exit(2)
    }
    exit(0)
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("checkout-bench: \(message)\n".utf8))
}

#if DEBUG
    log("warning: a debug build; measure with 'swift run -c release checkout-bench'")
#endif

var figures: [Figure] = []
var extras: [String: Any] = [:]

if options.parts.contains("roundtrip") {
    let result = RoundTripBench.run(runs: runs, sampleSeconds: options.quick ? 0.05 : 0.2, log: log)
    figures += [
        Figure(
            name: "Round trip, transcripts off: ours / baseline", key: "roundTripRatioTranscriptOff", unit: "x",
            runs: result.ratios[.transcriptOff] ?? [], target: .atMost(1.25)),
        Figure(
            name: "Round trip, transcripts on: ours / baseline", key: "roundTripRatioTranscriptOn", unit: "x",
            runs: result.ratios[.transcriptOn] ?? [], target: .atMost(1.5)),
        Figure(
            name: "Round trip, no deadline, no transcript: ours / baseline", key: "roundTripRatioBare",
            unit: "x", runs: result.ratios[.bare] ?? []),
        Figure(
            name: "Round trip, prebuilt merchant, transcripts off: ours / baseline",
            key: "roundTripRatioEngineOnly", unit: "x", runs: result.engineOnlyRatios),
        Figure(
            name: "Engine cost per round trip (ours - baseline, transcripts off)",
            key: "engineNanosecondsPerRoundTrip", unit: "ns", runs: result.engineNanoseconds, target: .atMost(50)),
        Figure(
            name: "Round trips per second, transcripts off (one core)", key: "roundTripsPerSecond", unit: "/s",
            runs: result.rates[.transcriptOff] ?? [], target: .atLeast(3_300_000)),
        Figure(
            name: "Round trips per second, transcripts on", key: "roundTripsPerSecondTranscriptOn", unit: "/s",
            runs: result.rates[.transcriptOn] ?? []),
        Figure(
            name: "Round trips per second, no deadline, no transcript", key: "roundTripsPerSecondBare",
            unit: "/s", runs: result.rates[.bare] ?? []),
        Figure(
            name: "Round trips per second, engine only (prebuilt merchant)", key: "roundTripsPerSecondEngineOnly",
            unit: "/s", runs: result.engineOnlyRates, target: .atLeast(6_000_000)),
        Figure(
            name: "Round trips per second, baseline (real delegate call)", key: "baselineRoundTripsPerSecond",
            unit: "/s", runs: result.baseline),
        Figure(
            name: "Round trips per second, baseline, prebuilt merchant", key: "baselineRoundTripsPerSecondEngineOnly",
            unit: "/s", runs: result.baselinePrebuilt),
        Figure(
            name: "Round trips per second, old baseline (inlined; reference only)",
            key: "baselineConcreteRoundTripsPerSecond", unit: "/s", runs: result.baselineConcrete),
    ]
}

if options.parts.contains("sessions") {
    let result = await SessionsBench.run(runs: runs, sampleSeconds: options.quick ? 0.1 : 0.3, log: log)
    figures += [
        Figure(
            name: "Shipping-address sessions per second", key: "shippingSessionsPerSecond", unit: "/s",
            runs: result.shipping),
        Figure(
            name: "Authorization sessions per second", key: "authorizationSessionsPerSecond", unit: "/s",
            runs: result.authorization),
        Figure(
            name: "Pay-context sessions per second (wall)", key: "payContextSessionsPerSecond", unit: "/s",
            runs: result.payContext),
    ]
}

if options.parts.contains("memory") {
    let sessions = 100_000
    let result = MemoryBench.run(sessions: sessions, runs: options.quick ? 2 : max(3, runs / 2), log: log)
    // Each parked session holds the request's own storage: one reference (its
    // fields are copy on write, shared with the driver's request and not counted).
    let request = Double(MemoryBench.requestBytes)
    figures += [
        Figure(
            name: "Bytes per parked session (default options)", key: "bytesPerParkedSession", unit: "B",
            runs: result.transcriptOn),
        Figure(
            name: "  beyond the request's own storage", key: "bytesPerParkedSessionBeyondRequest", unit: "B",
            runs: result.transcriptOn.map { $0 - request }),
        Figure(
            name: "Bytes per parked session, transcripts on, all of it", key: "bytesPerParkedSessionTranscriptOn",
            unit: "B", runs: result.transcriptOn, target: .atMost(768)),
        Figure(
            name: "Bytes per parked session, transcripts off, all of it", key: "bytesPerParkedSessionTranscriptOff",
            unit: "B", runs: result.transcriptOff, target: .atMost(512)),
        Figure(
            name: "  beyond the request's own storage", key: "bytesPerParkedSessionTranscriptOffBeyondRequest",
            unit: "B", runs: result.transcriptOff.map { $0 - request }),
        Figure(
            name: "Bytes per session left after cancel and release", key: "bytesLeftPerReleasedSession",
            unit: "B", runs: result.leftAfterRelease),
    ]
    extras["parkedSessions"] = sessions
    extras["requestBytesPerSession"] = MemoryBench.requestBytes
    extras["peakResidentBytes"] = result.peakResidentBytes
}

if options.parts.contains("concurrency") {
    let sessions = options.quick ? 20_000 : 100_000
    let result = ConcurrencyBench.run(sessions: sessions, runs: options.quick ? 2 : max(3, runs / 2), log: log)
    figures += [
        Figure(
            name: "Concurrent sessions per second, 1 worker", key: "concurrentSessionsPerSecondOneWorker",
            unit: "/s", runs: result.oneWorker.map(\.sessionsPerSecond)),
        Figure(
            name: "Concurrent sessions per second, 2 workers", key: "concurrentSessionsPerSecondTwoWorkers",
            unit: "/s", runs: result.twoWorkers.map(\.sessionsPerSecond)),
        Figure(
            name: "Two-core speed-up (2 workers / 1)", key: "twoCoreSpeedup", unit: "x", runs: result.speedups,
            target: .atLeast(1.7)),
        Figure(
            name: "CPU time per concurrent session, 1 worker", key: "cpuPerConcurrentSessionOneWorker", unit: "µs",
            runs: result.oneWorker.map { $0.cpuPerSession / 1_000 }),
        Figure(
            name: "CPU time per concurrent session, 2 workers", key: "cpuPerConcurrentSessionTwoWorkers",
            unit: "µs", runs: result.twoWorkers.map { $0.cpuPerSession / 1_000 }),
        Figure(
            name: "CPU per session, 2 workers / 1, hopping", key: "cpuPerSessionTwoWorkersOverOne", unit: "x",
            runs: zip(result.twoWorkers, result.oneWorker).map { $0.cpuPerSession / $1.cpuPerSession },
            target: .atMost(1.2)),
        Figure(
            name: "CPU time per baseline session (no flow), 1 worker", key: "cpuPerBaselineSessionOneWorker",
            unit: "µs", runs: result.baselineOneWorker.map { $0.cpuPerSession / 1_000 }),
        Figure(
            name: "CPU time per baseline session (no flow), 2 workers", key: "cpuPerBaselineSessionTwoWorkers",
            unit: "µs", runs: result.baselineTwoWorkers.map { $0.cpuPerSession / 1_000 }),
        Figure(
            name: "CPU per baseline session, 2 workers / 1, hopping", key: "cpuPerBaselineSessionTwoWorkersOverOne",
            unit: "x",
            runs: zip(result.baselineTwoWorkers, result.baselineOneWorker).map { $0.cpuPerSession / $1.cpuPerSession }
        ),
        Figure(
            name: "CPUs busy during the 2-worker runs", key: "cpusBusyTwoWorkers", unit: "",
            runs: result.twoWorkers.map(\.cpusBusy)),
        Figure(
            name: "Completion to next call, p50, 1 worker", key: "completionToNextCallP50OneWorker", unit: "µs",
            runs: result.oneWorker.map { $0.p50 / 1_000 }),
        Figure(
            name: "Completion to next call, p99, 1 worker", key: "completionToNextCallP99OneWorker", unit: "µs",
            runs: result.oneWorker.map { $0.p99 / 1_000 }),
        Figure(
            name: "Completion to next call, p50, 2 workers", key: "completionToNextCallP50", unit: "µs",
            runs: result.twoWorkers.map { $0.p50 / 1_000 }),
        Figure(
            name: "Completion to next call, p99, 2 workers", key: "completionToNextCallP99", unit: "µs",
            runs: result.twoWorkers.map { $0.p99 / 1_000 }),
        Figure(
            name: "Pinned sessions per second, 1 worker", key: "pinnedSessionsPerSecondOneWorker", unit: "/s",
            runs: result.pinnedOneWorker.map(\.sessionsPerSecond)),
        Figure(
            name: "Pinned sessions per second, 2 workers", key: "pinnedSessionsPerSecondTwoWorkers", unit: "/s",
            runs: result.pinnedTwoWorkers.map(\.sessionsPerSecond)),
        Figure(
            name: "Two-core speed-up, each session pinned to a worker", key: "twoCoreSpeedupPinned", unit: "x",
            runs: result.pinnedSpeedups, target: .atLeast(1.8)),
        Figure(
            name: "CPU time per pinned session, 1 worker", key: "cpuPerPinnedSessionOneWorker", unit: "µs",
            runs: result.pinnedOneWorker.map { $0.cpuPerSession / 1_000 }),
        Figure(
            name: "CPU time per pinned session, 2 workers", key: "cpuPerPinnedSessionTwoWorkers",
            unit: "µs", runs: result.pinnedTwoWorkers.map { $0.cpuPerSession / 1_000 }),
    ]
    extras["concurrentSessions"] = sessions
}

if options.parts.contains("explorer") {
    let examples: [ExplorerBench.Example]
    do {
        examples = try ExplorerBench.load(options.examples)
    } catch {
        log("cannot read the examples under \(options.examples): \(error)")
        exit(2)
    }
    if examples.isEmpty {
        log("no examples under \(options.examples); skipping the explorer (see --examples)")
    } else {
        let sessions = options.quick ? 100 : 500
        let result = await ExplorerBench.run(examples, sessions: sessions, runs: runs, log: log)
        figures.append(
            Figure(
                name: "Explorer sessions per second (\(examples.count) examples)", key: "explorerSessionsPerSecond",
                unit: "/s", runs: result.sessionsPerSecond, target: .atLeast(100_000)))
        for (flow, rates) in result.perFlow.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            figures.append(
                Figure(
                    name: "Explorer sessions per second, \(flow.rawValue)",
                    key: "explorerSessionsPerSecond_\(flow.rawValue)", unit: "/s", runs: rates))
        }
        extras["explorerSessionsPerExample"] = sessions
    }
}

if options.parts.contains("relay") {
    let result = await RelayBench.run(
        runs: runs, sessions: options.quick ? 200 : 1_000, idleSessions: options.quick ? 2_000 : 5_000,
        memoryRuns: options.quick ? 2 : 3, log: log)
    figures += RelayBench.figures(result)
}

if options.parts.contains("flood") {
    let count = options.countGiven ? options.count : 20_000
    figures += await RelayFloodBench.run(count: count, log: log)
    extras["floodEvents"] = count
}

// MARK: Output

func formatted(_ value: Double, _ unit: String) -> String {
    guard value.isFinite else { return "n/a" }
    switch unit {
    case "/s":
        if value >= 1e6 { return String(format: "%.2f M/s", value / 1e6) }
        if value >= 1e3 { return String(format: "%.1f k/s", value / 1e3) }
        return String(format: "%.0f /s", value)
    case "x": return String(format: "%.2fx", value)
    case "B": return String(format: "%.0f B", value)
    case "µs": return String(format: "%.2f µs", value)
    case "ns": return String(format: "%.0f ns", value)
    case "": return String(format: "%.2f", value)
    default: return String(format: "%.3g %@", value, unit)
    }
}

func targetText(_ figure: Figure) -> String {
    guard let target = figure.target else { return "" }
    let bound = formatted(target.bound, figure.unit)
    let kind = target.kind == .atMost ? "<= " : ">= "
    return kind + bound + (target.isMet(by: figure.median) ? "  met" : "  MISSED")
}

if options.json {
    func number(_ value: Double) -> Any { value.isFinite ? value : NSNull() }
    var object: [String: Any] = extras
    var details: [String: Any] = [:]
    for figure in figures {
        object[figure.key] = number(figure.median)
        var detail: [String: Any] = [
            "name": figure.name, "unit": figure.unit, "median": number(figure.median), "min": number(figure.min),
            "max": number(figure.max), "spreadPercent": number(figure.spreadPercent),
            "runs": figure.runs.map(number),
        ]
        if let target = figure.target {
            detail["target"] = [
                "kind": target.kind == .atMost ? "atMost" : "atLeast", "bound": target.bound,
                "met": target.isMet(by: figure.median),
            ]
        }
        details[figure.key] = detail
    }
    object["figures"] = details
    object["runs"] = runs
    object["quick"] = options.quick
    object["cores"] = ProcessInfo.processInfo.activeProcessorCount
    let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} else {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    print("checkout-bench: \(runs) runs per figure after a warm-up, \(cores) cores\(options.quick ? ", quick" : "")")
    print("median, [min - max] over the runs, and half the range as a share of the median")
    print("")
    let nameWidth = max(20, figures.map(\.name.count).max() ?? 20)
    func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
    print(pad("Figure", nameWidth) + "  " + pad("Median", 12) + "  " + pad("Range", 26) + "  " + pad("±", 7) + "Target")
    for figure in figures {
        let range = "[" + formatted(figure.min, figure.unit) + " - " + formatted(figure.max, figure.unit) + "]"
        let spread = String(format: "%.1f%%", figure.spreadPercent)
        print(
            pad(figure.name, nameWidth) + "  " + pad(formatted(figure.median, figure.unit), 12) + "  "
                + pad(range, 26) + "  " + pad(spread, 7) + targetText(figure))
    }
    if let peak = extras["peakResidentBytes"] as? Int {
        print("")
        print(
            String(
                format: "Peak resident size (ru_maxrss, whole process up to the memory runs): %.1f MB",
                Double(peak) / 1e6))
    }
}
