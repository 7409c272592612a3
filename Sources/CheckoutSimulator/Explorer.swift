import CheckoutCore
import CheckoutFlows
import CheckoutPayContext

/// A small, fast, seedable random generator (SplitMix64), so that a session is reproduced from
/// its seed on every machine.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One session that broke an invariant or saw the merchant violate the contract.
public struct ExploreFailure: Sendable {
    /// Reproduces the session: `checkout-sim explore FILE --sessions 1 --seed SEED`.
    public var seed: UInt64
    /// What went wrong.
    public var problems: [String]
    /// The shortest action list found that still shows the first problem.
    public var steps: [Step]
    /// The merchant's extra behaviour in this session (answers from other threads, late within
    /// the deadline).
    public var merchantVariation: [MerchantSpec.Misbehaviour]
    /// How many sessions showed the first of these problems.
    public var sessions = 1
}

/// What exploring gave.
public struct ExploreReport: Sendable {
    public var sessions: Int
    /// How many sessions ended each way.
    public var outcomes: [String: Int]
    /// Of the sessions still `running` when their steps ran out, how many still owed the answer
    /// of each callback (`""`: none was owed, the sheet was open).
    public var running: [String: Int] = [:]
    /// One entry per distinct problem, with the first session that showed it.
    public var failures: [ExploreFailure]
    /// How many sessions failed in all.
    public var failedSessions: Int
}

/// Random customers against a scenario's merchant: random orders of contact, method, payment
/// method and coupon changes, cancels at random moments, authorizations with random test cards,
/// a merchant that answers from other threads or late (within the deadline), virtual time
/// jumping. Every session is checked for the spec's invariants and for contract violations.
public enum Explorer {
    /// Explores `sessions` sessions from `seed`; `progress` is told how many are done from time to
    /// time.
    ///
    /// Sessions are independent (each has its own clock, backend and merchant), so several run at
    /// once, as many as ``sessionsInFlight``: a session spends much of its time waiting for work
    /// handed to other threads (answers from another thread, backend calls). Their results are
    /// taken in session order, so the report is the same as one session after another would give.
    /// A failure is shrunk beside the sessions still to run, and its steps filled in when done.
    public static func explore(
        _ scenario: Scenario,
        sessions: Int,
        seed: UInt64,
        progress: @Sendable (Int) -> Void = { _ in }
    ) async -> ExploreReport {
        var report = ExploreReport(sessions: sessions, outcomes: [:], failures: [], failedSessions: 0)
        var seenProblems: Set<String> = []
        /// The failure each kind of problem is counted under: the one whose first problem is of
        /// that kind.
        var failureOfKind: [String: Int] = [:]
        let step = max(1, sessions / 10)
        let plan = Plan(scenario)
        await withTaskGroup(of: Done.self) { group in
            var started = 0
            func start() {
                let index = started
                started += 1
                group.addTask {
                    let sessionSeed = sessionSeed(seed, index)
                    let (steps, variation) = generate(plan.pools, seed: sessionSeed)
                    let result = await ScenarioRunner.run(variant(plan.scenario, steps, variation), plan.setup)
                    return .session(
                        Session(
                            index: index, seed: sessionSeed, steps: steps, variation: variation,
                            outcome: outcomeKind(result.outcome), waitingFor: result.waitingFor,
                            problems: problems(result)))
                }
            }
            while started < min(sessions, sessionsInFlight) { start() }
            var finished: [Int: Session] = [:]
            var index = 0
            while let done = await group.next() {
                guard case .session(let session) = done else {
                    if case .shrunk(let failure, let steps) = done { report.failures[failure].steps = steps }
                    continue
                }
                finished[session.index] = session
                if started < sessions { start() }
                while let session = finished.removeValue(forKey: index) {
                    report.outcomes[session.outcome, default: 0] += 1
                    if session.outcome == "running" { report.running[session.waitingFor ?? "", default: 0] += 1 }
                    let problems = session.problems
                    if !problems.isEmpty {
                        report.failedSessions += 1
                        for problem in Set(problems.map(kind(of:))) {
                            if let known = failureOfKind[problem] { report.failures[known].sessions += 1 }
                        }
                        // Each problem once: a session may show the same one twice (two calls).
                        var fresh: [String] = []
                        for problem in problems where !seenProblems.contains(kind(of: problem)) {
                            seenProblems.insert(kind(of: problem))
                            fresh.append(problem)
                        }
                        if !fresh.isEmpty {
                            let failure = report.failures.count
                            failureOfKind[kind(of: fresh[0])] = failure
                            report.failures.append(
                                ExploreFailure(
                                    seed: session.seed, problems: fresh, steps: session.steps,
                                    merchantVariation: session.variation)
                            )
                            let (steps, variation, problem) = (session.steps, session.variation, kind(of: fresh[0]))
                            group.addTask {
                                .shrunk(failure: failure, steps: await shrink(plan, steps, variation, keeping: problem))
                            }
                        }
                    }
                    index += 1
                    if index % step == 0 { progress(index) }
                }
            }
        }
        return report
    }

