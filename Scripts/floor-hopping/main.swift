// floor-hopping: issue 16's hopping figure (CPU per session, two workers over one) measured side by
// side, in one process, for three kinds of session that do the same work through the same pool:
//
//   baseline  no flow: each customer action calls the merchant at once, through an existential
//             the optimizer cannot see through, and the completion keeps the answer
//   floor     ../shared/perf-floor's ProtoFlow (the floor of a round trip with the guarantees)
//   package   CheckoutFlows' PaymentAuthorizationFlow
//
// A session: present, select a shipping contact, select "express", select "ground" (each answered
// by the merchant from a pool of serial Dispatch queues, the queue chosen by session and step, so
// that a completion usually comes from another thread than its call: hopping), then cancel, which
// ends the flow with `didFinish`. Sessions start from the queues in batches, all in flight at once.
// Not part of the package: Scripts/floor-hopping.sh builds it beside a copy of the floor.
import CheckoutCore
import CheckoutFlows
import Dispatch
import Foundation
import ProtoFlows
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

enum Shop {
    static let tea = SummaryItem(label: "Tea", amount: Money(minorUnits: 1_200, currency: .usd))
    static let ground = ShippingMethod(identifier: "ground", label: "Ground", amount: .zero(.usd))
    static let express = ShippingMethod(
        identifier: "express", label: "Express", amount: Money(minorUnits: 1_500, currency: .usd))

    /// Goods, shipping, total: the array sized once.
    static func summary(shipping: Money) -> [SummaryItem] {
        var items: [SummaryItem] = []
        items.reserveCapacity(3)
        items.append(tea)
        items.append(SummaryItem(label: "Shipping", amount: shipping))
        items.append(SummaryItem(label: "Tea Shop", amount: (try? tea.amount + shipping) ?? tea.amount))
        return items
    }

    static let request = makeRequest()
    static let contact = makeContact()

    /// A request of its own: no storage shared with another session's (`--own-request`).
    static func makeRequest() -> PaymentRequest {
        PaymentRequest(
            merchantIdentifier: "merchant.com.example.tea",
            countryCode: "US",
            currencyCode: "USD",
            requiredShippingContactFields: [.postalAddress],
            shippingMethods: [ground, express],
            summaryItems: summary(shipping: ground.amount)
        )
    }

    static func makeContact() -> Contact {
        Contact(
            name: "Grace Hopper",
            emailAddress: "grace@example.com",
            postalAddress: Address(
                line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701",
                country: try? CountryCode("US"))
        )
    }
}

enum Kind: String, CaseIterable {
    case baseline, floor, package
}

final class Pool: @unchecked Sendable {
    let queues: [DispatchQueue]
    let kind: Kind
    let flowOptions: FlowOptions
    let protoOptions: ProtoOptions
    private let remaining: Atomic<Int>
    private let done = DispatchSemaphore(value: 0)

    init(workers: Int, sessions: Int, kind: Kind, transcripts: Bool, protoClock: ProtoClock) {
        queues = (0..<workers).map { DispatchQueue(label: "floor-hopping.\($0)") }
        self.kind = kind
        flowOptions = FlowOptions(recordsTranscript: transcripts)
        protoOptions = ProtoOptions(clock: protoClock, transcript: transcripts, reuseCompletions: true)
        remaining = Atomic(sessions)
    }

    /// Hands the merchant's answer to a worker, chosen by session and step; the worker then takes
    /// the session's next action.
    func hand(_ session: Session, _ answer: @escaping @Sendable () -> Void) {
        queues[(session.index &+ session.step) % queues.count].async {
            session.step += 1
            answer()
            session.next()
        }
    }

    func ended() {
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { done.signal() }
    }

    func wait() { done.wait() }
}

/// One session: merchant and customer. Touched by one worker at a time; the queues order the
/// hand-overs.
final class Session: PaymentAuthorizationDelegate, ProtoDelegate, @unchecked Sendable {
    let index: Int
    let pool: Pool
    var step = 0
    var flow: PaymentAuthorizationFlow?
    var proto: ProtoFlow?
    /// The baseline's sheet: the last summary answered.
    var summary: [SummaryItem] = []
    /// The session's request and contact: the shop's, shared by every session, or with
    /// `--own-request` its own.
    let request: PaymentRequest
    let contact: Contact

