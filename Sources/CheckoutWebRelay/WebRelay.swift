import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import Foundation

/// A server's relay for Apple Pay on the web and the W3C Payment Request (spec W1-W6): many
/// sessions at once, each a flow that mirrors a page's sheet and whose delegate is the
/// merchant's. The page forwards each event (``RelayEvent``); ``handle(_:caller:)`` gives it to the
/// session's flow and answers with exactly what the page passes to the matching `complete…`
/// method (``RelayReply``).
///
/// The relay has no HTTP of its own: put ``handle(json:caller:)`` (bytes in, bytes out) or
/// ``handle(_:caller:)`` (values) behind a route of any server framework. It is `Sendable`: events of
/// different sessions run at once from any thread; within a session the browser's rules hold
/// (spec W4): one event at a time (an event while the merchant owes an answer is refused with
/// `callbackPending`, except `cancel`, which always ends the flow), the browser's timeout is the
/// flow's deadline, and an update the browser would reject is never sent (the page gets an end
/// and aborts). Sessions without an event for ``RelayOptions/idleTimeout`` are ended (spec W6),
/// on the options' clock. Between events a session can be written out as a sealed snapshot
/// (``snapshot(_:)``, ``suspend(_:to:)``) and resumed by another relay in another process
/// (``resume(_:merchant:caller:)``).
public final class WebRelay: Sendable {
    /// The relay's options.
    public let options: RelayOptions
    private let opener: (@Sendable (String) async throws -> RelayOpening?)?
    private let sessions = LockedValue(SessionTable())
    /// The sessions that are idle, oldest first, and the one idle deadline on the clock (spec W6).
    private let idle = LockedValue(IdleQueue())
    /// Digests callers (``RelayCaller``) under the snapshot key, so that a snapshot's owner is the
    /// same in every process that resumes it, or under a random key when there is none.
    private let callerDigester: CallerDigester