    /// How many sessions ``explore(_:sessions:seed:progress:)`` runs at once.
    public static let sessionsInFlight = 16

    /// What the sessions of one exploration share, read-only: the scenario, what generation picks
    /// from, the merchant's pricing, the cards' tokens, the renderings of entries seen before.
    private final class Plan: Sendable {
        let scenario: Scenario
        let pools: Pools
        let setup: ScenarioRunner.Setup

        init(_ scenario: Scenario) {
            self.scenario = scenario
            pools = Pools(scenario)
            setup = sharedSetup(scenario)
        }
    }

    /// What the sessions exploring `scenario` share: its pricing, every test card's token, and,
    /// for the pay context, the rendering cache; they keep no details the report does not read.
    package static func sharedSetup(_ scenario: Scenario) -> ScenarioRunner.Setup {
        var setup = ScenarioRunner.Setup(scenario)
        // Only the pay context hands secrets over: the P7 check renders nothing in other flows.
        if scenario.flow == .payContext { setup.renderings = RenderingCache(for: scenario) }
        setup.keepsDetails = false
        (setup.tokens, setup.cards) = cardTables
        return setup
    }

    /// Every test card's token, and the card each token's payment data names: the same for every
    /// scenario, so made once (made per exploration, they cost 9 million instructions).
    private static let cardTables: (tokens: [String: PaymentToken], cards: [String: StripeTestCard]) = {
        var tokens: [String: PaymentToken] = [:]
        var testCards: [String: StripeTestCard] = [:]
        for card in cards {
            let token = ScenarioRunner.token(card, nil)
            tokens[card] = token
            testCards[token.paymentData] = StripeTestCard(paymentData: token.paymentData)
        }
        return (tokens, testCards)
    }()

    /// One explored session, before it is counted: what the report needs of its result.
    private struct Session: Sendable {
        var index: Int
        var seed: UInt64
        var steps: [Step]
        var variation: [MerchantSpec.Misbehaviour]
        /// The outcome without its details.
        var outcome: String
        /// The callback still owed an answer when a `running` session's steps ran out.
        var waitingFor: String?
        var problems: [String]
    }

    /// What a task of the exploration gives: a session, or the shrunk steps of a failure.
    private enum Done: Sendable {
        case session(Session)
        case shrunk(failure: Int, steps: [Step])
    }

