import CheckoutCore
import CheckoutFlows
import CheckoutWebRelay
import Foundation

/// (7) The relay's cost: whole Apple Pay sessions of five events (``RelayPage``) through
/// `WebRelay.handle(json:caller:)`, with the shop's merchant (``Merchant``) answering at once, side
/// by side in one run with the honest baseline (``PlainRelay``: the same bytes decoded, the same
/// merchant asked, the same answers encoded by plain `Codable` structs, no flow).
///
/// A relay session is opened by its first event (the relay's opener, as a server lets a page open
/// its session), takes the five events and is closed by the server after the last; the caller is
/// authenticated (its digest is checked on every event, spec W10). Both sides run one session
/// after another on one task and are timed in the process's CPU time (the relay's tasks may resume
/// on another thread of the pool), interleaved run by run: baseline, relay with its default options
/// (30-second deadlines on the shared system clock, transcripts on), relay without transcripts.
enum RelayBench {
    /// Session ids a run cycles through: a session is closed before its id comes round again.
    static let pagesPerPool = 64

    /// A relay with the default options (or without transcripts) whose opener opens every new
    /// session for `merchant`.
    static func relay(_ merchant: Merchant, transcripts: Bool = true) -> WebRelay {
        WebRelay(options: RelayOptions(recordsTranscript: transcripts)) { _ in
            .open(Shop.request, .authorization(delegate: merchant))
        }
    }

    /// `count` whole sessions through `relay`, one after another, cycling through `pages`.
    /// Returns the bytes of the replies (so that nothing is optimized away).
    static func relaySessions(
        _ count: Int, _ relay: WebRelay, _ pages: [(id: String, events: [Data])], caller: RelayCaller
    ) async -> Int {
        var bytes = 0
        for index in 0..<count {
            let page = pages[index % pages.count]
            for event in page.events {
                bytes += await relay.handle(json: event, caller: caller).count
            }
            await relay.close(page.id)
        }
        return bytes
    }

    /// `count` whole sessions through the baseline, one after another, cycling through `pages`.
    @inline(never)
    static func plainSessions(_ count: Int, _ plain: PlainRelay, _ pages: [(id: String, events: [Data])]) -> Int {
        var bytes = 0
        for index in 0..<count {
            let page = pages[index % pages.count]
            let session = PlainRelay.Session()
            for event in page.events {
                bytes += plain.handle(json: event, session: session).count
            }
        }
        return bytes
    }

    /// The baseline with the shop's merchant behind an opaque existential.
    static func plainRelay() -> PlainRelay {
        let merchant = Merchants.opaque(.shop)
        let argumentFlow = try! PaymentAuthorizationFlow(request: Shop.request, delegate: merchant)
        return PlainRelay(merchant: merchant, argumentFlow: argumentFlow)
    }

    /// Runs one session through the relay and the baseline and checks that every reply is the
    /// same bytes and the payment succeeded; nil when it is so, else what differs.
    static func check() async -> String? {
        let relay = relay(Merchant())
        let plain = plainRelay()
        let page = RelayPage.sessions(1)[0]
        let session = PlainRelay.Session()
        let caller = RelayCaller("check")
        for (index, event) in page.events.enumerated() {
            let ours = await relay.handle(json: event, caller: caller)
            let theirs = plain.handle(json: event, session: session)
            guard ours == theirs else {
                return "event \(RelayPage.eventTypes[index]): the relay answered\n"
                    + String(decoding: ours, as: UTF8.self) + "\nthe baseline\n"
                    + String(decoding: theirs, as: UTF8.self)
            }
        }
        guard relay.session(page.id)?.outcome == "success" else {
            return "the relay's session ended \(relay.session(page.id)?.outcome ?? "without an outcome")"
        }
        await relay.close(page.id)
        return relay.sessionCount == 0 ? nil : "the relay kept the closed session"
    }

    // MARK: Memory

    /// Heap bytes per session idle after four events (contact, method, card, coupon): `count`
    /// sessions, each of its own caller, opened by their first event; the heap is read before the
    /// first and after the last, and every session is closed afterwards. Everything the benchmark
    /// holds (the relay, the events' bytes, the callers) is made before the first reading.
    static func idleBytes(_ count: Int, transcripts: Bool = true) async -> Double {
        let merchant = Merchant()
        let relay = relay(merchant, transcripts: transcripts)
        let pages = RelayPage.sessions(count)
        let callers = (0..<count).map { RelayCaller("shopper-\($0)") }
        // One session first, so that what the relay and Foundation make once is made.
        let warmUp = RelayPage.sessions(1)[0]
        for event in warmUp.events { _ = await relay.handle(json: event, caller: callers[0]) }
        await relay.close(warmUp.id)
        let before = Heap.bytesInUse() ?? 0
        for (index, page) in pages.enumerated() {
            for event in page.events.prefix(4) { _ = await relay.handle(json: event, caller: callers[index]) }
        }
        let after = Heap.bytesInUse() ?? 0
        let held = relay.sessionCount
        for page in pages { await relay.close(page.id) }
        precondition(held == count, "the relay held \(held) of \(count) idle sessions")
        return Double(after - before) / Double(count)
    }

    // MARK: Runs