    /// A relay; `opener`, when given, is asked for a session the relay does not hold when an
    /// event for it arrives (a new session, or a snapshot to resume), and may answer nil (the
    /// event is then refused with `unknownSession`).
    public init(
        options: RelayOptions = RelayOptions(),
        opener: (@Sendable (String) async throws -> RelayOpening?)? = nil
    ) {
        self.options = options
        self.opener = opener
        if let key = options.snapshotKey, key.count >= RelaySnapshot.minimumKeyLength {
            callerDigester = CallerDigester(key: key)
        } else {
            var generator = SystemRandomNumberGenerator()
            callerDigester = CallerDigester(
                key: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        }
    }

    deinit {
        idle.withLock { $0.removeAll() }
    }

    // MARK: Sessions

    /// Opens session `id`: a flow for `request` answered by `merchant`, presented at once (the
    /// page has called `session.begin()` or `request.show()`). The session answers only events of
    /// `caller` (spec W10); make `id` with ``SessionID/random()``.
    ///
    /// - Throws: ``RelayError`` with ``RelayError/Code/sessionExists``,
    ///   ``RelayError/Code/tooManySessions`` or ``RelayError/Code/tooManySessionsForCaller``; the
    ///   flow's ``/CheckoutCore/CheckoutError`` for an invalid request.
    @discardableResult
    public func open(_ id: String, request: PaymentRequest, merchant: RelayMerchant, caller: RelayCaller? = nil) throws
        -> RelaySession
    {
        try open(id, request: request, merchant: merchant, owner: caller.map { callerDigester.digest($0) })
    }

    private func open(_ id: String, request: PaymentRequest, merchant: RelayMerchant, owner: CallerDigest?) throws
        -> RelaySession
    {
        // Refused before a flow is built: a flood at the cap costs no flow.
        if let refusal = sessions.withLock({ $0.refusal(toOpenFor: owner, limits: options.limits) }) {
            throw refusal
        }
        let session = try RelaySession(id: id, request: request, merchant: merchant, owner: owner, options: options)
        try register(session)
        return session
    }

    /// The session with this id, while the relay holds it.
    public func session(_ id: String) -> RelaySession? { sessions.withLock { $0.byID[id] } }

    /// The ids of the sessions the relay holds.
    public var sessionIDs: [String] { sessions.withLock { Array($0.byID.keys) } }

    /// The number of sessions the relay holds.
    public var sessionCount: Int { sessions.withLock { $0.byID.count } }

    /// Lets go of session `id`: its flow is cancelled if it is still running, and
    /// ``RelayOptions/onSessionEnd`` is told. Nothing happens for an unknown id.
    public func close(_ id: String) async {
        guard let session = sessions.withLock({ $0.remove(id) }) else { return }
        await release(session, reason: "closed", message: "the server closed the session")
    }

    private func register(_ session: RelaySession) throws {
        try sessions.withLock { try $0.insert(session, limits: options.limits) }
        becameIdle(session)
    }

    /// The session an event of `caller` names, or why there is none for them (spec W10). A
    /// session of another caller (or of none) is answered as one that does not exist; an id the
    /// page chooses for a new session must carry enough entropy, and a caller.
    private func lookUp(_ id: String, caller: CallerDigest?) async -> LookUp {
        let held = session(id)
        if let held, held.isOwned(by: caller) { return .found(held) }
        let unknown = RelayRefusal(
            reason: RelayError.Code.unknownSession.rawValue, message: "no session has the id \(id.debugDescription)",
            fields: ["session"])
        guard let opener else { return .refused(unknown) }
        let bits = SessionID.estimatedBits(of: id)
        if bits < options.limits.minimumSessionIDBits {
            return .refused(
                RelayRefusal(
                    reason: RelayError.Code.weakSessionID.rawValue,
                    message: "a session id a page chooses must carry \(options.limits.minimumSessionIDBits) bits of "
                        + "entropy (RelayLimits.minimumSessionIDBits); this one's form carries \(bits): make it with "
                        + "crypto.randomUUID()",
                    fields: ["session"], limit: "minimumSessionIDBits"))
        }
        guard let caller else {
            return .refused(
                RelayRefusal(
                    reason: RelayError.Code.callerRequired.rawValue,
                    message: "a page's event opens a session for an authenticated caller only: the server gave none "
                        + "(RelayCaller)",
                    fields: ["caller"]))
        }
        // A session of another caller is answered as by a relay without it, whose opener declines
        // the id: its caps are counted without it.
        if let refusal = sessions.withLock({ $0.refusal(toOpenFor: caller, limits: options.limits, besides: held) }) {
            return .refused(RelayRefusal(refusal, limit: Self.limit(of: refusal.code)))
        }
        if held != nil { return .refused(unknown) }
        guard let opening = try? await opener(id) else { return .refused(unknown) }
        do {
            switch opening {
            case .open(let request, let merchant):
                return .found(try open(id, request: request, merchant: merchant, owner: caller))
            case .resume(let snapshot, let merchant):
                return .found(try await resume(snapshot, merchant: merchant, owner: caller, expecting: id))
            }
        } catch let error as RelayError where Self.limit(of: error.code) != nil {
            return .refused(RelayRefusal(error, limit: Self.limit(of: error.code)))
        } catch {
            // Another event opened it meanwhile: it is answered as any held session is.
            if let held = session(id), held.isOwned(by: caller) { return .found(held) }
            return .refused(unknown)
        }
    }

    /// What an event's session id leads to.
    private enum LookUp {
        case found(RelaySession)
        case refused(RelayRefusal)
    }

    /// The name in ``RelayLimits`` of the limit a session cap's code is for.
    private static func limit(of code: RelayError.Code) -> String? {
        switch code {
        case .tooManySessions: "maxSessions"
        case .tooManySessionsForCaller: "maxSessionsPerCaller"
        default: nil
        }
    }

    // MARK: Events

    /// Handles one event of the page's JSON and gives the reply's JSON: bytes in, bytes out, for a
    /// route. `caller` is who sent it, as the server authenticated them (spec W10): a session
    /// answers only the caller that opened it. Bytes over a limit (``RelayOptions/limits``) are
    /// refused, without being decoded, with the limit they hit; bytes that are not an event get a
    /// refusal with `malformedEvent`, naming the member.
    public func handle(json: Data, caller: RelayCaller? = nil) async -> Data {
        Self.encoded(await reply(toJSON: json, caller: caller))
    }

    /// The reply's JSON as `JSONEncoder` writes it with sorted keys and unescaped slashes: written
    /// directly where the reply's wire types have writers of their own (``RelayReply/writtenJSON``),
    /// by the relay's own encoder where they have not (JSONEncoder was a third of an event's cost,
    /// BENCHMARKS.md), by JSONEncoder where only it can.
    static func encoded(_ reply: RelayReply) -> Data {
        if let bytes = reply.writtenJSON { return bytes }
        if let bytes = SortedJSONEncoder.encode(reply) { return bytes }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A reply is made of strings, numbers and the wire types, which always encode.
        return (try? encoder.encode(reply)) ?? Data()
    }

    /// Handles one event of the page's JSON, sent by `caller`, and gives the reply.
    public func reply(toJSON json: Data, caller: RelayCaller? = nil) async -> RelayReply {
        // Spec W10: checked before anything is decoded, and answered without echoing anything.
        if let refusal = screen(json) {
            return RelayReply(session: "", type: "", .refused(refusal))
        }
        // JSONDecoder's value, read by the relay's own decoder where it can (JSONDecoder was a
        // quarter of an event's cost, BENCHMARKS.md); JSONDecoder's value or error where only it can.
        if let (event, kept) = EventJSONDecoder.decodeEvent(from: json, keepingText: keepsSteps) {
            return await handle(event, keeping: kept, caller: caller)
        }
        do {
            return await handle(try JSONDecoder().decode(RelayEvent.self, from: json), caller: caller)
        } catch {
            let envelope = try? JSONDecoder().decode(Envelope.self, from: json)
            let (message, field) = Self.describe(error)
            return RelayReply(
                session: envelope?.session ?? "", type: envelope?.type ?? "",
                .refused(
                    RelayRefusal(
                        reason: RelayError.Code.malformedEvent.rawValue, message: message,
                        fields: field.map { [$0] })))
        }
    }

    /// Why `json` exceeds the byte, string or nesting limit (``RelayOptions/limits``), or nil:
    /// what ``reply(toJSON:caller:)`` checks first, for a caller that decodes events itself.
    package func screen(_ json: Data) -> RelayRefusal? {
        EventScreen(limits: options.limits).refusal(for: json)
    }

    private struct Envelope: Decodable {
        var session: String?
        var type: String?
    }

    /// A decoding error's message and the path it names.
    static func describe(_ error: any Error) -> (String, String?) {
        func path(_ context: DecodingError.Context) -> String? {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return path.isEmpty ? nil : path.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            let parent = path(context).map { "\($0)." } ?? ""
            return ("\(parent)\(key.stringValue) is missing", parent + key.stringValue)
        case DecodingError.typeMismatch(let type, let context), DecodingError.valueNotFound(let type, let context):
            return ("\(path(context) ?? "the event") is not a \(type): \(context.debugDescription)", path(context))
        case DecodingError.dataCorrupted(let context):
            return ("\(path(context) ?? "the event"): \(context.debugDescription)", path(context))
        default:
            return ("the bytes are not a JSON event: \(error)", nil)
        }
    }

    /// Handles one event of `caller`: gives it to its session's flow and answers with what the
    /// page passes to the event's `complete…` method, a refusal, or the session's end. The
    /// session and event caps of ``RelayOptions/limits`` apply; the byte, string and nesting
    /// limits are checked by ``handle(json:caller:)``, before decoding.
    public func handle(_ event: RelayEvent, caller: RelayCaller? = nil) async -> RelayReply {
        await handle(event, keeping: nil, caller: caller)
    }

    /// ``handle(_:caller:)``, with the form its session keeps the event in for a snapshot (the
    /// page's text of it, when it came as bytes); nil keeps it decoded.
    private func handle(_ event: RelayEvent, keeping kept: KeptEvent?, caller: RelayCaller?) async -> RelayReply {
        let type = event.type
        func reply(_ body: RelayReply.Body) -> RelayReply {
            RelayReply(session: event.session, type: type.rawValue, body)
        }
        let session: RelaySession
        switch await lookUp(event.session, caller: caller.map { callerDigester.digest($0) }) {
        case .found(let found): session = found
        case .refused(let refusal): return reply(.refused(refusal))
        }
        if type == .cancel { return reply(await cancel(session)) }
        if let refusal = begin(session, type) { return reply(.refused(refusal)) }
        let body: RelayReply.Body
        if case .validateMerchant(let url) = event.payload {
            body = await validateMerchant(session, event, kept ?? .decoded(event.payload), url)
        } else if case .expressCheckoutClick = event.payload {
            // Express Checkout Element
            body = await expressCheckoutClick(session)
        } else if case .googlePayPaymentDataChanged(let data) = event.payload {
            body = await driveGooglePayChange(session, event, kept ?? .decoded(event.payload), data)
        } else {
            body = await drive(session, event, kept ?? .decoded(event.payload))
        }
        finish(session)
        return reply(body)
    }

    /// Spec W4: the event may start only when no answer is owed (a refusal then is noted in the
    /// transcript); marks the session busy. Spec W10: every event but `cancel` counts, and a
    /// session that has taken ``RelayLimits/maxEventsPerSession`` takes no more, noting nothing.
    private func begin(_ session: RelaySession, _ type: RelayEventType) -> RelayRefusal? {
        let limit = options.limits.maxEventsPerSession
        enum Start {
            case started
            case pending(Refusal)
            case overLimit
        }
        let start: Start = session.withState { state in
            guard state.eventsTaken < limit else { return .overLimit }
            state.eventsTaken += 1
            if let busy = state.busy?.callback {
                return .pending(
                    Refusal(
                        code: .callbackPending, message: "waiting for the completion of \(busy)",
                        pendingCallback: busy))
            }
            state.busy = .event(type)
            state.idleGeneration &+= 1
            return .started
        }
        switch start {
        case .started:
            idle.withLock { $0.remove(session) }
            return nil
        case .pending(let refusal):
            session.note(.refused("relay.\(type.rawValue)", refusal))
            return RelayRefusal(refusal)
        case .overLimit:
            return RelayRefusal(
                reason: RelayError.Code.tooManyEvents.rawValue,
                message: "the session has taken \(limit) events, the most a session takes "
                    + "(RelayLimits.maxEventsPerSession); it takes only cancel now",
                limit: "maxEventsPerSession")
        }
    }

    /// The event is over: the session is free and idle from now.
    private func finish(_ session: RelaySession) {
        // Idle from now, perhaps for long: the flow made small (its transcripts packed).
        session.flow.compactWhileIdle()
        becameIdle(session, afterEvent: true)
    }

    private func drive(_ session: RelaySession, _ event: RelayEvent, _ kept: KeptEvent) async -> RelayReply.Body {
        let driven: RelaySession.Driven
        do {
            driven = try await session.drive(event.payload)
        } catch let invalid as RelaySession.InvalidEvent {
            session.note(
                .refused(
                    "relay.\(event.type.rawValue)",
                    Refusal(code: .invalidField, message: invalid.error.message, fields: invalid.refusal.fields ?? [])))
            return .refused(invalid.refusal)
        } catch let refusal as Refusal {
            if keepsSteps {
                session.withState { $0.steps.append(kept, of: event.payload, refusal: refusal.code.rawValue) }
            }
            return .refused(RelayRefusal(refusal))
        } catch {
            // CallbackEnded: the flow ended before the merchant answered (deadline, cancel).
            return .ended(await session.endOfFlow(afterPageCancel: false))
        }
        if keepsSteps {
            let answer = session.recorded(driven)
            session.withState { $0.steps.append(kept, of: event.payload, answer: answer) }
        }
        if case .merchantSession(let update) = driven {
            guard update.isSuccess else {
                let unsupported = update.isDefaultAnswer
                session.withState {
                    $0.relayEnd =
                        unsupported
                        ? (
                            RelayError.Code.merchantValidationUnsupported.rawValue,
                            "the session's merchant gets no merchant session: it gave no MerchantValidating, and its "
                                + "delegate does not implement didRequestMerchantSessionUpdate"
                        )
                        : (
                            "merchantValidationFailed",
                            session.validator?.lastFailure ?? "the merchant got no merchant session"
                        )
                }
                return .ended(await session.endOfFlow(afterPageCancel: false))
            }
            session.withState { $0.validated = true }
        }
        if case .authorization = driven {
        } else if session.flow.sheet.outcome != nil {
            // Spec W4, E7: the update was invalid; the page gets the flow's end instead.
            return .ended(await session.endOfFlow(afterPageCancel: false))
        }
        if case .authorization(let result) = driven, event.type == .paymentResponse {
            return .complete(await session.responseCompletion(to: result))
        }
        return await send(
            event, of: session, checkedAs: "the browser",
            { try session.completion(for: driven, of: event.type) },
            check: { try $0.checkAsTheBrowserWould(applePayVersion: self.options.applePayVersion) })
    }

    /// The merchant's answer to `event` as the page takes it (`build`), checked as `sheet` would
    /// check it (`check`; spec W4, W8): an answer with no such form ends the session as
    /// `unrepresentableAnswer`, one the sheet would refuse as `browserWouldRefuse`, and neither
    /// is sent.
    func send(
        _ event: RelayEvent, of session: RelaySession, checkedAs sheet: String,
        _ build: () throws -> RelayCompletion, check: (RelayCompletion) throws -> Void
    ) async -> RelayReply.Body {
        let completion: RelayCompletion
        do {
            completion = try build()
        } catch {
            await session.end(
                reason: "unrepresentableAnswer",
                message: "the merchant's answer to \(event.type.rawValue) has no form the page can take: \(error)")
            return .ended(await session.endOfFlow(afterPageCancel: false))
        }
        do {
            try check(completion)
        } catch {
            await session.end(
                reason: "browserWouldRefuse",
                message: "\(sheet) would refuse the merchant's answer to \(event.type.rawValue): \(error)")
            return .ended(await session.endOfFlow(afterPageCancel: false))
        }
        return .complete(completion)
    }

    /// Spec E3, W4: the page's cancel ends the flow at once, also while an answer is owed.
    private func cancel(_ session: RelaySession) async -> RelayReply.Body {
        if case .refused(let refusal) = session.flow.cancel() { return .refused(RelayRefusal(refusal)) }
        let end = await session.endOfFlow(afterPageCancel: true)
        becameIdle(session)
        return .ended(end)
    }

    // MARK: Merchant validation (spec W5)

    /// Checks the page's validation URL, then asks the flow's merchant-session callback: the
    /// merchant's delegate answers it, or the merchant's ``MerchantValidating``.
    private func validateMerchant(_ session: RelaySession, _ event: RelayEvent, _ kept: KeptEvent, _ urlText: String)
        async -> RelayReply.Body
    {
        if session.flow.isEnded {
            return .refused(RelayRefusal(Refusal(code: .finished, message: "the flow has ended")))
        }
        guard let url = URL(string: urlText), url.scheme == "https", let host = url.host, !host.isEmpty else {
            return .refused(
                RelayRefusal(
                    reason: RelayError.Code.invalidEvent.rawValue,
                    message: "validationURL \(urlText.debugDescription) is not an https URL",
                    fields: ["validationURL"]))
        }
        // The URL comes from the page; the merchant posts its identity to it. Only Apple's
        // gateways are asked (no request forged to another host).
        guard options.merchantValidationHosts.contains(host.lowercased()) else {
            return .refused(
                RelayRefusal(
                    reason: RelayError.Code.invalidEvent.rawValue,
                    message: "validationURL's host \(host.debugDescription) is not an Apple Pay gateway "
                        + "(RelayOptions.merchantValidationHosts)",
                    fields: ["validationURL"]))
        }
        return await drive(session, event, kept)
    }

    // MARK: Idle sessions (spec W6)

    /// The session's last activity is now: unless it is busy (the page's cancel may come while an
    /// answer is owed) or let go of, it goes last in the idle queue (its deadline the latest), and
    /// the relay's deadline is armed if none as early is. `afterEvent`: its event is over, it is
    /// free.
    private func becameIdle(_ session: RelaySession, afterEvent: Bool = false) {
        idle.withLock { queue in
            let now = options.clock.now
            let isIdle = session.withState { state in
                if afterEvent { state.busy = nil }
                state.lastActivity = now
                return state.busy == nil && !state.released
            }
            queue.remove(session)
            if isIdle { queue.append(session) }
        }
        armIdleDeadline()
    }

    /// Schedules the relay's idle deadline at its first idle session's, unless one as early is
    /// already on the clock. (Scheduled outside the queue's lock: a clock may act at once.)
    private func armIdleDeadline() {
        let timeout = options.idleTimeout
        let deadline: Duration? = idle.withLock { queue in
            guard let first = queue.first else { return nil }
            let deadline = first.withState { $0.lastActivity } + timeout
            if let armed = queue.armedFor, armed <= deadline { return nil }
            queue.armedFor = deadline
            return deadline
        }
        guard let deadline else { return }
        // A deadline replaced by an earlier one (a clock set back) still comes: it finds nothing
        // due, or what is.
        _ = options.clock.schedule(at: deadline) { [weak self] in self?.idleDeadlinePassed() }
    }

    /// The relay's idle deadline has come: the sessions idle for ``RelayOptions/idleTimeout`` are
    /// ended, and the deadline moves to the next idle session's.
    private func idleDeadlinePassed() {
        let now = options.clock.now
        let timeout = options.idleTimeout
        let due: [(RelaySession, UInt64)] = idle.withLock { queue in
            if let armed = queue.armedFor, armed <= now { queue.armedFor = nil }
            var due: [(RelaySession, UInt64)] = []
            while let first = queue.first {
                let (lastActivity, generation) = first.withState { ($0.lastActivity, $0.idleGeneration) }
                guard now - lastActivity >= timeout else { break }
                queue.remove(first)
                due.append((first, generation))
            }
            return due
        }
        for (session, generation) in due {
            Task { await self.expire(session, generation) }
        }
        armIdleDeadline()
    }

    /// Ends every session that has had no event for ``RelayOptions/idleTimeout`` and owes no
    /// answer, now, and gives their ids. The relay does this on its own when each session's idle
    /// deadline passes on the options' clock; call this to sweep at a moment of your choosing (a
    /// test after advancing a ``/CheckoutFlows/ManualClock``, a server before shutting down).
    @discardableResult
    public func endIdleSessions() async -> [String] {
        let now = options.clock.now
        let candidates = sessions.withLock { Array($0.byID.values) }
        var ended: [String] = []
        for session in candidates {
            let generation: UInt64? = session.withState { state in
                state.busy == nil && !state.released && now - state.lastActivity >= options.idleTimeout
                    ? state.idleGeneration : nil
            }
            if let generation, await expire(session, generation) { ended.append(session.id) }
        }
        return ended.sorted()
    }

    @discardableResult
    private func expire(_ session: RelaySession, _ generation: UInt64) async -> Bool {
        let idle = session.withState { state in
            state.idleGeneration == generation && state.busy == nil && !state.released
        }
        guard idle else { return false }
        let removed = sessions.withLock { $0.remove(session) }
        guard removed else { return false }
        await release(session, reason: "idle", message: "no event for \(options.idleTimeout)")
        return true
    }

    private func release(_ session: RelaySession, reason: String, message: String) async {
        letGo(session)
        if !session.flow.isEnded { await session.end(reason: reason, message: message) }
        options.onSessionEnd?(session.id, session.transcript)
    }

    /// The session is out of the relay's table: it is marked let go of (a deadline or an event
    /// that finds it takes no effect) and leaves the idle queue.
    private func letGo(_ session: RelaySession) {
        session.withState { state in
            state.released = true
            state.idleGeneration &+= 1
        }
        idle.withLock { $0.remove(session) }
    }

    // MARK: Snapshots (spec W6)

    /// Whether the sessions keep the events that reached their flows, with the answers, for a
    /// snapshot: only a relay with a snapshot key can write one out, and without one an idle
    /// session would hold them (some 700 bytes) for nothing.
    var keepsSteps: Bool { options.snapshotKey != nil }

    /// Writes session `id` out as a sealed snapshot; the relay keeps the session.
    ///
    /// - Throws: ``RelayError`` with ``RelayError/Code/unknownSession``,
    ///   ``RelayError/Code/sessionBusy`` (an answer is owed), ``RelayError/Code/sessionEnded``,
    ///   ``RelayError/Code/snapshotUnsupported`` or ``RelayError/Code/snapshotKeyMissing``.
    public func snapshot(_ id: String) throws -> Data {
        try snapshot(id, holding: false)
    }

    /// The sealed snapshot of session `id`; with `holding`, the session is left busy (as
    /// ``Self/suspending``) so that no event slips in between the snapshot and the hand-over.
    private func snapshot(_ id: String, holding: Bool) throws -> Data {
        let key = try RelaySnapshot.checkedKey(options.snapshotKey)
        guard let session = session(id) else {
            throw RelayError(
                code: .unknownSession, message: "no session has the id \(id.debugDescription)", field: "session",
                value: id)
        }
        if session.flow.isEnded {
            throw RelayError(code: .sessionEnded, message: "session \(id.debugDescription) has ended", value: id)
        }
        let request = session.request
        let (kept, validated): (KeptSteps, Bool) = try session.withState { state in
            if let busy = state.busy?.callback {
                throw RelayError(
                    code: .sessionBusy,
                    message:
                        "session \(id.debugDescription) waits for the answer to \(busy); write it out between events",
                    value: id)
            }
            if session.isPayContext, state.authorizationAttempted {
                throw RelayError(
                    code: .snapshotUnsupported,
                    message: "a pay context cannot be written out after an authorization attempt: its backend calls "
                        + "cannot be replayed", value: id)
            }
            if holding { state.busy = .suspending }
            return (state.steps, state.validated)
        }
        do {
            // The steps read again outside the lock: the page's text of each event decoded once more.
            let steps = try kept.recorded(session: id)
            let payload = RelaySnapshot.Payload(
                version: RelaySnapshot.version, session: id,
                kind: session.isPayContext ? .payContext : .authorization, request: request,
                validated: validated, steps: steps, owner: session.owner?.hex)
            return try RelaySnapshot.seal(payload, key: key)
        } catch {
            if holding { finish(session) }
            throw error
        }
    }

    /// What a session being written out is busy with: an event meanwhile is refused with
    /// `callbackPending` naming it, so that none is lost between the snapshot and the hand-over.
    static let suspending = "relay.suspend"

    /// Writes session `id` out to `store` and lets go of it without ending its flow: another
    /// relay resumes it from the store. While it is written out, its events are refused with
    /// `callbackPending` (naming `relay.suspend`), so none is lost between the two.
    ///
    /// - Throws: as ``snapshot(_:)``, and what the store throws (the relay then keeps the
    ///   session).
    public func suspend(_ id: String, to store: some RelaySessionStore) async throws {
        let sealed = try snapshot(id, holding: true)
        do {
            try await store.save(sealed, for: id)
        } catch {
            if let session = session(id) { finish(session) }
            throw error
        }
        guard let session = sessions.withLock({ $0.remove(id) }) else { return }
        letGo(session)
        if session.flow.isEnded {
            // The page's cancel came while the snapshot was being saved (a cancel is always
            // taken): the stored snapshot is of a checkout that has ended and must not resume.
            try? await store.remove(id)
            options.onSessionEnd?(session.id, session.transcript)
            throw RelayError(
                code: .sessionEnded, message: "session \(id.debugDescription) ended while it was written out",
                value: id)
        }
    }

    /// Resumes session `id` from `store` with `merchant`, for `caller` (as
    /// ``resume(_:merchant:caller:)``).
    ///
    /// - Throws: ``RelayError`` with ``RelayError/Code/unknownSession`` when the store has no
    ///   snapshot for `id`; as ``resume(_:merchant:caller:)``.
    @discardableResult
    public func resume(
        _ id: String, from store: some RelaySessionStore, merchant: RelayMerchant, caller: RelayCaller? = nil
    ) async throws -> RelaySession {
        guard let sealed = try await store.load(id) else {
            throw RelayError(
                code: .unknownSession, message: "the store has no snapshot of session \(id.debugDescription)",
                field: "session", value: id)
        }
        let session = try await resume(
            sealed, merchant: merchant, owner: caller.map { callerDigester.digest($0) }, expecting: id)
        // Taken out of the store: a snapshot resumes once, so a late or repeated event elsewhere
        // cannot bring back the checkout as it was before.
        try? await store.remove(id)
        return session
    }

    /// Resumes a session from a sealed snapshot, answered by `merchant` from now on: the
    /// snapshot's form, MAC and version are checked, then its events are replayed through a fresh
    /// flow answering from the record, so every rule a fresh flow checks is checked again; then
    /// the merchant's delegate takes over. The resumed flow's transcript shows the replayed events
    /// at the time of the resume.
    ///
    /// - Throws: ``RelayError`` with ``RelayError/Code/malformedSnapshot``,
    ///   ``RelayError/Code/tamperedSnapshot``, ``RelayError/Code/unsupportedSnapshotVersion``,
    ///   ``RelayError/Code/snapshotDiverged``, ``RelayError/Code/sessionExists`` or
    ///   ``RelayError/Code/snapshotKeyMissing``; ``RelayError/Code/unknownSession`` when `caller`
    ///   is given and the session is not theirs; ``RelayError/Code/tooManySessions`` or
    ///   ``RelayError/Code/tooManySessionsForCaller``; the flow's
    ///   ``/CheckoutCore/CheckoutError`` for an invalid request.
    ///
    /// A snapshot keeps the caller that opened its session (spec W10, as a keyed digest): the
    /// resumed session answers that caller only, and `caller`, when given, must be them.
    @discardableResult
    public func resume(_ sealed: Data, merchant: RelayMerchant, caller: RelayCaller? = nil) async throws
        -> RelaySession
    {
        try await resume(sealed, merchant: merchant, owner: caller.map { callerDigester.digest($0) }, expecting: nil)
    }

    /// ``resume(_:merchant:caller:)``, refusing before anything is built a snapshot of another
    /// session than `expected` (a store's entries swapped) or of another owner than `caller`.
    private func resume(
        _ sealed: Data, merchant: RelayMerchant, owner caller: CallerDigest?, expecting expected: String?
    ) async throws -> RelaySession {
        let key = try RelaySnapshot.checkedKey(options.snapshotKey)
        let payload = try RelaySnapshot.open(sealed, key: key)
        let owner = try payload.owner.map { hex in
            guard let digest = CallerDigest(hex: hex) else {
                throw RelayError(
                    code: .malformedSnapshot, message: "the snapshot's owner is not a caller's digest", field: "owner")
            }
            return digest
        }
        if let caller, !caller.matches(owner) {
            throw RelayError(
                code: .unknownSession,
                message: "no session of this caller has the id \(payload.session.debugDescription)", field: "session",
                value: payload.session)
        }
        if let expected, payload.session != expected {
            throw RelayError(
                code: .tamperedSnapshot,
                message:
                    "the snapshot given for session \(expected.debugDescription) is of session \(payload.session.debugDescription)",
                field: "session", value: payload.session)
        }
        guard (payload.kind == .payContext) == merchant.isPayContext else {
            throw RelayError(
                code: .snapshotDiverged,
                message: "the snapshot is of a \(payload.kind.rawValue) session; the merchant given is not",
                field: "kind", value: payload.kind.rawValue)
        }
        if session(payload.session) != nil {
            throw RelayError(
                code: .sessionExists, message: "a session with the id \(payload.session.debugDescription) is open",
                field: "session", value: payload.session)
        }
        if let refusal = sessions.withLock({ $0.refusal(toOpenFor: owner, limits: options.limits) }) {
            throw refusal
        }
        // The session's delegate's script, held here only while the snapshot is replayed.
        var delegateScript: ReplayScript?
        let session = try RelaySession(
            id: payload.session, request: payload.request, merchant: merchant, owner: owner, options: options
        ) { delegateScript = $0 }
        guard let script = delegateScript else { preconditionFailure("every session's delegate is a replay script") }
        try await replay(payload.steps, into: session, through: script)
        session.withState { state in
            state.steps = KeptSteps(payload.steps)
            state.validated = payload.validated
            state.eventsTaken = payload.steps.count
            state.authorizationAttempted = payload.steps.contains {
                $0.event.type == .paymentAuthorized || $0.event.type == .paymentResponse
                    || $0.event.type == .expressCheckoutConfirm  // Express Checkout Element
                    || $0.event.type == .googlePayPaymentAuthorized
            }
        }
        try register(session)
        return session
    }

    private func replay(_ steps: [RecordedStep], into session: RelaySession, through script: ReplayScript) async throws
    {
        func diverged(_ index: Int, _ why: String) -> RelayError {
            RelayError(
                code: .snapshotDiverged, message: "steps[\(index)] (\(steps[index].event.type.rawValue)): \(why)",
                field: "steps[\(index)]")
        }
        // The pay context's sheet answers a card change itself: no merchant answer to replay.
        let answers = steps.flatMap(\.answers).filter { answer in
            if session.isPayContext, case .paymentMethod = answer { return false }
            return true
        }
        script.start(answers)
        for (index, step) in steps.enumerated() {
            guard step.event.session == session.id else {
                _ = script.finish()
                throw diverged(index, "the event is of session \(step.event.session.debugDescription)")
            }
            switch step.event.type {
            case .cancel:
                _ = script.finish()
                throw diverged(index, "a \(step.event.type.rawValue) event is never recorded")
            default: break
            }
            do {
                try await session.replay(step.event.payload)
                if let refusal = step.refusal {
                    _ = script.finish()
                    throw diverged(index, "the flow accepted the event, which the record says it refused (\(refusal))")
                }
            } catch let refusal as Refusal {
                guard step.refusal == refusal.code.rawValue else {
                    _ = script.finish()
                    throw diverged(index, "the flow refused the event: \(refusal)")
                }
            } catch let invalid as RelaySession.InvalidEvent {
                _ = script.finish()
                throw diverged(index, "the event is not valid wire input: \(invalid.error.message)")
            } catch let error as RelayError {
                throw error
            } catch {
                _ = script.finish()
                throw diverged(index, "the flow ended: \(error)")
            }
        }
        if let divergence = script.finish() {
            throw RelayError(code: .snapshotDiverged, message: divergence, field: "steps")
        }
        if let outcome = session.flow.outcome {
            throw RelayError(code: .snapshotDiverged, message: "the replayed flow ended: \(outcome)", field: "steps")
        }
    }
}

extension RelayRefusal {
    /// The relay's error, for the page; `limit` names the limit it is for.
    init(_ error: RelayError, limit: String?) {
        self.init(
            reason: error.code.rawValue, message: error.message, fields: error.field.map { [$0] }, limit: limit)
    }

    /// The flow's refusal, for the page.
    init(_ refusal: Refusal) {
        self.init(
            reason: refusal.code.rawValue, message: refusal.message, pendingCallback: refusal.pendingCallback,
            fields: refusal.fields.isEmpty ? nil : refusal.fields)
    }
}
