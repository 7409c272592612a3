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

private let maximumSessions = 6
private let deadline = Duration.seconds(30)

/// One input: the relay, its clock, its sessions' merchants, and the model of what it holds.
private final class Harness: @unchecked Sendable {
    let clock = ManualClock()
    let store = InMemoryRelaySessionStore()
    /// Each session's merchant and validator, by id, once opened.
    let merchants = Locked<[String: (Merchant, Validator)]>([:])
    /// Each session's merchant as the relay was given it, for a resume.
    let relayMerchants = Locked<[String: RelayMerchant]>([:])
    /// How many times `onSessionEnd` told each session's end.
    let ends = Locked<[String: Int]>([:])
    var relay: WebRelay!
    /// How the merchant of a session opened by the current event answers it.
    let opening = Locked<(plan: Plan, status: PaymentAuthorizationStatus, twice: Bool, gate: Gate?)>(
        (.valid, .success, false, nil))

    init() {
        let ends = self.ends
        let options = RelayOptions(
            callbackTimeout: deadline, idleTimeout: deadline, clock: clock,
            snapshotKey: Array(repeating: 0x5a, count: 32),
            onSessionEnd: { id, transcript in
                _ = transcript.entries.count
                ends.with { $0[id, default: 0] += 1 }
            })
        relay = WebRelay(options: options) { [weak self] id in
            guard let self else { return nil }
            let merchant: RelayMerchant? = self.merchants.with { table in
                guard table[id] == nil, table.count < maximumSessions else { return nil }
                let merchant = Merchant()
                let (plan, status, twice, gate) = self.opening.with { $0 }
                merchant.state.with { state in
                    (state.plan, state.status, state.twice, state.gate) = (plan, status, twice, gate)
                }
                let validator = Validator(merchant: merchant)
                table[id] = (merchant, validator)
                // Every other session validates through a MerchantValidating, the rest through
                // the delegate.
                let relayMerchant: RelayMerchant =
                    table.count.isMultiple(of: 2)
                    ? .authorization(delegate: merchant, validator: validator) : .authorization(delegate: merchant)
                self.relayMerchants.with { $0[id] = relayMerchant }
                return relayMerchant
            }
            guard let merchant else { return nil }
            return .open(request, merchant)
        }
    }

    var allMerchants: [(id: String, merchant: Merchant, validator: Validator)] {
        merchants.with { $0.map { ($0.key, $0.value.0, $0.value.1) } }.sorted { $0.id < $1.id }
    }

    /// What a refused event must leave as it was.
    struct Observed: Equatable {
        var step: PaymentAuthorizationStep
        var sheet: PaymentSheet?
        var outcome: String?
        var validated: Bool
    }

    func observe(_ id: String) -> Observed? {
        guard let session = relay.session(id) else { return nil }
        return Observed(
            step: session.authorizationFlow.step, sheet: session.authorizationFlow.sheet, outcome: session.outcome,
            validated: session.isMerchantValidated)
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
        if let event {
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
        }
        if reply.end != nil, let session = relay.session(reply.session) {
            require(session.isEnded, "an end was replied while the session's flow goes on")
        }
        return reply
    }

    /// The relay holds exactly the sessions opened and not ended, each ended at most once.
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
        switch members["type"] {
        case .string("wait")?:
            var seconds: Int64 = 0
            if case .integer(let whole)? = members["seconds"] { seconds = max(0, min(whole, 100_000)) }
            await advance(by: .seconds(seconds))
            return
        case .string("resume")?:
            if let session { await resume(session) }
            return
        case .string("close")?:
            if let session { await relay.close(session) }
            await settle()
            return
        default:
            break
        }
        let event = try? JSONDecoder().decode(RelayEvent.self, from: json)
        let first = control.first ?? 0
        let second = control.count > 1 ? control[1] : 0
        let plan = Plan.all[Int(first) % Plan.all.count]
        let merchant = event.flatMap { event in merchants.with { $0[event.session] } }
        let gate = Gate()
        let status = PaymentAuthorizationStatus.allCases[Int(second) % PaymentAuthorizationStatus.allCases.count]
        let twice = second & 0x80 != 0
        opening.with { $0 = (plan, status, twice, gate) }
        merchant?.0.state.with { state in
            (state.plan, state.status, state.twice, state.gate) = (plan, status, twice, gate)
        }
        let before = event.flatMap { observe($0.session) }
        let relay = self.relay!
        let task = Task {
            let reply = await relay.handle(json: json)
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
            if first & 0x08 != 0 {
                // Spec W4: another event while the answer is owed is refused, and changes nothing.
                let other = Data(
                    #"{"session": \#(String(decoding: try! JSONEncoder().encode(event.session), as: UTF8.self)), "type": "couponcodechanged", "couponCode": "TEN"}"#
                        .utf8)
                let observed = observe(event.session)
                let reply = check(
                    reply: await relay.handle(json: other), to: other,
                    event: try? JSONDecoder().decode(RelayEvent.self, from: other))
                require(
                    reply.refusal?.reason == "callbackPending",
                    "an event while the merchant owes an answer was not refused with callbackPending: \(reply)")
                require(observe(event.session) == observed, "a refused event changed its session")
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
                let cancel = Data(
                    #"{"session": \#(String(decoding: try! JSONEncoder().encode(event.session), as: UTF8.self)), "type": "cancel"}"#
                        .utf8)
                let reply = check(
                    reply: await relay.handle(json: cancel), to: cancel,
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
            print("> \(String(decoding: json, as: UTF8.self))\n< \(String(decoding: data, as: UTF8.self))")
        }
        let reply = check(reply: data, to: json, event: event)
        if let refusal = reply.refusal, let event, let before {
            require(
                observe(event.session) == before,
                "a refused \(event.type.rawValue) (\(refusal.reason)) changed its session")
        }
        await relay.endIdleSessions()
        await settle()
        checkSessions()
    }

    /// Spec W6: writes the session out and resumes it in the same relay, with the same merchant.
    func resume(_ id: String) async {
        guard let merchant = relayMerchants.with({ $0[id] }) else { return }
        do {
            try await relay.suspend(id, to: store)
        } catch {
            require(error is RelayError, "suspend threw a \(type(of: error)): \(error)")
            await settle()
            return
        }
        do {
            try await relay.resume(id, from: store, merchant: merchant)
        } catch {
            fatalError("relay-events: a session written out by this relay does not resume: \(error)")
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
