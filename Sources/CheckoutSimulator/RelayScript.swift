import CheckoutCore
import CheckoutFlows
import CheckoutStripeBackends
import CheckoutWeb
import CheckoutWebRelay
import Foundation

/// `checkout-sim relay`: a scenario's request and merchant behind a ``/CheckoutWebRelay/WebRelay``, fed
/// the page's events as JSON Lines, answering one JSON line per event (spec W1-W6).
///
/// Each line is one event as the page forwards it (`{"session": "s1", "type":
/// "shippingcontactselected", "shippingContact": {...}}`); a session is opened at its first event,
/// with a merchant of its own declared by the scenario. Three lines are the script's own, not the
/// page's:
///
/// - `{"type": "wait", "seconds": 31}` moves the virtual clock on (the page's idle time, a
///   merchant's late answer, the browser's 30-second timeout);
/// - `{"session": "s1", "type": "resume"}` writes the session out as a sealed snapshot and resumes
///   it in another relay, as another process would (spec W6);
/// - lines with `complete`, `refused`, `ended` or `resumed` are recorded answers, skipped: a
///   recorded session (events and answers in one file) is its own events file and its own
///   `--expect` file.
///
/// An event whose merchant holds its answer (late, never) is answered when the clock reaches its
/// answer or its deadline: after a `wait` line, or at the end of the input, where the clock moves
/// on until every answer has come. An event meanwhile for the same session is refused with
/// `callbackPending` (spec W4). A line that is not an event is refused with its line number; the
/// rest go on.
public struct RelayScript: Sendable {
    /// The scenario whose request and merchant each session gets.
    public let scenario: Scenario
    let request: PaymentRequest

    /// A script for `scenario`, which must be a `paymentAuthorization` or `payContext` scenario.
    ///
    /// - Throws: ``RelayScriptError`` for a shipping-address scenario or an unpresentable request.
    public init(scenario: Scenario) throws {
        guard scenario.flow != .shippingAddress, let request = scenario.paymentRequest else {
            throw RelayScriptError(
                message: "a relayed session is a payment sheet: the scenario's flow must be "
                    + "paymentAuthorization or payContext, not \(scenario.flow.rawValue)")
        }
        do {
            try request.validate()
        } catch {
            throw RelayScriptError(message: "the scenario's request cannot be presented: \(error)")
        }
        self.scenario = scenario
        self.request = request
    }

    /// The `ApplePayPaymentRequest` the page gives `new ApplePaySession(version, request)`, as
    /// sorted, indented JSON.
    public func paymentRequestJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(ApplePayPaymentRequest(request)), as: UTF8.self)
    }

    /// Runs the event `lines` (a JSON Lines text split into lines) and returns one JSON line per
    /// answer: each line's own, and held answers, once the clock lets them through, in the order
    /// of their events.
    public func run(_ lines: [String]) async -> [String] {
        await answers(lines).flatMap(\.self)
    }

    /// Runs the event `lines` and returns them with the answers each produced after it, and
    /// those the end of the input produced at the end, dropping the answer lines the input had: a
    /// recorded session, for `--expect`.
    public func record(_ lines: [String]) async -> [String] {
        let answers = await answers(lines)
        var recorded: [String] = []
        for (line, produced) in zip(lines + [nil], answers) {
            guard let line else {
                recorded += produced
                continue
            }
            let isAnswer = JSONValue(jsonText: line).map(RelayDriver.isAnswer) ?? false
            if !line.allSatisfy(\.isWhitespace), !isAnswer { recorded.append(line) }
            // A refusal naming its line names it in the recording, where the line now is.
            let number = recorded.count
            recorded += produced.map { answer in
                guard case .object(var members)? = JSONValue(jsonText: answer), members["line"] != nil else {
                    return answer
                }
                members["line"] = .integer(Int64(number))
                return RelayDriver.line(members)
            }
        }
        return recorded
    }

    /// A driver that takes the lines one at a time.
    func driver() -> RelayDriver { RelayDriver(scenario: scenario, request: request) }

    /// The answers each line produced, and last those the end of the input produced.
    private func answers(_ lines: [String]) async -> [[String]] {
        let driver = driver()
        var output: [[String]] = []
        for (offset, line) in lines.enumerated() {
            output.append(await driver.take(line, number: offset + 1))
        }
        output.append(await driver.finish())
        return output
    }

    /// The recorded answers in `lines` (those with `complete`, `refused`, `ended` or `resumed`),
    /// each with its line number.
    public static func recordedAnswers(_ lines: [String]) -> [(line: Int, answer: JSONValue)] {
        lines.enumerated().compactMap { offset, line in
            guard let value = JSONValue(jsonText: line), RelayDriver.isAnswer(value) else { return nil }
            return (offset + 1, value)
        }
    }

    /// Where `answers` (this run's output) and `expected` (a recording's answers) differ, as
    /// sentences naming the answer's position and the expected line; empty when they agree.
    public static func differences(_ answers: [String], expected: [(line: Int, answer: JSONValue)]) -> [String] {
        var differences: [String] = []
        let got = answers.map { JSONValue(jsonText: $0) ?? .string($0) }
        for index in 0..<max(got.count, expected.count) {
            switch (index < got.count ? got[index] : nil, index < expected.count ? expected[index] : nil) {
            case (let answer?, let recorded?) where answer != recorded.answer:
                differences.append(
                    "answer \(index + 1) (expect line \(recorded.line)): expected \(recorded.answer.jsonText), got \(answer.jsonText)"
                )
            case (let answer?, nil):
                differences.append("answer \(index + 1): not expected, got \(answer.jsonText)")
            case (nil, let recorded?):
                differences.append(
                    "answer \(index + 1) (expect line \(recorded.line)): expected \(recorded.answer.jsonText), got none"
                )
            default:
                break
            }
        }
        return differences
    }
}

