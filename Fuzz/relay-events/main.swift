// libFuzzer target `relay-events`: the input is what pages post to a `WebRelay`, one line an
// event, given to `WebRelay.handle(json:)` in order, over the few sessions the lines name (spec
// W1-W6, W10: the page is not trusted).
//
// A line is control bytes, then the event's JSON from the line's first `{`:
//   - the first control byte chooses how the merchant answers the callback the event leads to:
//     at once (a valid update, one with errors, an invalid one the browser would reject, the
//     protocol's default), late within the deadline, late past it, never, or not before the page
//     cancels; the second chooses the authorization's status and whether the merchant answers
//     twice; bit 3 of the first sends another event of the session while the answer is owed;
//   - a line with no `{` moves the relay's `ManualClock` on by its first byte in seconds (deadlines
//     and idle timeouts fire);
//   - `{"type": "wait", "seconds": n}` moves the clock on by n seconds, `{"session": "s", "type":
//     "resume"}` writes the session out to a store and resumes it, `{"session": "s", "type":
//     "close"}` closes it: the lines of `checkout-sim relay` files, so Examples/relay are seeds.
// A session opens at its first event (six at most; an id that has ended never opens again), with
// a merchant of its own, answering through its delegate or, for every other session, through a
// `MerchantValidating` for `validatemerchant`.
//
// Everything runs on virtual time, one event at a time, so an input replays exactly. Checked after
// every line:
//   - every reply decodes back as a `RelayReply` and encodes to the same bytes; an event that
//     decodes is answered with its own session and type, one that does not with `malformedEvent`;
//   - a refused event changes nothing observable of its session (its sheet, step, outcome,
//     validation); an event while the merchant owes an answer is refused with `callbackPending`;
//     an end leaves the session's flow ended;
//   - the relay holds exactly the sessions opened and not yet ended;
// and at the end, after every session is closed: every session ended exactly once through
// `onSessionEnd`, its merchant was told `didFinish` exactly once, and nothing is left running.
//
// Built and run by Scripts/fuzz.sh (not by SwiftPM).

import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import CheckoutWebRelay
import Dispatch
import Foundation

/// Set FUZZ_VERBOSE=1 to print each line and its reply when replaying an input.
private let verbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] != nil

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("relay-events invariant broken: \(message())") }
}

/// A lock around a value, for the merchants' and the relay handlers' state.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func with<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// A one-shot signal an async caller awaits: the first `signal()` wakes it, later ones are ignored.
private final class Gate: Sendable {
    private let state = Locked<(fired: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func signal() {
        let waiter: CheckedContinuation<Void, Never>? = state.with { state in
            guard !state.fired else { return nil }
            state.fired = true
            return state.waiter.take()
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let fired = state.with { state in
                if state.fired { return true }
                state.waiter = continuation
                return false
            }
            if fired { continuation.resume() }
        }
    }
}

extension Optional {
    fileprivate mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}

// MARK: - The merchant

/// How the merchant answers the callback an event leads to.
private enum Plan: Equatable {
    case valid, withErrors, invalid, byDefault
    case lateWithinDeadline, latePastDeadline, never, cancelledByPage

    static let all: [Plan] = [
        .valid, .withErrors, .invalid, .byDefault, .lateWithinDeadline, .latePastDeadline, .never, .cancelledByPage,
    ]

    var holds: Bool { ![.valid, .withErrors, .invalid, .byDefault].contains(self) }
}

private let usd = CurrencyCode.usd

private func money(_ cents: Int64, _ currency: CurrencyCode = usd) -> Money {
    Money(minorUnits: cents, currency: currency)
}

private let ground = ShippingMethod(identifier: "ground", label: "Ground", amount: money(0))
private let express = ShippingMethod(identifier: "express", label: "Express", amount: money(1_500))

private let request = PaymentRequest(
    merchantIdentifier: "merchant.com.example.tea",
    countryCode: "US",
    currencyCode: "USD",
    shippingMethods: [ground, express],
    summaryItems: [
        SummaryItem(label: "Oolong tea", amount: money(2_400)), SummaryItem(label: "Tea Shop", amount: money(2_400)),
    ],
    supportsCouponCode: true
)

private func items(_ cents: Int64) -> [SummaryItem] {
    [SummaryItem(label: "Oolong tea", amount: money(2_400)), SummaryItem(label: "Tea Shop", amount: money(cents))]
}

/// Items the browser would reject: another currency than the request's.
private let invalidItems = [SummaryItem(label: "Tea Shop", amount: money(1, .eur))]

/// A merchant answering as the event's plan says; a held answer waits for the harness.
private final class Merchant: PaymentAuthorizationDelegate {
    struct State {
        var plan: Plan = .valid
        var status: PaymentAuthorizationStatus = .success
        var twice = false
        /// Told when the merchant holds an answer.
        var gate: Gate?
        var held: [@Sendable () -> Void] = []
        var finished = 0
        var calls = 0
    }
    let state = Locked(State())

