import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutWeb
import Foundation

/// One relayed checkout: the flow that mirrors the page's sheet, the merchant who answers it, and
/// what the relay keeps of it (spec W4-W6). Get one from ``WebRelay/open(_:request:merchant:caller:)``,
/// ``WebRelay/resume(_:merchant:caller:)`` or ``WebRelay/session(_:)``; the relay drives it.
public final class RelaySession: Sendable {
    /// The id the page sends with every event.
    public let id: String
    /// The request as presented (kept once, by the flow).
    public var request: PaymentRequest { flow.sheet.request }
    /// Whether the merchant is a pay context's (`RelayMerchant.payContext`), whose backend calls a snapshot
    /// cannot replay.
    var isPayContext: Bool {
        if case .payContext = flow { return true }
        return false
    }
    // The stored properties are in the order that packs them tightest (a session is 182 bytes).
    let flow: SessionFlow
    /// The merchant's ``MerchantValidating``, bound to this session, when it gave one (its
    /// delegate holds it too).
    let validator: MerchantValidator?
    /// The options' clock, as the flow keeps it (not a second time here: 40 bytes a session).
    var clock: any CheckoutClock { flow.sheet.clock }
    // Express Checkout Element
    /// The PaymentMethod of the `confirm` being authorized, which a pay context's backend takes
    /// as created (spec W9); a pay context's session only.
    let expressCheckoutPaymentMethod: ExpressCheckoutPaymentMethodSlot?
    /// The session's place in its relay's idle queue (spec W6), read and changed only under the
    /// relay's lock over the queue.
    nonisolated(unsafe) var idleLinks = IdleLinks()
    /// The digest of the caller that opened the session (spec W10); nil for a session opened
    /// without one, which answers only events without one.
    let owner: CallerDigest?
    /// The lock over ``lockedState``, in the session's own allocation as the state is.
    private let lock = InlineLock()
    /// The session's state: reached only through ``withState(_:)``.
    @exclusivity(unchecked) private nonisolated(unsafe) var lockedState: State

    // The fields are in the order that packs them tightest (70 bytes).
    struct State: Sendable {
        /// When the session last became idle (set under the relay's lock over its idle queue).
        var lastActivity: Duration
        /// Counts the session's turns from idle to busy and to released, so that a deadline that
        /// found it idle ends it only if it still is.
        var idleGeneration: UInt64 = 0
        /// The events that reached the flow, with their answers, for a snapshot (spec W6).
        var steps = KeptSteps()
        var notes: [TranscriptEntry] = []
        /// Why the relay itself ended the flow (a failed or late merchant validation, idleness).
        var relayEnd: (reason: String, message: String)? {
            get { relayEndBox?.value }
            set { relayEndBox = newValue.map { RelayEndBox(value: $0, cancelAfter: relayEndBox?.cancelAfter) } }
        }
        /// The sequence number of the relay's `relay.end` note, once the flow took the cancel
        /// that followed it: that cancel is the relay's, not the customer's (spec E8). Only a
        /// flow the relay ended has one.
        var relayCancelAfter: UInt64? {
            get { relayEndBox?.cancelAfter }
            set { relayEndBox = relayEndBox.map { RelayEndBox(value: $0.value, cancelAfter: newValue) } }
        }
        /// ``relayEnd`` and ``relayCancelAfter``, boxed: few sessions have them, and two strings
        /// and a sequence number inline would take 41 bytes of every session's state.
        var relayEndBox: RelayEndBox?
        /// The events the session has taken, `cancel` aside (spec W10).
        var eventsTaken = 0
        /// What the session owes an answer to (spec W4); nil between events.
        var busy: Busy?
        var validated = false
        var authorizationAttempted = false
        /// The relay has let go of the session.
        var released = false
        /// The browser API of the session's page, from its first event of one (spec W10).
        var wire: RelayEventType.Wire?
        /// A `paymentresponse` reached the merchant: the page may send `payerdetailchange`
        /// (spec W7).
        var responded = false
    }

    /// What a busy session owes an answer to.
    enum Busy: Sendable {
        /// The merchant's answer to an event.
        case event(RelayEventType)
        /// The session is being written out (``WebRelay/suspending``).
        case suspending