/// A relay script that cannot run: the message says why.
public struct RelayScriptError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

/// Feeds one script's lines to relays on one virtual clock.
final class RelayDriver: @unchecked Sendable {
    // Used from the script's one task only; `@unchecked` for the relays' opener, which reads
    // `merchants` under its own lock.

    /// An event whose merchant has not answered yet.
    private struct Pending {
        let session: String
        let task: Task<RelayReply, Never>
        /// The session's transcript length when the clock last moved.
        var entries: Int
    }

    let scenario: Scenario
    let request: PaymentRequest
    let clock = ManualClock()
    let key: [UInt8] = Array((0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    /// Each session's merchant, and the ids of sessions ever opened.
    private let merchants = LockedValue<[String: ScenarioMerchant]>([:])
    /// The relay that holds each session (a resumed one moves to a relay of its own).
    private var relayOf: [String: WebRelay] = [:]
    private var first: WebRelay!
    private var pending: [Pending] = []
    private let store = InMemoryRelaySessionStore()

    init(scenario: Scenario, request: PaymentRequest) {
        self.scenario = scenario
        self.request = request
        first = makeRelay()
    }

    /// Every relay of the script: the first and those resumed sessions moved to.
    private var relays: [WebRelay] {
        var seen = Set<ObjectIdentifier>([ObjectIdentifier(first)])
        var all: [WebRelay] = [first]
        for relay in relayOf.values where seen.insert(ObjectIdentifier(relay)).inserted { all.append(relay) }
        return all
    }

    private var timeout: Duration? {
        switch scenario.deadlineSeconds {
        case .none: .seconds(30)
        case .some(0): nil
        case .some(let seconds): .seconds(seconds)
        }
    }

    private func makeRelay() -> WebRelay {
        let options = RelayOptions(
            callbackTimeout: timeout, idleTimeout: timeout ?? .seconds(30), clock: clock, snapshotKey: key)
        return WebRelay(options: options) { [weak self] id in
            guard let self else { return nil }
            // A session opens at its first event only: an id seen before has ended.
            let merchant: ScenarioMerchant? = merchants.withLock { table in
                guard table[id] == nil else { return nil }
                let merchant = self.makeMerchant()
                table[id] = merchant
                return merchant
            }
            guard let merchant else { return nil }
            return .open(request, relayMerchant(merchant))
        }
    }

    private func makeMerchant() -> ScenarioMerchant {
        ScenarioMerchant(
            spec: scenario.merchant, request: request, clock: clock, backend: .memory(InMemoryStripeBackend()))
    }

    private func relayMerchant(_ merchant: ScenarioMerchant) -> RelayMerchant {
        RelayScript.relayMerchant(merchant, flow: scenario.flow, request: request, clock: clock)
    }

    static func isAnswer(_ value: JSONValue) -> Bool {
        guard case .object(let members) = value else { return false }
        return ["complete", "refused", "ended", "resumed"].contains { members[$0] != nil }
    }

    // MARK: Lines

    /// Takes line `number` and returns the answers it produced (its own, and those of earlier
    /// events it let through).
    func take(_ line: String, number: Int) async -> [String] {
        guard !line.allSatisfy(\.isWhitespace) else { return [] }
        // Spec W10: a line over the relay's limits is refused before anything reads it.
        if let refusal = first.screen(Data(line.utf8)) {
            return [Self.encode(RelayReply(session: "", type: "", .refused(refusal)), line: number)]
        }
        guard let value = JSONValue(jsonText: line), case .object(let members) = value else {
            return [Self.malformed(line: number, session: nil, type: nil, "the line is not a JSON object")]
        }
        if Self.isAnswer(value) { return [] }
        let session = members["session"].flatMap { if case .string(let text) = $0 { text } else { nil } }
        let type = members["type"].flatMap { if case .string(let text) = $0 { text } else { nil } }
        // Who the server authenticated for the line (spec W10): `"caller"`, a name, or null for
        // none; absent, the one caller of the script.
        let caller: RelayCaller? =
            switch members["caller"] {
            case .none: Self.defaultCaller
            case .string(let name)?: RelayCaller(name)
            default: nil
            }
        switch type {
        case "wait":
            let seconds: Decimal? =
                switch members["seconds"] {
                case .integer(let whole)?: Decimal(whole)
                case .number(let number)?: number
                default: nil
                }
            guard let number = seconds, number >= 0, number <= 1_000_000_000 else {
                return [
                    Self.malformed(
                        line: number, session: session, type: type,
                        "a wait line needs \"seconds\": a number from 0 to 1000000000")
                ]
            }
            let milliseconds = NSDecimalNumber(decimal: number * 1_000).doubleValue.rounded()
            // A deadline at a time: what one starts (a late answer's backend requests) is over
            // before the next fires, so a recording replays the same on every run (spec E4).
            await clock.advance(by: .milliseconds(Int64(milliseconds))) { await self.settleSessions() }
            // The relays end idle sessions from a task of their own when the clock passes their
            // deadline; sweeping here makes the next line see them ended, whatever that task does.
            for relay in relays { await relay.endIdleSessions() }
            return await collect()
        case "resume":
            guard let session else {
                return [Self.malformed(line: number, session: nil, type: type, "a resume line needs \"session\"")]
            }
            return [await resume(session)]
        default:
            break
        }
        let event: RelayEvent
        do {
            event = try JSONDecoder().decode(RelayEvent.self, from: Data(line.utf8))
        } catch {
            let reply = await first.reply(toJSON: Data(line.utf8), caller: caller)
            return [Self.encode(reply, line: number)]
        }
        let relay = relayOf[event.session] ?? first!
        relayOf[event.session] = relay
        // Read before the event can reach the merchant.
        let deferred = merchants.withLock { $0[event.session]?.log.withLock { $0.deferred } } ?? 0
        let task = Task { await relay.handle(event, caller: caller) }
        if await settles(task, session: event.session, deferredBefore: deferred) {
            return [Self.encode(await task.value)]
        }
        pending.append(Pending(session: event.session, task: task, entries: entries(event.session)))
        return []
    }

    /// Returns once no session's flow or merchant has work in flight (async delegate methods,
    /// backend requests).
    private func settleSessions() async {
        for (id, relay) in relayOf {
            if let merchant = merchants.withLock({ $0[id] }) { await merchant.activity.waitUntilIdle() }
            guard let session = relay.session(id) else { continue }
            if let context = session.payContext {
                await context.waitUntilIdle()
            } else {
                await session.authorizationFlow.waitUntilIdle()
            }
        }
    }

    /// The end of the input: the clock moves on, a deadline at a time, until every event held by
    /// its merchant has been answered or has timed out.
    func finish() async -> [String] {
        var output: [String] = []
        var rounds = 0
        while !pending.isEmpty, rounds < 64, clock.pendingDeadlines > 0 {
            rounds += 1
            await clock.advance(by: timeout ?? .seconds(30)) { await self.settleSessions() }
            output += await collect()
        }
        for held in pending {
            // Deadlines off and a merchant that never answers: the page would wait forever.
            held.task.cancel()
            output.append(
                Self.line([
                    "session": .string(held.session),
                    "unanswered": .object([
                        "message": .string("the merchant never answered and the session has no deadline")
                    ]),
                ]))
        }
        pending = []
        clock.discardPendingDeadlines()
        return output
    }

    /// After the clock moved: the answers of held events whose session changed.
    private func collect() async -> [String] {
        var output: [String] = []
        var still: [Pending] = []
        for var held in pending {
            let now = entries(held.session)
            if now != held.entries || relayOf[held.session]?.session(held.session) == nil {
                output.append(Self.encode(await held.task.value))
            } else {
                held.entries = now
                still.append(held)
            }
        }
        pending = still
        return output
    }

    /// Whether `task` will answer without the clock moving: it has answered, or its merchant has
    /// not put its answer off (late or never) and so it is about to.
    private func settles(_ task: Task<RelayReply, Never>, session: String, deferredBefore before: Int) async -> Bool {
        let done = LockedValue(false)
        let watcher = Task {
            _ = await task.value
            done.withLock { $0 = true }
        }
        defer { watcher.cancel() }
        // A relay that neither answers nor hands the merchant the event in ten seconds of real
        // time is treated as held, so that the script goes on rather than hang.
        let giveUp = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < giveUp {
            if done.withLock({ $0 }) { return true }
            if let merchant = merchants.withLock({ $0[session] }) {
                let (deferred, inside) = merchant.log.withLock { ($0.deferred, $0.inside) }
                if deferred > before, inside == 0, merchant.activity.idleMark != nil {
                    if let flow = relayOf[session]?.session(session) {
                        if let context = flow.payContext {
                            await context.waitUntilIdle()
                        } else {
                            await flow.authorizationFlow.waitUntilIdle()
                        }
                    }
                    return done.withLock { $0 }
                }
            }
            try? await Task.sleep(for: .microseconds(200))
        }
        return done.withLock { $0 }
    }

    private func entries(_ session: String) -> Int {
        relayOf[session]?.session(session)?.flowTranscript.entries.count ?? -1
    }

    /// Spec W6: writes the session out and resumes it in a relay of its own, as another process.
    private func resume(_ id: String) async -> String {
        guard let relay = relayOf[id], let merchant = merchants.withLock({ $0[id] }) else {
            return Self.line([
                "session": .string(id), "type": .string("resume"),
                "refused": .object([
                    "reason": .string(RelayError.Code.unknownSession.rawValue),
                    "message": .string("no session has the id \(id.debugDescription)"),
                ]),
            ])
        }
        do {
            try await relay.suspend(id, to: store)
            let next = makeRelay()
            _ = try await next.resume(id, from: store, merchant: relayMerchant(merchant))
            relayOf[id] = next
            return Self.line([
                "session": .string(id), "type": .string("resume"),
                "resumed": .object(["version": .integer(Int64(RelaySnapshot.version))]),
            ])
        } catch let error as RelayError {
            return Self.line([
                "session": .string(id), "type": .string("resume"),
                "refused": .object(["reason": .string(error.code.rawValue), "message": .string(error.message)]),
            ])
        } catch {
            return Self.line([
                "session": .string(id), "type": .string("resume"),
                "refused": .object(["reason": .string("resumeFailed"), "message": .string("\(error)")]),
            ])
        }
    }

    // MARK: Output

    /// The caller of a line without `"caller"`: the script is one authenticated visitor.
    static let defaultCaller = RelayCaller("checkout-sim")

    static func encode(_ reply: RelayReply, line: Int? = nil) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(reply) else { return "{}" }
        guard let line, case .object(var members)? = JSONValue(jsonText: String(decoding: data, as: UTF8.self))
        else { return String(decoding: data, as: UTF8.self) }
        members["line"] = .integer(Int64(line))
        return Self.line(members)
    }

    static func malformed(line: Int, session: String?, type: String?, _ message: String) -> String {
        var members: [String: JSONValue] = [
            "line": .integer(Int64(line)),
            "refused": .object([
                "reason": .string(RelayError.Code.malformedEvent.rawValue), "message": .string(message),
            ]),
        ]
        members["session"] = session.map(JSONValue.string)
        members["type"] = type.map(JSONValue.string)
        return Self.line(members)
    }

    static func line(_ members: [String: JSONValue]) -> String { JSONValue.object(members).jsonText }
}