    init(index: Int, pool: Pool) {
        self.index = index
        self.pool = pool
        request = ownRequest ? Shop.makeRequest() : Shop.request
        contact = ownRequest ? Shop.makeContact() : Shop.contact
    }

    func start() {
        switch pool.kind {
        case .baseline: break
        case .floor:
            let proto = ProtoFlow(request: request, delegate: self, options: pool.protoOptions)
            self.proto = proto
            proto.present()
        case .package:
            let flow = try! PaymentAuthorizationFlow(request: request, delegate: self, options: pool.flowOptions)
            self.flow = flow
            flow.present()
        }
        next()
    }

    func next() {
        switch pool.kind {
        case .baseline: baselineNext()
        case .floor:
            guard let proto else { return }
            switch step {
            case 0: proto.selectShippingContact(contact)
            case 1: proto.selectShippingMethod("express")
            case 2: proto.selectShippingMethod("ground")
            default: proto.cancel()
            }
        case .package:
            guard let flow else { return }
            switch step {
            case 0: flow.selectShippingContact(contact)
            case 1: flow.selectShippingMethod("express")
            case 2: flow.selectShippingMethod("ground")
            default: flow.cancel()
            }
        }
    }

    private func baselineNext() {
        let merchant = opaque(self)
        switch step {
        case 0:
            merchant.paymentAuthorizationFlow(argumentFlow, didSelectShippingContact: contact) { [self] in
                summary = $0.summaryItems
            }
        case 1, 2:
            let method = step == 1 ? Shop.express : Shop.ground
            merchant.paymentAuthorizationFlow(argumentFlow, didSelectShippingMethod: method) { [self] in
                summary = $0.summaryItems
            }
        default:
            merchant.paymentAuthorizationFlowDidFinish(argumentFlow)
        }
    }

    private func finished() {
        if pool.kind == .baseline, summary.count != 3 { fatalError("a baseline session lost its answer") }
        flow = nil
        proto = nil
        pool.ended()
    }

    // The merchant: the same answers for every kind, handed to the pool.

    private func answer(_ contact: Contact, _ handler: @escaping @Sendable (ShippingContactUpdate) -> Void) {
        let update = ShippingContactUpdate(summaryItems: Shop.summary(shipping: Shop.ground.amount))
        pool.hand(self) { handler(update) }
    }

    private func answer(_ method: ShippingMethod, _ handler: @escaping @Sendable (ShippingMethodUpdate) -> Void) {
        let update = ShippingMethodUpdate(summaryItems: Shop.summary(shipping: method.amount))
        pool.hand(self) { handler(update) }
    }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) { finished() }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        answer(contact, handler)
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        answer(method, handler)
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        handler(.success)
    }

    func protoFlowDidFinish(_ flow: ProtoFlow) { finished() }

    func protoFlow(
        _ flow: ProtoFlow,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        answer(contact, handler)
    }

    func protoFlow(
        _ flow: ProtoFlow,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        answer(method, handler)
    }
}

let dummyPool = Pool(workers: 1, sessions: 1, kind: .baseline, transcripts: false, protoClock: ProtoClock(.monotonic))
/// The flow the baseline's merchant calls are made with (never presented).
let argumentFlow = try! PaymentAuthorizationFlow(request: Shop.request, delegate: Session(index: 0, pool: dummyPool))

@inline(never)
func opaque(_ session: Session) -> any PaymentAuthorizationDelegate { session }

