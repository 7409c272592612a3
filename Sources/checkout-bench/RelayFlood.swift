import CheckoutCore
import CheckoutFlows
import CheckoutWebRelay
import Foundation

/// (6) A flood on the relay (spec W10): what a relay holds after a page floods it, with its
/// limits (``RelayLimits``'s defaults) and, side by side in the same run, without any (every
/// limit at its largest, ids of any form): the relay as it was before the limits.
///
/// Two floods, each `count` events, every event opening a new session of its own under one of
/// 1,000 identities:
/// - long lines: a 20 KB address line in each (over the 5,000 characters a string may have);
/// - within the limits: a 4,900-character address line in each, so that only the session caps
///   (10,000 sessions, 16 a caller) stand in the way.
/// The relay's clock stands still: no session ends while the flood lasts, as when a flood comes
/// faster than the idle timeout. Heap bytes in use are read from the allocator before and after
/// each flood; resident growth is shown for the limited runs, which come first.
enum RelayFloodBench {
    struct Sample {
        var events: Int
        var sessionsHeld: Int
        /// Heap bytes in use after the flood, less before it.
        var heapGrowth: Int
        /// Resident bytes after the flood, less before it.
        var residentGrowth: Int
        var seconds: Double
        var refusals: [String: Int]
    }

    enum Flood: String, CaseIterable, Hashable {
        case longLines = "20 KB address lines"
        case withinLimits = "4,900-character address lines"

        var lineLength: Int { self == .longLines ? 20_000 : 4_900 }
    }

    static let unlimited = RelayLimits(
        maxEventBytes: .max, maxStringLength: .max, maxNestingDepth: .max, maxEventsPerSession: .max,
        maxSessions: .max, maxSessionsPerCaller: .max, minimumSessionIDBits: 0)

    /// Floods a fresh relay with `count` events of `flood` and measures what it holds.
    static func sample(_ flood: Flood, count: Int, limits: RelayLimits) async -> Sample {
        let merchant = Merchant()
        let relay = WebRelay(options: RelayOptions(clock: ManualClock(), limits: limits)) { _ in
            .open(Shop.request, .authorization(delegate: merchant))
        }
        let line = String(repeating: "A", count: flood.lineLength)
        let callers = (0..<1_000).map { RelayCaller("attacker-\($0)") }
        let heapBefore = Heap.bytesInUse() ?? 0
        let residentBefore = Heap.residentBytes() ?? 0
        let started = ContinuousClock.now
        var refusals: [String: Int] = [:]
        for index in 0..<count {
            let event = Data(
                #"{"session": "\#(SessionID.random())", "type": "shippingcontactselected", "shippingContact": {"countryCode": "US", "postalCode": "78701", "locality": "Austin", "administrativeArea": "TX", "addressLines": ["\#(line)"]}}"#
                    .utf8)
            let reply = await relay.reply(toJSON: event, caller: callers[index % callers.count])
            refusals[reply.refusal?.reason ?? "taken", default: 0] += 1
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let sample = Sample(
            events: count, sessionsHeld: relay.sessionCount, heapGrowth: (Heap.bytesInUse() ?? 0) - heapBefore,
            residentGrowth: (Heap.residentBytes() ?? 0) - residentBefore, seconds: seconds, refusals: refusals)
        for id in relay.sessionIDs { await relay.close(id) }
        return sample
    }

    /// Both floods, limited then unlimited, as figures. Every limited run comes before every
    /// unlimited one, so that its resident growth is its own: memory an unlimited run leaves to the
    /// allocator would be reused, not grown, by a later run.
    static func run(count: Int, log: (String) -> Void) async -> [Figure] {
        let limits = RelayLimits()
        var limited: [Flood: Sample] = [:]
        var unlimited: [Flood: Sample] = [:]
        for flood in Flood.allCases {
            log("flood: \(count) events of \(flood.rawValue), limits on")
            limited[flood] = await sample(flood, count: count, limits: limits)
            log("flood: refusals with limits: \(limited[flood]!.refusals.sorted { $0.key < $1.key })")
        }
        for flood in Flood.allCases {
            log("flood: \(count) events of \(flood.rawValue), limits off")
            unlimited[flood] = await sample(flood, count: count, limits: Self.unlimited)
        }
        let megabyte = 1_048_576.0
        var figures: [Figure] = []
        for flood in Flood.allCases {
            let on = limited[flood]!
            let off = unlimited[flood]!
            let key = flood == .longLines ? "floodLongLines" : "floodWithinLimits"
            figures += [
                Figure(
                    name: "Flood of \(count) \(flood.rawValue): sessions held, limits on (max \(limits.maxSessions))",
                    key: "\(key)SessionsHeld", unit: "", runs: [Double(on.sessionsHeld)],
                    target: .atMost(Double(limits.maxSessions))),
                Figure(
                    name: "  sessions held, limits off", key: "\(key)SessionsHeldUnlimited", unit: "",
                    runs: [Double(off.sessionsHeld)]),
                Figure(
                    name: "  heap held, limits on", key: "\(key)HeapMB", unit: "MB",
                    runs: [Double(on.heapGrowth) / megabyte]
                ),
                Figure(
                    name: "  heap held, limits off", key: "\(key)HeapMBUnlimited", unit: "MB",
                    runs: [Double(off.heapGrowth) / megabyte]),
                Figure(
                    name: "  resident growth, limits on", key: "\(key)ResidentMB", unit: "MB",
                    runs: [Double(on.residentGrowth) / megabyte]),
                Figure(
                    name: "  events per second, limits on", key: "\(key)EventsPerSecond", unit: "/s",
                    runs: [Double(count) / on.seconds]),
                Figure(
                    name: "  events per second, limits off", key: "\(key)EventsPerSecondUnlimited", unit: "/s",
                    runs: [Double(count) / off.seconds]),
            ]
        }
        return figures
    }
}