    var finished: Int { state.with { $0.finished } }

    /// Answers with `valid`, `withErrors`, `invalid` or `byDefault` as planned, at once, or holds it.
    private func answer<Update: Sendable>(
        _ handler: @escaping @Sendable (Update) -> Void, valid: Update, withErrors: Update, invalid: Update,
        byDefault: @autoclosure () -> Update
    ) {
        let (plan, twice, gate) = state.with { state in
            state.calls += 1
            return (state.plan, state.twice, state.gate)
        }
        let update: Update =
            switch plan {
            case .withErrors: withErrors
            case .invalid: invalid
            case .byDefault: byDefault()
            default: valid
            }
        let give: @Sendable () -> Void = { [update] in
            handler(update)
            if twice { handler(update) }
        }
        if plan.holds {
            state.with { $0.held.append(give) }
            gate?.signal()
        } else {
            give()
        }
    }

    /// Gives every held answer now (late, or after the end).
    func giveHeld() {
        for give in state.with({ state in state.held.take() ?? [] }) { give() }
    }

    /// Forgets every held answer (the merchant never answers).
    func dropHeld() { _ = state.with { $0.held.take() } }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) { state.with { $0.finished += 1 } }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        let valid: ShippingContactUpdate =
            switch contact.postalAddress?.country?.code {
            case "CA": ShippingContactUpdate(summaryItems: items(2_400), shippingMethods: [])
            case "GB":
                ShippingContactUpdate(
                    errors: [.shippingAddressUnserviceable("We do not ship to the UK")], summaryItems: items(2_400))
            default: ShippingContactUpdate(summaryItems: items(2_598), shippingMethods: [ground, express])
            }
        answer(
            handler, valid: valid,
            withErrors: ShippingContactUpdate(
                errors: [.shippingContactInvalid(.postalCode, "Unknown ZIP")], summaryItems: items(2_400)),
            invalid: ShippingContactUpdate(summaryItems: invalidItems),
            byDefault: flow.defaultShippingContactUpdate())
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        answer(
            handler, valid: ShippingMethodUpdate(summaryItems: items(2_400 + method.amount.minorUnits)),
            withErrors: ShippingMethodUpdate(summaryItems: items(2_400)),
            invalid: ShippingMethodUpdate(summaryItems: []),
            byDefault: flow.defaultShippingMethodUpdate())
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectPaymentMethod method: PaymentMethod,
        handler: @escaping @Sendable (PaymentMethodUpdate) -> Void
    ) {
        answer(
            handler, valid: PaymentMethodUpdate(summaryItems: items(method.type == .debit ? 2_300 : 2_400)),
            withErrors: PaymentMethodUpdate(
                errors: [.billingContactInvalid(.postalAddress, "Billing address needed")], summaryItems: items(2_400)),
            invalid: PaymentMethodUpdate(summaryItems: invalidItems),
            byDefault: flow.defaultPaymentMethodUpdate())
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) {
        answer(
            handler,
            valid: code == "TEN"
                ? CouponCodeUpdate(summaryItems: items(2_160))
                : CouponCodeUpdate(errors: [.couponCodeInvalid("Unknown code")], summaryItems: items(2_400)),
            withErrors: CouponCodeUpdate(errors: [.couponCodeExpired("Expired")], summaryItems: items(2_400)),
            invalid: CouponCodeUpdate(summaryItems: [SummaryItem(label: "Tea Shop", amount: money(-1))]),
            byDefault: flow.defaultCouponCodeUpdate())
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        let status = state.with { $0.status }
        answer(
            handler, valid: PaymentAuthorizationResult(status: status),
            withErrors: PaymentAuthorizationResult(
                status: .invalidShippingPostalAddress, errors: [.shippingContactInvalid(.postalCode, "Unknown ZIP")]),
            invalid: PaymentAuthorizationResult(status: .success, errors: [.couponCodeInvalid("Not now")]),
            byDefault: PaymentAuthorizationResult(status: .failure))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didRequestMerchantSessionUpdate request: MerchantSessionRequest,
        handler: @escaping @Sendable (MerchantSessionUpdate) -> Void
    ) {
        answer(
            handler, valid: .success(MerchantSession(json: #"{"merchantSessionIdentifier":"SSH-FUZZ"}"#)),
            withErrors: .failure, invalid: .success(MerchantSession(json: "{}")),
            byDefault: flow.defaultMerchantSessionUpdate())
    }
}

/// Merchant validation through the relay's `MerchantValidating`, answering as the merchant's plan
/// says: a session, a failure, or held until the harness lets it go.
private final class Validator: MerchantValidating {
    let merchant: Merchant
    let held = Locked<[CheckedContinuation<JSONValue, any Error>]>([])

    init(merchant: Merchant) { self.merchant = merchant }

    struct Refused: Error {}

    func merchantSession(validationURL: URL, sessionID: String) async throws -> JSONValue {
        let (plan, gate) = merchant.state.with { state in
            state.calls += 1
            return (state.plan, state.gate)
        }
        switch plan {
        case .withErrors, .invalid: throw Refused()
        case .byDefault: return .null
        case .valid: return .object(["merchantSessionIdentifier": .string("SSH-FUZZ")])
        default:
            return try await withCheckedThrowingContinuation { continuation in
                held.with { $0.append(continuation) }
                gate?.signal()
            }
        }
    }

    func giveHeld() {
        for continuation in held.with({ $0.take() ?? [] }) {
            continuation.resume(returning: .object(["merchantSessionIdentifier": .string("SSH-LATE")]))
        }
    }

    func failHeld() {
        for continuation in held.with({ $0.take() ?? [] }) { continuation.resume(throwing: Refused()) }
    }
}

extension Array {
    fileprivate mutating func take() -> [Element]? {
        defer { self = [] }
        return self
    }
}

// MARK: - The harness

/// Small limits, so that a few lines reach each one (spec W10).
private let limits = RelayLimits(
    maxEventBytes: 4_096, maxStringLength: 200, maxNestingDepth: 8, maxEventsPerSession: 12, maxSessions: 5,
    maxSessionsPerCaller: 2)

/// The limit each limit refusal names, by reason.
private let limitOfReason: [String: String] = [
    "eventTooLarge": "maxEventBytes", "stringTooLong": "maxStringLength", "nestingTooDeep": "maxNestingDepth",
    "tooManyEvents": "maxEventsPerSession", "tooManySessions": "maxSessions",
    "tooManySessionsForCaller": "maxSessionsPerCaller", "weakSessionID": "minimumSessionIDBits",
]

/// The members of `RelayLimits`, by name.
private let limitNames = Set(Mirror(reflecting: limits).children.compactMap(\.label))

/// The refusals made before an event is decoded: they name no session.
private let screenReasons: Set<String> = ["eventTooLarge", "stringTooLong", "nestingTooDeep"]

/// The identities a server authenticated, and the callers a line chooses from: one of the three,
/// or none (index 3).
private let identities = ["customer-ada", "customer-bo", "customer-cy"]
private let callers: [RelayCaller?] = identities.map { RelayCaller($0) } + [nil]
private let noCaller = 3

private func name(ofCaller index: Int) -> String { index == noCaller ? "no caller" : identities[index] }

/// The most sessions an input opens (the relay holds `limits.maxSessions` of them at once).
private let maximumOpened = 10
private let deadline = Duration.seconds(30)
private let snapshotKey = [UInt8](repeating: 0x5a, count: 32)

/// How deep `value` nests arrays and objects (a scalar is 0), and its longest string or key in
/// Unicode scalars and in UTF-16 code units.
private func measure(_ value: JSONValue) -> (depth: Int, scalars: Int, utf16: Int) {
    switch value {
    case .string(let text): return (0, text.unicodeScalars.count, text.utf16.count)
    case .array(let elements):
        let inner = elements.map(measure)
        return (
            1 + (inner.map(\.depth).max() ?? 0), inner.map(\.scalars).max() ?? 0, inner.map(\.utf16).max() ?? 0
        )
    case .object(let members):
        let inner = members.values.map(measure)
        let keys = members.keys
        return (
            1 + (inner.map(\.depth).max() ?? 0),
            max(inner.map(\.scalars).max() ?? 0, keys.map(\.unicodeScalars.count).max() ?? 0),
            max(inner.map(\.utf16).max() ?? 0, keys.map(\.utf16.count).max() ?? 0)
        )
    default: return (0, 0, 0)
    }
}

/// One input: the relay, its clock, its sessions' merchants and owners, and the model of what it
/// holds.
private final class Harness: @unchecked Sendable {
    let clock = ManualClock()
    let store = InMemoryRelaySessionStore()
    /// Each session's merchant and validator, by id, once opened.
    let merchants = Locked<[String: (Merchant, Validator)]>([:])
    /// Each session's merchant as the relay was given it, for a resume.
    let relayMerchants = Locked<[String: RelayMerchant]>([:])
    /// The caller each session was opened for (`noCaller` for none), by id.
    let owners = Locked<[String: Int]>([:])
    /// How many times `onSessionEnd` told each session's end.
    let ends = Locked<[String: Int]>([:])
    var relay: WebRelay!
    /// How the merchant of a session opened by the current event answers it, and the line's caller.
    let opening = Locked<(plan: Plan, status: PaymentAuthorizationStatus, twice: Bool, gate: Gate?, caller: Int)>(
        (.valid, .success, false, nil, 0))

    init() {
        let ends = self.ends
        let options = RelayOptions(
            callbackTimeout: deadline, idleTimeout: deadline, clock: clock, snapshotKey: snapshotKey,
            limits: limits,
            onSessionEnd: { id, transcript in
                Harness.checkRecord(of: id, transcript)
                ends.with { $0[id, default: 0] += 1 }
            })
        relay = WebRelay(options: options) { [weak self] id in
            guard let self else { return nil }
            let caller = self.opening.with { $0.caller }
            // Spec W10: a page's id without enough entropy, or an event without a caller, never
            // reaches the opener; nor does an id the relay holds.
            let bits = SessionID.estimatedBits(of: id)
            require(
                bits >= limits.minimumSessionIDBits,
                "the opener was asked for \(id.debugDescription), whose form carries \(bits) bits")
            require(caller != noCaller, "the opener was asked for \(id.debugDescription) for an event without a caller")
            require(self.relay.session(id) == nil, "the opener was asked for \(id.debugDescription), which is held")
            require(
                self.heldCount() < limits.maxSessions && self.heldCount(of: caller) < limits.maxSessionsPerCaller,
                "the opener was asked for \(id.debugDescription) at a session cap")
            guard let merchant = self.register(id, owner: caller) else { return nil }
            return .open(request, merchant)
        }
    }

    /// A merchant for session `id` of `owner`, answering as the current line says; nil when the
    /// input has opened its most sessions or opened `id` before.
    func register(_ id: String, owner: Int) -> RelayMerchant? {
        merchants.with { table in
            guard table[id] == nil, table.count < maximumOpened else { return nil }
            let merchant = Merchant()
            let (plan, status, twice, gate, _) = opening.with { $0 }
            merchant.state.with { state in
                (state.plan, state.status, state.twice, state.gate) = (plan, status, twice, gate)
            }
            let validator = Validator(merchant: merchant)
            table[id] = (merchant, validator)
            // Every other session validates through a MerchantValidating, the rest through the
            // delegate.
            let relayMerchant: RelayMerchant =
                table.count.isMultiple(of: 2)
                ? .authorization(delegate: merchant, validator: validator) : .authorization(delegate: merchant)
            relayMerchants.with { $0[id] = relayMerchant }
            owners.with { $0[id] = owner }
            return relayMerchant
        }
    }

    /// Forgets a session the relay refused to open.
    func unregister(_ id: String) {
        _ = merchants.with { $0.removeValue(forKey: id) }
        _ = relayMerchants.with { $0.removeValue(forKey: id) }
        _ = owners.with { $0.removeValue(forKey: id) }
    }

    /// The server opens session `id` itself for `caller` (any id: the server made it).
    func openDirectly(_ id: String, caller: Int) {
        let (total, own) = (heldCount(), heldCount(of: caller))
        guard let merchant = register(id, owner: caller) else { return }
        do {
            try relay.open(id, request: request, merchant: merchant, caller: callers[caller])
            require(
                total < limits.maxSessions && (caller == noCaller || own < limits.maxSessionsPerCaller),
                "the server opened a session past a cap: \(total) held, \(own) of \(name(ofCaller: caller))")
        } catch {
            unregister(id)
            let code = (error as? RelayError)?.code
            let expected: RelayError.Code? =
                total >= limits.maxSessions
                ? .tooManySessions
                : caller != noCaller && own >= limits.maxSessionsPerCaller ? .tooManySessionsForCaller : nil
            require(
                code != nil && code == expected,
                "the server's open of \(id.debugDescription) (\(total) held, \(own) of \(name(ofCaller: caller))) threw \(error)"
            )
        }
    }

    var allMerchants: [(id: String, merchant: Merchant, validator: Validator)] {
        merchants.with { $0.map { ($0.key, $0.value.0, $0.value.1) } }.sorted { $0.id < $1.id }
    }

    /// The sessions the relay holds, or those it holds of `caller`.
    func heldCount(of caller: Int? = nil) -> Int {
        let held = relay.sessionIDs
        guard let caller else { return held.count }
        let owners = self.owners.with { $0 }
        return held.filter { owners[$0] == caller }.count
    }

    /// What a refused event, or another caller's, must leave as it was.
    struct Observed: Equatable {
        var step: PaymentAuthorizationStep
        var sheet: PaymentSheet?
        var outcome: String?
        var validated: Bool
        var busy: Bool
        var transcript: Transcript

        /// The session's state without its record, which a refusal by the flow adds to.
        var withoutRecord: Observed {
            var state = self
            state.transcript = Transcript(entries: [])
            return state
        }
    }

    func observe(_ id: String) -> Observed? {
        guard let session = relay.session(id) else { return nil }
        return Observed(
            step: session.authorizationFlow.step, sheet: session.authorizationFlow.sheet, outcome: session.outcome,
            validated: session.isMerchantValidated, busy: session.isBusy, transcript: session.transcript)
    }

    /// Every session the relay holds, observed.
    func observeAll() -> [String: Observed] {
        var all: [String: Observed] = [:]
        for id in relay.sessionIDs { all[id] = observe(id) }
        return all
    }

    // MARK: Checks

    /// Checks a reply's bytes; returns the reply.
    @discardableResult
    func check(reply data: Data, to line: Data, event: RelayEvent?) -> RelayReply {
        let reply: RelayReply
        do {
            reply = try JSONDecoder().decode(RelayReply.self, from: data)
        } catch {
            fatalError(
                "relay-events: a reply does not decode as a RelayReply: \(error): \(String(decoding: data, as: UTF8.self))"
            )
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let again = try? encoder.encode(reply)
        require(again == data, "a reply does not encode back to its bytes: \(String(decoding: data, as: UTF8.self))")
        let screened = reply.refusal.map { screenReasons.contains($0.reason) } ?? false
        if screened {
            // Spec W10: nothing of an event over a byte, string or nesting limit is read.
            require(reply.session.isEmpty && reply.type.isEmpty, "a screened event's reply names a session: \(reply)")
        } else if let event {
            require(
                reply.session == event.session && reply.type == event.type.rawValue,
                "the reply to a \(event.type.rawValue) of \(event.session.debugDescription) is for \(reply.session.debugDescription), \(reply.type)"
            )
        } else {
            require(
                reply.refusal?.reason == RelayError.Code.malformedEvent.rawValue,
                "bytes that are not an event were not refused as malformedEvent: \(reply)")
        }
        if let refusal = reply.refusal {
            require(!refusal.reason.isEmpty && !refusal.message.isEmpty, "a refusal without reason or message")
            // Spec W10: a limit's refusal names the limit, a member of RelayLimits, and only a
            // limit's refusal names one.
            require(
                refusal.limit == limitOfReason[refusal.reason],
                "a \(refusal.reason) refusal names the limit \(refusal.limit ?? "nil")")
            if let limit = refusal.limit {
                require(limitNames.contains(limit), "a refusal names \(limit), which is not a RelayLimits member")
            }
        }
        checkScreen(line, reply)
        if reply.end != nil, let session = relay.session(reply.session) {
            require(session.isEnded, "an end was replied while the session's flow goes on")
        }
        return reply
    }

    /// Spec W10: the byte, string and nesting limits, measured on the decoded JSON: what is over
    /// one is refused, what is within every one is not.
    func checkScreen(_ line: Data, _ reply: RelayReply) {
        let reason = reply.refusal?.reason
        if line.count > limits.maxEventBytes {
            require(reason == "eventTooLarge", "an event of \(line.count) bytes was not refused: \(reply)")
            return
        }
        require(reason != "eventTooLarge", "an event of \(line.count) bytes was refused as too large")
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: line) else { return }
        let (depth, scalars, utf16) = measure(value)
        if depth > limits.maxNestingDepth {
            require(
                reason == "nestingTooDeep" || reason == "stringTooLong",
                "an event nested \(depth) deep was not refused: \(reply)")
        } else {
            require(reason != "nestingTooDeep", "an event nested \(depth) deep was refused as too deep: \(reply)")
        }
        // The screen counts an escaped surrogate pair as two: between scalars and UTF-16 units.
        if scalars > limits.maxStringLength {
            require(
                reason == "stringTooLong" || reason == "nestingTooDeep",
                "an event with a string of \(scalars) scalars was not refused: \(reply)")
        } else if utf16 <= limits.maxStringLength {
            require(
                reason != "stringTooLong",
                "an event whose longest string has \(utf16) was refused as too long: \(reply)"
            )
        }
    }

    /// Spec W10: a session records at most `maxEventsPerSession` of the page's events and a cancel:
    /// the customer's entries of its transcript, the presentation aside.
    static func checkRecord(of id: String, _ transcript: Transcript) {
        let events = transcript.entries.filter { entry in
            guard entry.actor == .customer else { return false }
            if case .action("present", _) = entry.event { return false }
            return true
        }
        require(
            events.count <= limits.maxEventsPerSession + 1,
            "session \(id.debugDescription) records \(events.count) events of the page: \(events.map(\.event))")
    }

    /// The relay holds exactly the sessions opened and not ended, each ended at most once, within
    /// its caps; each records at most its limit of events.
    func checkSessions() {
        let opened = Set(merchants.with { Array($0.keys) })
        let ends = self.ends.with { $0 }
        for (id, count) in ends {
            require(count == 1, "session \(id.debugDescription) ended \(count) times")
            require(opened.contains(id), "a session that was never opened ended: \(id.debugDescription)")
        }
        let held = Set(relay.sessionIDs)
        require(
            held == opened.subtracting(ends.keys),
            "the relay holds \(held.sorted()); opened \(opened.sorted()), ended \(ends.keys.sorted())")
        require(relay.sessionCount == held.count, "sessionCount \(relay.sessionCount) for \(held.count) ids")
        require(held.count <= limits.maxSessions, "the relay holds \(held.count) sessions")
        for caller in 0..<noCaller {
            let count = heldCount(of: caller)
            require(count <= limits.maxSessionsPerCaller, "the relay holds \(count) sessions of \(identities[caller])")
        }
        for id in held {
            guard let session = relay.session(id) else { continue }
            Self.checkRecord(of: id, session.transcript)
            if let sealed = try? relay.snapshot(id), let payload = try? RelaySnapshot.open(sealed, key: snapshotKey) {
                require(
                    payload.steps.count <= limits.maxEventsPerSession,
                    "session \(id.debugDescription) recorded \(payload.steps.count) events")
            }
        }
    }

    /// Waits for sessions the relay let go of to be reported ended: an idle session can be ended
    /// by the relay's own task, which may still be finishing when the sweep returns.
    func settle() async {
        for _ in 0..<10_000 {
            let opened = Set(merchants.with { Array($0.keys) })
            let held = Set(relay.sessionIDs)
            let ended = Set(ends.with { Array($0.keys) })
            if opened.subtracting(held) == ended { return }
            try? await Task.sleep(for: .microseconds(100))
        }
        fatalError("relay-events: sessions the relay let go of were never reported ended")
    }

    /// Spec W10: what a relay without the session answers `json` of `caller` with: a relay with the
    /// same limits and key, holding as many sessions of `caller` (its cap), whose opener declines
    /// the id (it cannot open a second session under a held id).
    func answerWithoutTheSession(_ json: Data, caller: Int) async -> Data {
        let clock = ManualClock()
        let shadow = WebRelay(
            options: RelayOptions(
                callbackTimeout: deadline, idleTimeout: deadline, clock: clock, snapshotKey: snapshotKey,
                limits: limits)
        ) { _ in nil }
        if caller != noCaller {
            for _ in 0..<heldCount(of: caller) {
                try! shadow.open(
                    SessionID.random(), request: request, merchant: .authorization(delegate: Merchant()),
                    caller: callers[caller])
            }
        }
        let data = await shadow.handle(json: json, caller: callers[caller])
        for id in shadow.sessionIDs { await shadow.close(id) }
        clock.discardPendingDeadlines()
        return data
    }

    /// Spec W10: an event of `caller` for a session another caller (or none) opened is answered as
    /// by a relay without the session, and changes nothing of any session.
    func sendForeign(_ json: Data, caller: Int, session id: String) async {
        let expected = await answerWithoutTheSession(json, caller: caller)
        let before = observeAll()
        let data = await relay.handle(json: json, caller: callers[caller])
        if verbose {
            print("> [\(name(ofCaller: caller)), foreign] \(String(decoding: json, as: UTF8.self))")
            print("< \(String(decoding: data, as: UTF8.self))")
        }
        require(
            data == expected,
            "\(name(ofCaller: caller))'s event for \(id.debugDescription) of \(name(ofCaller: owners.with { $0[id] } ?? -1)) got \(String(decoding: data, as: UTF8.self)); without the session: \(String(decoding: expected, as: UTF8.self))"
        )
        require(observeAll() == before, "\(name(ofCaller: caller))'s event changed another caller's session")
    }

    // MARK: Lines

    func advance(by duration: Duration) async {
        clock.advance(by: duration)
        await relay.endIdleSessions()
        await settle()
    }

    func take(control: [UInt8], json: Data) async {
        let value = try? JSONDecoder().decode(JSONValue.self, from: json)
        var members: [String: JSONValue] = [:]
        if case .object(let object)? = value { members = object }
        let session: String? = if case .string(let text)? = members["session"] { text } else { nil }
        let first = control.first ?? 0
        let second = control.count > 1 ? control[1] : 0
        let third = control.count > 2 ? control[2] : 0
        let caller = Int(third & 3)
        switch members["type"] {
        case .string("wait")?:
            var seconds: Int64 = 0
            if case .integer(let whole)? = members["seconds"] { seconds = max(0, min(whole, 100_000)) }
            await advance(by: .seconds(seconds))
            return
        case .string("resume")?:
            if let session { await resume(session, anotherCallerFirst: third & 0x10 != 0) }
            return
        case .string("close")?:
            if let session { await relay.close(session) }
            await settle()
            return
        default:
            break
        }
        if third & 0x04 != 0, let session, relay.session(session) == nil {
            opening.with { $0.caller = caller }
            openDirectly(session, caller: caller)
            checkSessions()
        }
        if let session, relay.session(session) != nil, owners.with({ $0[session] }) != caller {
            await sendForeign(json, caller: caller, session: session)
            await relay.endIdleSessions()
            await settle()
            checkSessions()
            return
        }
        let event = try? JSONDecoder().decode(RelayEvent.self, from: json)
        let plan = Plan.all[Int(first) % Plan.all.count]
        let merchant = event.flatMap { event in merchants.with { $0[event.session] } }
        let gate = Gate()
        let status = PaymentAuthorizationStatus.allCases[Int(second) % PaymentAuthorizationStatus.allCases.count]
        let twice = second & 0x80 != 0
        opening.with { $0 = (plan, status, twice, gate, caller) }
        merchant?.0.state.with { state in
            (state.plan, state.status, state.twice, state.gate) = (plan, status, twice, gate)
        }
        let before = event.flatMap { observe($0.session) }
        let everything = observeAll()
        let (total, own) = (heldCount(), heldCount(of: caller))
        let relay = self.relay!
        let task = Task {
            let reply = await relay.handle(json: json, caller: callers[caller])
            gate.signal()
            return reply
        }
        await gate.wait()
        // The merchant of a session opened by this event is known only now.
        let holder = merchants.with { table in event.flatMap { table[$0.session] } }
        let holding =
            holder.map { holder in
                !holder.0.state.with { $0.held.isEmpty } || !holder.1.held.with { $0.isEmpty }
            } ?? false
        if holding, let event, let (merchant, validator) = holder {
            let id = String(decoding: try! JSONEncoder().encode(event.session), as: UTF8.self)
            if third & 0x08 != 0 {
                // Spec W10: another caller's event (or one without a caller) while the answer is
                // owed is answered as without the session, and leaves it busy.
                let other = Data(#"{"session": \#(id), "type": "cancel"}"#.utf8)
                await sendForeign(other, caller: (caller + 1) % callers.count, session: event.session)
                require(relay.session(event.session)?.isBusy == true, "another caller's cancel freed a busy session")
            }
            if first & 0x08 != 0 {
                // Spec W4: another event while the answer is owed is refused, and changes nothing.
                let other = Data(#"{"session": \#(id), "type": "couponcodechanged", "couponCode": "TEN"}"#.utf8)
                let observed = observe(event.session)
                let reply = check(
                    reply: await relay.handle(json: other, caller: callers[caller]), to: other,
                    event: try? JSONDecoder().decode(RelayEvent.self, from: other))
                if reply.refusal?.reason == "tooManyEvents" {
                    require(observe(event.session) == observed, "a refusal by a limit changed its session")
                } else {
                    require(
                        reply.refusal?.reason == "callbackPending",
                        "an event while the merchant owes an answer was not refused with callbackPending: \(reply)")
                    let after = observe(event.session)
                    require(after?.withoutRecord == observed?.withoutRecord, "a refused event changed its session")
                }
            }
            switch plan {
            case .lateWithinDeadline:
                clock.advance(by: deadline - .seconds(1))
                merchant.giveHeld()
                validator.giveHeld()
            case .latePastDeadline:
                clock.advance(by: deadline + .seconds(1))
                _ = await task.value
                merchant.giveHeld()
                validator.giveHeld()
            case .never:
                clock.advance(by: deadline + .seconds(1))
                _ = await task.value
                merchant.dropHeld()
                validator.failHeld()
            case .cancelledByPage:
                let cancel = Data(#"{"session": \#(id), "type": "cancel"}"#.utf8)
                let reply = check(
                    reply: await relay.handle(json: cancel, caller: callers[caller]), to: cancel,
                    event: try? JSONDecoder().decode(RelayEvent.self, from: cancel))
                require(reply.end != nil, "the page's cancel while an answer is owed did not end the session: \(reply)")
                _ = await task.value
                merchant.giveHeld()
                validator.giveHeld()
            default:
                break
            }
        }
        let data = await task.value
        if verbose {
            print("> [\(name(ofCaller: caller))] \(String(decoding: json, as: UTF8.self))")
            print("< \(String(decoding: data, as: UTF8.self))")
        }
        let reply = check(reply: data, to: json, event: event)
        if let refusal = reply.refusal {
            if let event, let before {
                require(
                    observe(event.session)?.withoutRecord == before.withoutRecord,
                    "a refused \(event.type.rawValue) (\(refusal.reason)) changed its session")
            }
            if refusal.limit != nil {
                // Spec W10: a limit's refusal changes nothing at all: no session opened, none touched.
                require(observeAll() == everything, "a refusal by \(refusal.limit!) changed the relay's sessions")
            }
            switch refusal.reason {
            case "tooManySessions":
                require(total == limits.maxSessions, "tooManySessions with \(total) sessions held")
            case "tooManySessionsForCaller":
                require(
                    caller != noCaller && own == limits.maxSessionsPerCaller,
                    "tooManySessionsForCaller with \(own) sessions of \(name(ofCaller: caller))")
            case "weakSessionID":
                require(
                    SessionID.estimatedBits(of: reply.session) < limits.minimumSessionIDBits,
                    "a strong id refused as weak: \(reply.session.debugDescription)")
            case "callerRequired":
                require(caller == noCaller, "callerRequired for \(name(ofCaller: caller))")
            default:
                break
            }
        }
        await relay.endIdleSessions()
        await settle()
        checkSessions()
    }

    /// Spec W6: writes the session out and resumes it in the same relay, with the same merchant,
    /// for its owner; spec W10: another caller's resume first is refused as `unknownSession`.
    func resume(_ id: String, anotherCallerFirst: Bool) async {
        guard let merchant = relayMerchants.with({ $0[id] }), let owner = owners.with({ $0[id] }) else { return }
        do {
            try await relay.suspend(id, to: store)
        } catch {
            require(error is RelayError, "suspend threw a \(type(of: error)): \(error)")
            await settle()
            return
        }
        if anotherCallerFirst {
            let intruder = owner == noCaller ? 0 : (owner + 1) % noCaller
            do {
                try await relay.resume(id, from: store, merchant: merchant, caller: callers[intruder])
                fatalError("relay-events: \(identities[intruder]) resumed \(name(ofCaller: owner))'s session")
            } catch {
                require(
                    (error as? RelayError)?.code == .unknownSession,
                    "another caller's resume was refused with \(error), not unknownSession")
            }
            require(relay.session(id) == nil, "another caller's refused resume left the session held")
            let kept = await store.load(id)
            require(kept != nil, "another caller's refused resume took the snapshot out of the store")
        }
        do {
            try await relay.resume(id, from: store, merchant: merchant, caller: callers[owner])
        } catch {
            fatalError("relay-events: a session written out by this relay does not resume for its owner: \(error)")
        }
        checkSessions()
    }

    /// The end of the input: every session closed, every held answer let go.
    func finish() async {
        for id in relay.sessionIDs.sorted() { await relay.close(id) }
        await settle()
        checkSessions()
        require(relay.sessionCount == 0, "sessions left after closing every one")
        for (id, merchant, validator) in allMerchants {
            merchant.giveHeld()
            validator.failHeld()
            let ended = ends.with { $0[id] ?? 0 }
            require(ended == 1, "session \(id.debugDescription) ended \(ended) times")
            require(
                merchant.finished == 1,
                "session \(id.debugDescription)'s merchant was told didFinish \(merchant.finished) times")
        }
        clock.discardPendingDeadlines()
    }
}

// MARK: - Entry

/// Runs each input's async body on one task that lives as long as the process, and returns once
/// the body has returned. A task per input would be torn down on its own thread after it signals,
/// so what its closure captured (the input) could still be held when LeakSanitizer looks, and be
/// reported as leaked (it was, by relay-snapshot's first 300-second run). Here the body's objects
/// are freed when it returns, before `done` is signalled, and the input is the caller's.
private final class Runner: @unchecked Sendable {
    private let inputs: AsyncStream<Void>.Continuation
    private let done = DispatchSemaphore(value: 0)
    /// The body of the input being run; set and cleared by the fuzzer's thread around a run.
    private var body: (@Sendable () async -> Void)?

    init() {
        let (stream, inputs) = AsyncStream<Void>.makeStream()
        self.inputs = inputs
        Task.detached { [unowned self] in
            for await _ in stream {
                await self.body?()
                self.done.signal()
            }
        }
    }

    func run(_ body: @escaping @Sendable () async -> Void) {
        self.body = body
        inputs.yield()
        done.wait()
        self.body = nil
    }
}

private let runner = Runner()

private func runBlocking(_ body: @escaping @Sendable () async -> Void) {
    runner.run(body)
}

/// The lines of the input: control bytes, and the JSON from the first `{`.
private func lines(_ input: [UInt8]) -> [(control: [UInt8], json: Data?)] {
    input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).prefix(64).map { line in
        guard let brace = line.firstIndex(of: UInt8(ascii: "{")) else { return (Array(line), nil) }
        return (Array(line[..<brace]), Data(line[brace...]))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    runBlocking {
        let harness = Harness()
        for (control, json) in lines(input) {
            if let json {
                await harness.take(control: control, json: json)
            } else {
                await harness.advance(by: .seconds(Int64(control.first ?? 0)))
            }
        }
        await harness.finish()
    }
    return 0
}