    /// The seed of session `index` of a run seeded with `seed`; a run of one session with this
    /// seed replays it.
    public static func sessionSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        index == 0 ? seed : seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
    }

    /// The problems of a session: broken invariants and contract violations. A late completion
    /// does not count on its own: it follows a cancel (a race the merchant cannot avoid) or a
    /// timeout (reported as such).
    package static func problems(_ result: ScenarioResult) -> [String] {
        result.brokenInvariants
            + result.violations.filter { $0.kind != .lateCompletion }.map { "violation \($0.kind) in \($0.callback)" }
    }

    private static func kind(of problem: String) -> String {
        // ASCII text has one character a byte: cut at the first `:` or `#` byte.
        if problem.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(Substring(problem.utf8.prefix { $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: "#") }))
        }
        return String(problem.prefix { $0 != ":" && $0 != "#" })
    }

    private static func outcomeKind(_ outcome: String) -> String {
        // ASCII text has one character a byte: cut at the first `(` byte.
        if outcome.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(Substring(outcome.utf8.prefix { $0 != UInt8(ascii: "(") }))
        }
        return String(outcome.prefix { $0 != "(" })
    }

    package static func variant(_ scenario: Scenario, _ steps: [Step], _ variation: [MerchantSpec.Misbehaviour])
        -> Scenario
    {
        var copy = scenario
        copy.steps = steps
        copy.merchant.misbehaviour += variation
        copy.expect = nil
        return copy
    }

    /// Greedily removes steps while the session still shows a problem of kind `problem`.
    private static func shrink(
        _ plan: Plan,
        _ steps: [Step],
        _ variation: [MerchantSpec.Misbehaviour],
        keeping problem: String
    ) async -> [Step] {
        var current = steps
        var index = 0
        while index < current.count {
            var candidate = current
            candidate.remove(at: index)
            let result = await ScenarioRunner.run(variant(plan.scenario, candidate, variation), plan.setup)
            if problems(result).contains(where: { kind(of: $0) == problem }) {
                current = candidate
            } else {
                index += 1
            }
        }
        return current
    }

    // MARK: Generation

    private static let cards = StripeTestCard.allCases.map(\.rawValue)

    private static let places: [Contact] = {
        func contact(_ city: String, _ state: String?, _ postal: String?, _ country: String) -> Contact {
            Contact(
                name: "Explorer Customer",
                emailAddress: "customer@example.com",
                phoneNumber: "+1 555 0100",
                postalAddress: Address(
                    line1: "1 Test Street",
                    city: city,
                    state: state,
                    postalCode: postal,
                    country: try? CountryCode(country)
                )
            )
        }
        return [
            contact("Austin", "TX", "78701-1234", "US"), contact("Anchorage", "AK", "99501", "US"),
            contact("London", nil, "SW1A 1AA", "GB"), contact("Toronto", "ON", "M5V 2T6", "CA"),
            contact("Berlin", nil, "10115", "DE"), contact("Dubai", nil, nil, "AE"),
        ]
    }()

    /// What the sessions of a scenario pick from: contacts, shipping method identifiers, coupon
    /// codes.
    struct Pools: Sendable {
        let flow: Scenario.Flow
        let contacts: [Contact]
        let methodIDs: [String]
        let coupons: [String]
        let deadline: Int

        init(_ scenario: Scenario) {
            flow = scenario.flow
            let scenarioContacts = scenario.steps.compactMap { step -> Contact? in
                switch step {
                case .enterAddress(let contact), .selectShippingContact(let contact): contact
                default: nil
                }
            }
            contacts = scenarioContacts + places
            methodIDs =
                Set(
                    (scenario.paymentRequest?.shippingMethods ?? []).map(\.identifier)
                        + scenario.merchant.shippingRates.flatMap { $0.methods.map(\.identifier) }
                ).sorted() + ["nonexistent"]
            coupons = scenario.merchant.coupons.map(\.code) + ["BOGUS"]
            deadline = scenario.deadlineSeconds ?? 30
        }
    }

    private static let networks: [PaymentNetwork] = [.visa, .masterCard, .amex, .discover]

    /// The callbacks a scenario's steps lead to, whose answers the explorer varies (in a fixed
    /// order: a seed gives the same sessions from run to run).
    private static let callbacks = [
        DelegateMethod.didEnterAddress, .didSelectShippingContact, .didSelectShippingMethod, .didSelectPaymentMethod,
        .didChangeCouponCode, .didAuthorizePayment, .didCreatePaymentMethod, .willComplete,
    ].map(\.name)

    /// A random action list and merchant variation for one session.
    package static func generate(for scenario: Scenario, seed: UInt64) -> ([Step], [MerchantSpec.Misbehaviour]) {
        generate(Pools(scenario), seed: seed)
    }

    /// A random action list and merchant variation for one session of the scenario of `pools`.
    static func generate(_ pools: Pools, seed: UInt64) -> ([Step], [MerchantSpec.Misbehaviour]) {
        var random = SeededGenerator(seed: seed)
        let contacts = pools.contacts
        let methodIDs = pools.methodIDs
        let coupons = pools.coupons
        let deadline = pools.deadline
        let count = Int.random(in: 1...12, using: &random)
        var steps: [Step] = []
        for _ in 0..<count {
            let roll = Int.random(in: 0..<100, using: &random)
            switch pools.flow {
            case .shippingAddress:
                switch roll {
                case 0..<35: steps.append(.enterAddress(contacts.randomElement(using: &random)!))
                case 35..<55: steps.append(.selectShippingMethod(methodIDs.randomElement(using: &random)!))
                case 55..<65: steps.append(.back)
                case 65..<80: steps.append(.done)
                case 80..<88: steps.append(.cancel)
                default: steps.append(.wait(seconds: Int.random(in: 0...(deadline + 10), using: &random)))
                }
            case .paymentAuthorization, .payContext:
                switch roll {
                case 0..<22: steps.append(.selectShippingContact(contacts.randomElement(using: &random)!))
                case 22..<34: steps.append(.selectShippingMethod(methodIDs.randomElement(using: &random)!))
                case 34..<44:
                    let network = networks.randomElement(using: &random)!
                    steps.append(
                        .selectPaymentMethod(
                            PaymentMethod(displayName: network.rawValue, network: network, type: .credit)))
                case 44..<54: steps.append(.changeCouponCode(coupons.randomElement(using: &random)!))
                case 54..<80:
                    let contact = contacts.randomElement(using: &random)
                    steps.append(
                        .authorize(card: cards.randomElement(using: &random)!, network: nil, billingContact: contact))
                case 80..<88: steps.append(.cancel)
                default: steps.append(.wait(seconds: Int.random(in: 0...(deadline + 10), using: &random)))
                }
            }
        }
        var variation: [MerchantSpec.Misbehaviour] = []
        if Bool.random(using: &random) {
            variation.append(.init(callback: callbacks.randomElement(using: &random)!, kind: .fromAnotherThread))
        }
        if deadline > 1, Int.random(in: 0..<4, using: &random) == 0 {
            let seconds = Int.random(in: 1..<deadline, using: &random)
            variation.append(.init(callback: callbacks.randomElement(using: &random)!, kind: .late, seconds: seconds))
        }
        return (steps, variation)
    }
}