    struct Result {
        /// Process CPU nanoseconds per event.
        var plainCPU: [Double] = []
        var relayCPU: [Double] = []
        var relayCPUTranscriptOff: [Double] = []
        /// Events per second of wall time, one task; and two tasks at once.
        var oneCore: [Double] = []
        var twoCores: [Double] = []
        /// CPUs the process kept busy in the two-task runs.
        var cpusBusyTwoCores: [Double] = []
        var idleBytes: [Double] = []
        var idleBytesTranscriptOff: [Double] = []

        var ratios: [Double] { zip(relayCPU, plainCPU).map { $0 / $1 } }
        var ratiosTranscriptOff: [Double] { zip(relayCPUTranscriptOff, plainCPU).map { $0 / $1 } }
    }

    /// `runs` interleaved runs after a warm-up, each of `sessions` sessions a side; the idle
    /// memory with `idleSessions` sessions.
    static func run(runs: Int, sessions: Int, idleSessions: Int, memoryRuns: Int, log: (String) -> Void) async
        -> Result
    {
        if let mismatch = await check() {
            log("the relay and its baseline answer differently:\n\(mismatch)")
            exit(1)
        }
        let merchant = Merchant()
        let plain = plainRelay()
        let pools = (0..<2).map { _ in RelayPage.sessions(pagesPerPool) }
        let callers = [RelayCaller("shopper-a"), RelayCaller("shopper-b")]
        let events = Double(sessions * RelayPage.eventsPerSession)
        var result = Result()
        var sink = 0
        for run in 0...runs {
            log("relay: run \(run == 0 ? "warm-up" : "\(run) of \(runs)")")
            var start = Clocks.processCPU()
            sink &+= plainSessions(sessions, plain, pools[0])
            let plainCPU = Double(Clocks.processCPU() - start) / events

            let relay = relay(merchant)
            start = Clocks.processCPU()
            let wallStart = Clocks.wall()
            sink &+= await relaySessions(sessions, relay, pools[0], caller: callers[0])
            let relayWall = Double(Clocks.wall() - wallStart)
            let relayCPU = Double(Clocks.processCPU() - start) / events

            let relayOff = Self.relay(merchant, transcripts: false)
            start = Clocks.processCPU()
            sink &+= await relaySessions(sessions, relayOff, pools[0], caller: callers[0])
            let relayOffCPU = Double(Clocks.processCPU() - start) / events

            // Two tasks at once, each its own sessions and caller, on one relay.
            let shared = Self.relay(merchant)
            let cpuStart = Clocks.processCPU()
            let twoStart = Clocks.wall()
            sink &+= await withTaskGroup(of: Int.self) { group in
                for worker in 0..<2 {
                    group.addTask { await relaySessions(sessions, shared, pools[worker], caller: callers[worker]) }
                }
                return await group.reduce(0, &+)
            }
            let twoWall = Double(Clocks.wall() - twoStart)
            let twoCPU = Double(Clocks.processCPU() - cpuStart)
            guard run > 0 else { continue }
            result.plainCPU.append(plainCPU)
            result.relayCPU.append(relayCPU)
            result.relayCPUTranscriptOff.append(relayOffCPU)
            result.oneCore.append(events / relayWall * 1e9)
            result.twoCores.append(2 * events / twoWall * 1e9)
            result.cpusBusyTwoCores.append(twoCPU / twoWall)
        }
        for run in 1...memoryRuns {
            log("relay: \(idleSessions) idle sessions, run \(run) of \(memoryRuns)")
            result.idleBytes.append(await idleBytes(idleSessions))
            result.idleBytesTranscriptOff.append(await idleBytes(idleSessions, transcripts: false))
        }
        if sink == 42 { log("") }
        return result
    }

    /// The figures of a run.
    static func figures(_ result: Result) -> [Figure] {
        [
            Figure(
                name: "Relay CPU per event / plain Codable (transcripts on)", key: "relayCpuPerEventOverCodable",
                unit: "x", runs: result.ratios, target: .atMost(1.5)),
            Figure(
                name: "Relay CPU per event / plain Codable, transcripts off",
                key: "relayCpuPerEventOverCodableTranscriptOff", unit: "x", runs: result.ratiosTranscriptOff),
            Figure(
                name: "Relay CPU per event (transcripts on)", key: "relayCpuPerEvent", unit: "µs",
                runs: result.relayCPU.map { $0 / 1_000 }),
            Figure(
                name: "Plain Codable CPU per event (baseline)", key: "plainCodableCpuPerEvent", unit: "µs",
                runs: result.plainCPU.map { $0 / 1_000 }),
            Figure(
                name: "Relay events per second, one task (wall)", key: "relayEventsPerSecondOneCore", unit: "/s",
                runs: result.oneCore),
            Figure(
                name: "Relay events per second, two tasks (wall)", key: "relayEventsPerSecondTwoCores", unit: "/s",
                runs: result.twoCores),
            Figure(
                name: "  CPUs busy during the two-task runs", key: "relayCpusBusyTwoCores", unit: "",
                runs: result.cpusBusyTwoCores),
            Figure(
                name: "Relay bytes per idle session (after four events)", key: "relayBytesPerIdleSession", unit: "B",
                runs: result.idleBytes, target: .atMost(2_048)),
            Figure(
                name: "  transcripts off", key: "relayBytesPerIdleSessionTranscriptOff", unit: "B",
                runs: result.idleBytesTranscriptOff),
        ]
    }
}