func nanoseconds(_ clock: clockid_t) -> UInt64 {
    var time = timespec()
    clock_gettime(clock, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

/// The process's CPU time spent in the kernel, in nanoseconds.
func systemNanoseconds() -> UInt64 {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return UInt64(usage.ru_stime.tv_sec) &* 1_000_000_000 &+ UInt64(usage.ru_stime.tv_usec) &* 1_000
}

/// CPU time per session, in nanoseconds, and the part of it spent in the kernel (the pool's
/// threads parking and waking).
func sample(_ count: Int, kind: Kind, workers: Int, transcripts: Bool, protoClock: ProtoClock) -> (
    cpu: Double, system: Double
) {
    let pool = Pool(workers: workers, sessions: count, kind: kind, transcripts: transcripts, protoClock: protoClock)
    let batch = 500
    let system = systemNanoseconds()
    let cpu = nanoseconds(CLOCK_PROCESS_CPUTIME_ID)
    for (number, first) in stride(from: 0, to: count, by: batch).enumerated() {
        let end = min(count, first + batch)
        pool.queues[number % workers].async {
            for index in first..<end { Session(index: index, pool: pool).start() }
        }
    }
    pool.wait()
    return (
        Double(nanoseconds(CLOCK_PROCESS_CPUTIME_ID) - cpu) / Double(count),
        Double(systemNanoseconds() - system) / Double(count)
    )
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

// Arguments: --sessions N (default 50000), --runs N (default 9), --transcripts on|off (default on),
// --own-request yes|no (default no: every session shares the shop's request and contact),
// --only KIND and --workers 1|2 (one kind, one pool size: for a profiler).
nonisolated(unsafe) var ownRequest = false
var kinds = Kind.allCases
var workerCounts = [1, 2]
var sessions = 50_000
var runs = 9
var transcripts = true
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fatalError("\(argument) needs a value") }
    switch argument {
    case "--sessions" where Int(value).map({ $0 > 0 }) == true: sessions = Int(value)!
    case "--runs" where Int(value).map({ $0 > 0 }) == true: runs = Int(value)!
    case "--transcripts" where ["on", "off"].contains(value): transcripts = value == "on"
    case "--own-request" where ["yes", "no"].contains(value): ownRequest = value == "yes"
    case "--only" where Kind(rawValue: value) != nil: kinds = [Kind(rawValue: value)!]
    case "--workers" where ["1", "2"].contains(value): workerCounts = [Int(value)!]
    default: fatalError("floor-hopping: \(argument) \(value) is not an argument it takes (see the file's head)")
    }
}

// One clock for the floor's flows, as the package's flows share the system clock.
let protoClock = ProtoClock(.monotonic)
for kind in kinds {  // warm up
    for workers in workerCounts {
        _ = sample(5_000, kind: kind, workers: workers, transcripts: transcripts, protoClock: protoClock)
    }
}
var cpu: [Kind: [Int: [Double]]] = [:]
var system: [Kind: [Int: [Double]]] = [:]
for run in 0..<runs {
    // Interleaved: each run measures every kind with one worker and two, so that what the machine
    // does meanwhile falls on all of them.
    for kind in kinds {
        for workers in workerCounts {
            let measured = sample(
                sessions, kind: kind, workers: workers, transcripts: transcripts, protoClock: protoClock)
            cpu[kind, default: [:]][workers, default: []].append(measured.cpu)
            system[kind, default: [:]][workers, default: []].append(measured.system)
        }
    }
    FileHandle.standardError.write(Data("run \(run + 1)/\(runs)\n".utf8))
}

print(
    "sessions \(sessions) x \(runs) runs, transcripts \(transcripts ? "on" : "off"),",
    ownRequest ? "a request and contact each," : "one request and contact for all,",
    "\(kinds.count) kinds interleaved")
print(
    "kind       cpu/session 1 worker (us)   2 workers (us)   two over one (median, min-max of runs)",
    "  in the kernel, 1 / 2 workers (us)")
/// CPU per session of `kind` with `workers`, run by run (empty when not measured).
@MainActor func measured(_ kind: Kind, _ workers: Int) -> [Double] { cpu[kind]?[workers] ?? [] }
for kind in kinds {
    let one = measured(kind, 1)
    let two = measured(kind, 2)
    let ratios = zip(two, one).map { $0 / $1 }
    print(
        kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0),
        String(
            format: "%14.2f %17.2f %12.2f  (%.2f-%.2f)", one.isEmpty ? 0.0 : median(one) / 1000,
            two.isEmpty ? 0.0 : median(two) / 1000, ratios.isEmpty ? 0.0 : median(ratios), ratios.min() ?? 0.0,
            ratios.max() ?? 0.0),
        String(
            format: "  %6.2f / %6.2f", median(system[kind]?[1] ?? [0]) / 1000, median(system[kind]?[2] ?? [0]) / 1000))
}
// The engine's own growth: (kind - baseline) with two workers over the same with one, per run.
for kind in [Kind.floor, .package] where kinds.contains(kind) && kinds.contains(.baseline) && workerCounts.count == 2 {
    let growth = (0..<runs).map { run in
        (measured(kind, 2)[run] - measured(.baseline, 2)[run]) / (measured(kind, 1)[run] - measured(.baseline, 1)[run])
    }
    print("\(kind.rawValue) over the baseline: two over one \(String(format: "%.2f", median(growth)))")
}