        /// The callback whose answer is owed, as a refusal names it.
        var callback: String {
            switch self {
            case .event(let type): type.callback
            case .suspending: WebRelay.suspending
            }
        }
    }

    /// Why the relay itself ended a session's flow, and where its cancel is in the transcript, in
    /// a box of their own (``State/relayEndBox``).
    final class RelayEndBox: Sendable {
        let value: (reason: String, message: String)
        let cancelAfter: UInt64?

        init(value: (reason: String, message: String), cancelAfter: UInt64?) {
            self.value = value
            self.cancelAfter = cancelAfter
        }
    }

    /// A session with a new flow, presented.
    ///
    /// - Parameter resuming: given the session's delegate, the ``ReplayScript`` a resume replays a
    ///   snapshot through (spec W6). The session does not keep its delegate: only the flow holds
    ///   it, until its terminal call (spec E5).
    init(
        id: String, request: PaymentRequest, merchant: RelayMerchant, owner: CallerDigest?, options: RelayOptions,
        resuming: (ReplayScript) -> Void = { _ in }
    ) throws {
        self.id = id
        self.owner = owner
        let onViolation = options.onViolation
        let flowOptions = FlowOptions(
            callbackTimeout: options.callbackTimeout,
            clock: options.clock,
            recordsTranscript: options.recordsTranscript,
            onViolation: onViolation.map { report in { @Sendable violation in report(id, violation) } }
        )
        let validator = merchant.validator.map { MerchantValidator(validating: $0, sessionID: id) }
        self.validator = validator
        switch merchant.delegate {
        case .authorization(let delegate):
            let relayed = RelayAuthorizationDelegate(
                merchant: .completions(delegate), validator: validator)
            resuming(relayed)
            expressCheckoutPaymentMethod = nil
            flow = .authorization(
                try PaymentAuthorizationFlow(request: request, delegate: relayed, options: flowOptions))
        case .asyncAuthorization(let delegate):
            let relayed = RelayAuthorizationDelegate(merchant: .async(delegate), validator: validator)
            resuming(relayed)
            expressCheckoutPaymentMethod = nil
            flow = .authorization(
                try PaymentAuthorizationFlow(request: request, delegate: relayed, options: flowOptions))
        case .payContext(let delegate, let backend):
            let slot = ExpressCheckoutPaymentMethodSlot()
            expressCheckoutPaymentMethod = slot
            let relayed = RelayPayContextDelegate(
                merchant: .completions(delegate), validator: validator)
            resuming(relayed)
            flow = .payContext(
                try PayContext(
                    request: request,
                    backend: ExpressCheckoutRelayBackend(base: backend, slot: slot),
                    delegate: relayed, options: flowOptions))
        case .asyncPayContext(let delegate, let backend):
            let slot = ExpressCheckoutPaymentMethodSlot()
            expressCheckoutPaymentMethod = slot
            let relayed = RelayPayContextDelegate(merchant: .async(delegate), validator: validator)
            resuming(relayed)
            flow = .payContext(
                try PayContext(
                    request: request,
                    backend: ExpressCheckoutRelayBackend(base: backend, slot: slot),
                    delegate: relayed, options: flowOptions))
        }
        lockedState = State(lastActivity: options.clock.now)
        _ = flow.present()
    }

    /// Runs `body` with exclusive access to the session's state. Never call a delegate, a
    /// completion or the flow inside: the lock is not re-entrant.
    @inline(__always)
    func withState<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try lock.withLocked { try body(&lockedState) }
    }

    /// Whether an event of `caller` is this session's: the same caller that opened it, or none
    /// for a session opened without one.
    func isOwned(by caller: CallerDigest?) -> Bool {
        guard let owner else { return caller == nil }
        return owner.matches(caller)
    }

    // MARK: What the server may read

    /// The session's record: the flow's transcript (spec E8) with the relay's own entries merged
    /// in order. The relay's entries are named `relay.…`: merchant validation (asked and answered,
    /// never its contents, spec W5), events the relay refused before they reached the flow (spec
    /// W4), and why the relay ended the flow (a failed or late validation, idleness).
    public var transcript: Transcript {
        let (notes, relayCancelAfter) = withState { ($0.notes, $0.relayCancelAfter) }
        var own = flow.transcript
        // Spec E8: the flow records every cancel as the customer's; the one the relay sent when
        // it ended the flow itself is the flow's side acting.
        if let relayCancelAfter,
            let index = own.entries.firstIndex(where: {
                guard $0.sequence > relayCancelAfter, case .action("cancel", _) = $0.event else { return false }
                return true
            })
        {
            own.entries[index].actor = .flow
        }
        return Transcript.merged([own, Transcript(entries: notes)])
    }

    /// The flow's own transcript, without the relay's entries.
    public var flowTranscript: Transcript { flow.transcript }

    /// The authorization sheet: the session's flow, or the pay context's sheet.
    public var authorizationFlow: PaymentAuthorizationFlow { flow.sheet }

    /// The pay context, for a Stripe merchant's session.
    public var payContext: PayContext? {
        if case .payContext(let context) = flow { return context }
        return nil
    }

    /// How the flow ended (`success`, `cancelled`, `timedOut`, `failed(…)`, or the pay context's
    /// outcome), once it has.
    public var outcome: String? { flow.outcome }

    /// Whether the flow has ended.
    public var isEnded: Bool { flow.isEnded }

    /// Whether the merchant's answer to an event is outstanding.
    public var isBusy: Bool { withState { $0.busy != nil } }

    /// Whether the merchant validation answered with a merchant session.
    public var isMerchantValidated: Bool { withState { $0.validated } }

    // MARK: Notes

    /// Records one of the relay's own entries in the session's transcript; returns it.
    @discardableResult
    func note(_ event: TranscriptEvent, actor: TranscriptActor? = nil) -> TranscriptEntry {
        let entry = TranscriptEntry(time: clock.now, event: event, actor: actor)
        withState { $0.notes.append(entry) }
        return entry
    }

    /// The relay ends the flow itself, saying why in the transcript.
    func end(reason: String, message: String) async {
        withState { $0.relayEnd = (reason, message) }
        let noted = note(.action("relay.end", [.text("\(reason): \(message)")]), actor: .flow)
        if flow.cancel().isAccepted { withState { $0.relayCancelAfter = noted.sequence } }
        await flow.waitUntilEnded()
    }

    // MARK: Driving the flow

    /// What the flow answered to an event: the merchant's answer, as the authorization flow takes it.
    typealias Driven = PaymentAuthorizationAnswer

    /// Spec W1, W2: members the page sent that the flow's models have no place for are not lost in
    /// silence: the session's transcript names them (their paths, not their values).
    func noteNotPassedOn(_ member: String, _ paths: [String]) {
        guard !paths.isEmpty else { return }
        let named = paths.map { "\(member).\($0)" }.joined(separator: ", ")
        note(.action("relay.notPassedOn", [.text("the flow's models have no place for \(named)")]), actor: .flow)
    }

    /// An event member that cannot be read as the flow's model.
    struct InvalidEvent: Error {
        var error: CheckoutError
        var member: String

        var refusal: RelayRefusal {
            let field = error.field.map { "\(member).\($0)" } ?? member
            return RelayRefusal(reason: RelayError.Code.invalidEvent.rawValue, message: error.message, fields: [field])
        }
    }

    func read<T>(_ member: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CheckoutError {
            throw InvalidEvent(error: error, member: member)
        }
    }

    /// Spec W10: a page is an ApplePaySession's, a PaymentRequest's, a Google PaymentsClient's or
    /// an Express Checkout Element's, never two of them: the first event of one names the
    /// session's, and an event of another is refused.
    func claimWire(for type: RelayEventType) throws {
        guard let wire = type.wire else { return }
        let spoken: RelayEventType.Wire? = withState { state in
            if let spoken = state.wire, spoken != wire { return spoken }
            state.wire = wire
            return nil
        }
        if let spoken {
            throw Refusal(
                code: .notAllowedInThisStep,
                message: "\(type.rawValue) is a \(wire.rawValue) event; this session's page is a \(spoken.rawValue)'s")
        }
    }

    /// Gives the event to the flow and waits for the merchant's answer (live or replayed).
    ///
    /// - Throws: ``InvalidEvent``, the flow's ``/CheckoutFlows/Refusal``, or
    ///   ``/CheckoutFlows/CallbackEnded``.
    func drive(_ payload: RelayEvent.Payload) async throws -> Driven {
        try claimWire(for: payload.type)
        switch payload {
        case .shippingContactSelected(let wire):
            // Apple Pay gives the contact redacted (spec A2): its postal code is already cut to
            // what Apple shows (`SW1A`, `K1A`, five digits), not a full code to check.
            var contact = try read("shippingContact") { try wire.core() }
            contact.isRedacted = true
            noteNotPassedOn("shippingContact", wire.membersWithoutCoreCounterpart)
            return .shippingContact(try await flow.selectShippingContact(contact))
        case .shippingAddressChange(let wire):
            let contact = try read("shippingAddress") { try wire.core() }
            return .shippingContact(try await flow.selectShippingContact(contact))
        case .shippingMethodSelected(let wire):
            return .shippingMethod(try await flow.selectShippingMethod(wire.identifier))
        case .shippingOptionChange(let identifier):
            return .shippingMethod(try await flow.selectShippingMethod(identifier))
        case .paymentMethodSelected(let wire):
            noteNotPassedOn("paymentMethod", wire.membersWithoutCoreCounterpart)
            return .paymentMethod(try await flow.selectPaymentMethod(wire.core()))
        case .paymentMethodChange(let name, let details):
            let method = try read("methodDetails") { try Self.paymentMethod(methodName: name, details: details) }
            return .paymentMethod(try await flow.selectPaymentMethod(method))
        case .couponCodeChanged(let code):
            return .couponCode(try await flow.changeCouponCode(code))
        case .paymentAuthorized(let wire):
            let payment = try read("payment") { try wire.core() }
            noteNotPassedOn(
                "payment",
                wire.membersWithoutCoreCounterpart
                    + (wire.shippingContact?.membersWithoutCoreCounterpart ?? []).map { "shippingContact.\($0)" }
                    + (wire.billingContact?.membersWithoutCoreCounterpart ?? []).map { "billingContact.\($0)" })
            return try await authorize(
                payment.token, billingContact: payment.billingContact, shippingContact: payment.shippingContact)
        case .paymentResponse(let response):
            // Spec W7: the response's full address, selected option and payer details.
            let authorization = try read("response") {
                try ResponseAuthorization(response, request: request, sheet: flow.sheet.sheet)
            }
            noteNotPassedOn("response.shippingAddress", response.shippingAddress?.membersWithoutCoreCounterpart ?? [])
            let answer = try await authorize(
                authorization.token, billingContact: authorization.billingContact,
                shippingContact: authorization.shippingContact)
            withState { $0.responded = true }
            return answer
        case .payerDetailChange(let name, let email, let phone):
            // Spec W7, W10: a browser fires it only on a response the page retried.
            guard withState({ $0.responded }) else {
                throw Refusal(
                    code: .notAllowedInThisStep,
                    message: "payerdetailchange comes only after a paymentresponse the page retried")
            }
            // Spec W7: the contact selected before, with the payer's new details, as a selection.
            var contact = flow.sheet.sheet?.shippingContact ?? Contact()
            contact.isRedacted = false
            // An empty string is absent, as browsers send `""` for what they do not have.
            if let name { contact.name = name.isEmpty ? nil : name }
            if let email { contact.emailAddress = email.isEmpty ? nil : email }
            if let phone { contact.phoneNumber = phone.isEmpty ? nil : phone }
            return .shippingContact(try await flow.selectShippingContact(contact))
        case .validateMerchant(let text):
            // Checked by the relay before (an https URL of an Apple Pay gateway).
            let url = try read("validationURL") {
                guard let url = URL(string: text) else {
                    throw CheckoutError(code: .invalidField, message: "not a URL", field: "validationURL")
                }
                return url
            }
            return .merchantSession(try await flow.requestMerchantSession(MerchantSessionRequest(validationURL: url)))
        case .cancel:
            preconditionFailure("the relay handles \(payload.type.rawValue) itself")
        // Express Checkout Element
        case .expressCheckoutShippingAddressChange(let event):
            return .shippingContact(try await flow.selectShippingContact(try read("event") { try event.core() }))
        case .expressCheckoutShippingRateChange(let event):
            return .shippingMethod(try await flow.selectShippingMethod(event.shippingRate.id))
        case .expressCheckoutConfirm(let event, let paymentMethod):
            let (token, billing, shipping) = try expressCheckoutAuthorization(event, paymentMethod: paymentMethod)
            return try await authorize(token, billingContact: billing, shippingContact: shipping)
        case .expressCheckoutClick:
            preconditionFailure("the relay answers \(payload.type.rawValue) itself")
        // Google Pay
        case .googlePayPaymentDataChanged:
            preconditionFailure("a Google Pay change may lead to several callbacks: driveGooglePayChange drives it")
        case .googlePayPaymentAuthorized(let wire):
            let payment = try read("paymentData") { try wire.core(transactionIdentifier: id) }
            noteNotPassedOn("paymentData", wire.membersWithoutCoreCounterpart)
            return try await authorize(
                payment.token, billingContact: payment.billingContact, shippingContact: payment.shippingContact)
        }
    }

    /// Authorizes and records that an authorization was tried (a pay context's backend may have
    /// been called), unless the flow refused it.
    func authorize(_ token: PaymentToken, billingContact: Contact?, shippingContact: Contact?) async throws
        -> Driven
    {
        do {
            let result = try await flow.authorize(
                token, billingContact: billingContact, shippingContact: shippingContact)
            withState { $0.authorizationAttempted = true }
            return .authorization(result)
        } catch let refusal as Refusal {
            throw refusal  // refused: nothing reached the backend
        } catch {
            withState { $0.authorizationAttempted = true }
            throw error
        }
    }

    /// A W3C `paymentmethodchange`'s method: Apple Pay's details read as an
    /// `ApplePayPaymentMethod`, any other method as an unknown card.
    static func paymentMethod(methodName: String, details: JSONValue?) throws -> PaymentMethod {
        guard let details, case .object = details else {
            return PaymentMethod(displayName: nil, network: nil, type: .unknown)
        }
        do {
            let data = try JSONEncoder().encode(details)
            return try JSONDecoder().decode(ApplePayPaymentMethod.self, from: data).core()
        } catch {
            throw CheckoutError(
                code: .invalidField,
                message: "the \(methodName.debugDescription) details are not an ApplePayPaymentMethod: \(error)",
                field: nil)
        }
    }

    /// What a snapshot keeps of an answer.
    func recorded(_ driven: Driven) -> RecordedAnswer {
        // The outline: the calls and completions without the answers rendered, all this reads.
        RecordedAnswer(driven) { Self.lastWillAuthorizeWasDefault(flow.sheet.outline) }
    }

    private static func lastWillAuthorizeWasDefault(_ transcript: Transcript) -> Bool {
        let willAuthorize = DelegateMethod.willAuthorizePayment.name
        for entry in transcript.entries.reversed() {
            switch entry.event {
            case .completion(let method, _, _, let byDefault) where method == willAuthorize: return byDefault
            case .call(let method, _, _) where method == willAuthorize: return false
            default: continue
            }
        }
        return false
    }

    /// What the page passes to the event's `complete…` method.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` when the answer has no wire form (an error code
    ///   Apple Pay does not have).
    func completion(for driven: Driven, of type: RelayEventType) throws -> RelayCompletion {
        // Express Checkout Element
        if type.wire == .expressCheckout { return try expressCheckoutCompletion(for: driven) }
        // Google Pay
        if type == .googlePayPaymentAuthorized, case .authorization(let result) = driven {
            return .googlePayPaymentAuthorized(try Self.googlePayResult(result))
        }
        let w3c = type.completionMethod == "updateWith"
        switch driven {
        case .shippingContact(let update):
            return w3c
                ? .updateWith(
                    try PaymentDetailsUpdate(
                        update, selectedShippingOptionID: flow.sheet.sheet?.selectedShippingMethodID))
                : .shippingContactSelection(try ApplePayShippingContactUpdate(update))
        case .shippingMethod(let update):
            return w3c
                ? .updateWith(try PaymentDetailsUpdate(update))
                : .shippingMethodSelection(try ApplePayShippingMethodUpdate(update))
        case .paymentMethod(let update):
            return w3c
                ? .updateWith(try PaymentDetailsUpdate(update))
                : .paymentMethodSelection(try ApplePayPaymentMethodUpdate(update))
        case .couponCode(let update):
            return .couponCodeChange(try ApplePayCouponCodeUpdate(update))
        case .authorization(let result):
            return .payment(try ApplePayPaymentAuthorizationResult(result))
        case .merchantSession(let update):
            // The session as Apple's server gave it, unchanged (spec W5).
            let json = Data((update.merchantSession?.json ?? "null").utf8)
            return .merchantValidation(try JSONDecoder().decode(JSONValue.self, from: json))
        }
    }

    /// Spec W7: what the page does with the `PaymentResponse` after the merchant's result:
    /// `complete("success")` for a success; `retry(…)` with the errors the sheet now shows (the
    /// merchant's, and those its status implies, such as `invalidShippingPostalAddress`'s) while
    /// the sheet stays open (A7); `complete("fail")` when the flow has ended (a PIN lockout, a pay
    /// context's error) or the merchant declined with nothing to fix, in which case the relay ends
    /// the flow, as the browser's sheet closes.
    func responseCompletion(to result: PaymentAuthorizationResult) async -> RelayCompletion {
        if result.status == .success { return .paymentComplete(.success) }
        // A pay context decides after the result whether its sheet stays (spec P4).
        if case .payContext(let context) = flow { await context.waitUntilIdle() }
        guard !flow.isEnded, flow.sheet.outcome == nil, let sheet = flow.sheet.sheet else {
            return .paymentComplete(.fail)
        }
        let errors = PaymentValidationErrors(sheet.shownErrors)
        if !errors.isEmpty { return .retry(errors) }
        await end(
            reason: "paymentDeclined",
            message: "the merchant answered \(result.status) with nothing for the payer to fix: complete(\"fail\")")
        return .paymentComplete(.fail)
    }

    /// How the flow ended, for the page, once its terminal call has returned.
    func endOfFlow(afterPageCancel: Bool) async -> RelayEnd {
        await flow.waitUntilEnded()
        let outcome = flow.outcome ?? "ended"
        let relayEnd = withState { $0.relayEnd }
        if let relayEnd {
            return RelayEnd(
                outcome: outcome, reason: relayEnd.reason, message: relayEnd.message, abort: !afterPageCancel)
        }
        if case .payContext(let context) = flow, let ended = context.outcome, ended.status == .error {
            return RelayEnd(
                outcome: outcome, reason: "paymentFailed",
                message: ended.error.map { "\($0)" } ?? "the payment failed", abort: !afterPageCancel)
        }
        let sheetOutcome: PaymentAuthorizationOutcome? =
            if case .ended(let ended) = flow.sheet.step { ended } else { nil }
        switch sheetOutcome {
        case .timedOut:
            let detail = flow.sheet.violations.last { $0.kind == .completionTimedOut }
            return RelayEnd(
                outcome: outcome, reason: Violation.Kind.completionTimedOut.rawValue,
                message: detail.map { "\($0.callback): \($0.detail)" } ?? "the merchant did not answer in time",
                abort: !afterPageCancel)
        case .failed(.violation(let violation)):
            return RelayEnd(
                outcome: outcome, reason: violation.kind.rawValue,
                message: "\(violation.callback): \(violation.detail); the browser would reject this update, "
                    + "so it was not sent",
                abort: !afterPageCancel)
        case .failed(.pinLockout):
            return RelayEnd(
                outcome: outcome, reason: "pinLockout", message: "the merchant answered pinLockout", abort: true)
        case .failed(.merchantValidation):
            return RelayEnd(
                outcome: outcome, reason: "merchantValidationFailed", message: "the merchant got no merchant session",
                abort: true)
        case .cancelled:
            return RelayEnd(outcome: outcome, message: "the customer cancelled", abort: false)
        case .success, nil:
            return RelayEnd(outcome: outcome, message: "the payment is over", abort: false)
        }
    }
}
