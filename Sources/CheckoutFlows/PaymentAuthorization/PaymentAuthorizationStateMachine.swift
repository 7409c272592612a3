import CheckoutCore

/// The payment-authorization flow as a pure state machine (spec A1-A9 on the rules E1-E9): no
/// lock, no delegate, no clock. Each event returns what the shell must do.
///
/// Invalid transitions: a driver action that does not fit the state is refused with a typed
/// reason; a completion or deadline for a callback that is no longer outstanding is a benign race
/// and is recorded as a violation (or ignored, for a stale timer), never trapped.
@usableFromInline
package struct PaymentAuthorizationStateMachine: FlowMachine {
    @usableFromInline package typealias Answer = PaymentAuthorizationAnswer

    private enum State {
        case notPresented
        /// The sheet (``shown``) waits for the customer.
        case sheet
        /// The sheet (``shown``) waits for the merchant's answer to this callback.
        case awaiting(Outstanding<Callback>)
        indirect case ended(PaymentAuthorizationOutcome)
    }

    package let request: PaymentRequest
    @usableFromInline package var ledger: CallbackLedger<Answer>
    @usableFromInline package internal(set) var log: FlowLog
    private var state = State.notPresented
    /// The sheet, shown in the states `sheet` and `awaiting` (``sheet`` is nil in the others). It
    /// is kept beside the state and not optional, so that each event reads and updates it in
    /// place: a sheet inside a state case, or an optional one, is copied whole through its value
    /// witnesses to read a field (measured: BENCHMARKS.md).
    private var shown = PaymentSheet.hidden
    /// Whether `didAuthorizePayment` has a deadline of its own. The pay context times the whole
    /// authorization itself (spec P5) and turns it off. (Last: the runner's flags fill the rest of
    /// its word.)
    private let authorizationIsTimed: Bool

    package init(request: PaymentRequest, options: FlowOptions, authorizationIsTimed: Bool = true) {
        self.request = request
        self.authorizationIsTimed = authorizationIsTimed
        self.ledger = CallbackLedger(timeout: options.callbackTimeout)
        self.log = FlowLog(recordsTranscript: options.recordsTranscript)
    }

    // MARK: Queries

    @usableFromInline package var pending: (id: UInt64, deadline: FlowInstant?)? {
        guard let id = pendingID else { return nil }
        return (id, ledger.deadline(of: id))
    }

    /// The outstanding callback's id: the callback the ledger opened last, while the state awaits
    /// (read without copying the state's payload).
    private var pendingID: UInt64? {
        if case .awaiting = state { return ledger.lastOpenedID }
        return nil
    }

    /// The outstanding callback's delegate method ("" when none is outstanding).
    private var pendingMethod: String {
        if case .awaiting(let outstanding) = state { return outstanding.method }
        return ""
    }

    @usableFromInline package var isEnded: Bool {
        if case .ended = state { return true }
        return false
    }

    package var outcome: PaymentAuthorizationOutcome? {
        if case .ended(let outcome) = state { return outcome }
        return nil
    }

    package var sheet: PaymentSheet? {
        switch state {
        case .sheet, .awaiting: shown
        case .notPresented, .ended: nil
        }
    }

    package var step: PaymentAuthorizationStep {
        switch state {
        case .notPresented: .notPresented
        case .sheet: .sheet
        case .awaiting(let outstanding): .awaiting(outstanding.method)
        case .ended(let outcome): .ended(outcome)
        }
    }

    /// Gives back the transcript's unused room: its records, cards and the merchant's answers
    /// packed (``FlowLog/compact(packingAnswersOf:)``).
    package mutating func compactTranscript() { log.compact(packingAnswersOf: PaymentAuthorizationAnswer.self) }

    // MARK: Driver events

    /// Spec A1: shows the sheet with the first shipping method selected. (The request was
    /// validated when the flow was made.)
    package mutating func present(at now: FlowInstant) -> Effect<Call> {
        switch state {
        case .notPresented: break
        case .ended: return log.refuse("present", .finished, at: now)
        case .sheet, .awaiting: return log.refuse("present", .alreadyPresented, at: now)
        }
        log.record(.action("present", []), at: now)
        shown = PaymentSheet(
            summaryItems: request.summaryItems,
            shippingMethods: request.shippingMethods,
            selectedShippingMethodID: request.shippingMethods.first?.identifier,
            couponCode: request.couponCode,
            terms: request.terms
        )
        state = .sheet
        return .none
    }

    /// Spec A2: the delegate sees the contact redacted.
    package mutating func selectShippingContact(_ contact: Contact, at now: FlowInstant) -> Effect<Call> {
        let action = "selectShippingContact"
        if let refused = refusal(action, at: now, allowedWhileAwaitingPIN: false) { return refused }
        let required = request.requiredShippingContactFields
        if !contact.presentFieldsAreValid(required: required) {
            let problems = contact.validate(required: required).filter { $0.code != .missingField }
            return log.refuse(action, .invalid(problems, under: "shippingContact"), at: now)
        }
        log.record(action: action, .contact(contact), at: now)
        let redacted = contact.redactedForShipping()
        return open(.shippingContact(contact), .didSelectShippingContact, .redacted(contact), at: now) {
            .didSelectShippingContact(redacted, id: $0)
        }
    }

    /// Spec A3.
    package mutating func selectShippingMethod(_ identifier: String, at now: FlowInstant) -> Effect<Call> {
        let action = "selectShippingMethod"
        if let refused = refusal(action, at: now, allowedWhileAwaitingPIN: false) { return refused }
        let methods = shown.shippingMethods
        guard let index = Self.index(of: identifier, in: methods) else {
            return unknownShippingMethod(identifier, action, at: now)
        }
        log.record(action: action, .text(identifier), at: now)
        return open(.shippingMethod(identifier), .didSelectShippingMethod, .value(.text(identifier)), at: now) {
            .didSelectShippingMethod(in: methods, at: index, id: $0)
        }
    }

    /// The refusal of a method the sheet does not list (spec A3), out of line.
    @inline(never)
    private mutating func unknownShippingMethod(_ identifier: String, _ action: String, at now: FlowInstant) -> Effect<
        Call
    > {
        let refusal = Refusal(
            code: .unknownShippingMethod,
            message: "no shipping method has the identifier \(identifier.quotedForMessage)",
            fields: ["shippingMethod"]
        )
        return log.refuse(action, refusal, at: now)
    }

    /// Spec A4.
    package mutating func selectPaymentMethod(_ method: PaymentMethod, at now: FlowInstant) -> Effect<Call> {
        let action = "selectPaymentMethod"
        if let refused = refusal(action, at: now, allowedWhileAwaitingPIN: false) { return refused }
        log.record(action: action, deferred: .paymentMethod(method), at: now)
        return open(.paymentMethod(method), .didSelectPaymentMethod, .deferred(.paymentMethod(method)), at: now) {
            .didSelectPaymentMethod(method, id: $0)
        }
    }

    /// Spec A5.
    package mutating func changeCouponCode(_ code: String, at now: FlowInstant) -> Effect<Call> {
        let action = "changeCouponCode"
        if let refused = refusal(action, at: now, allowedWhileAwaitingPIN: false) { return refused }
        guard request.supportsCouponCode else {
            let refusal = Refusal(
                code: .couponCodesNotSupported, message: "the request does not support coupon codes")
            return log.refuse(action, refusal, at: now)
        }
        log.record(action: action, .text(code), at: now)
        return open(.couponCode(code), .didChangeCouponCode, .value(.text(code)), at: now) {
            .didChangeCouponCode(code, id: $0)
        }
    }

    /// Spec A6: refused while an error blocks or a required field is missing; otherwise
    /// `willAuthorizePayment`, then `didAuthorizePayment` with the full contacts limited to the
    /// requested fields and the selected shipping method.
    package mutating func authorize(
        _ token: PaymentToken, billingContact: Contact?, shippingContact revealed: Contact? = nil, at now: FlowInstant
    ) -> Effect<Call> {
        let action = "authorize"
        if let refused = refusal(action, at: now, allowedWhileAwaitingPIN: true) { return refused }
        let sheet = shown
        if let blocking = sheet.shippingContactErrors.first ?? sheet.paymentMethodErrors.first {
            let refusal = Refusal(
                code: .blockedByError,
                message: "authorization is blocked by \(blocking)",
                blockingError: blocking
            )
            return log.refuse(action, refusal, at: now)
        }
        let shippingRequired = request.requiredShippingContactFields
        let billingRequired = request.requiredBillingContactFields
        if let revealed {
            // Apple Pay on the web: the full contact of the one selected redacted.
            if !revealed.presentFieldsAreValid(required: shippingRequired) {
                let problems = revealed.validate(required: shippingRequired).filter { $0.code != .missingField }
                return log.refuse(action, .invalid(problems, under: "shippingContact"), at: now)
            }
            // A contact without an address (the payer's name, email, phone) needs no selection:
            // the merchant prices addresses, and there is none here to have priced.
            guard let selected = sheet.shippingContact ?? (revealed.postalAddress == nil ? Contact() : nil) else {
                // The merchant never priced this address: the sheet reveals only what was selected.
                let refusal = Refusal(
                    code: .invalidField,
                    message: "the payment's shipping contact was never selected (selectShippingContact first)",
                    fields: ["shippingContact"]
                )
                return log.refuse(action, refusal, at: now)
            }
            if selected.redactedForShipping() != revealed.redactedForShipping() {
                let refusal = Refusal(
                    code: .invalidField,
                    message: "the payment's shipping contact is not the contact selected "
                        + "(\(revealed.redactedForShipping()) against \(selected.redactedForShipping()))",
                    fields: ["shippingContact"]
                )
                return log.refuse(action, refusal, at: now)
            }
        }
        let shippingContact = revealed ?? sheet.shippingContact
        if !Self.hasFields(shippingContact, shippingRequired) || !Self.hasFields(billingContact, billingRequired) {
            let missing =
                Self.missing(shippingContact, shippingRequired, "shippingContact")
                + Self.missing(billingContact, billingRequired, "billingContact")
            return log.refuse(action, .missing(missing), at: now)
        }
        if let billingContact, !billingContact.presentFieldsAreValid(required: billingRequired) {
            let problems = billingContact.validate(required: billingRequired).filter { $0.code != .missingField }
            return log.refuse(action, .invalid(problems, under: "billingContact"), at: now)
        }
        let payment = Payment(
            token: token,
            billingContact: billingContact?.limited(to: billingRequired),
            shippingContact: shippingContact?.limited(to: shippingRequired),
            shippingMethod: sheet.selectedShippingMethod
        )
        log.record(
            action: sheet.isAwaitingPIN ? "authorize (PIN re-entry)" : action, deferred: .token(token), at: now)
        log.record(.call(DelegateMethod.willAuthorizePayment.name, callbackID: nil, []), at: now)
        return open(.authorization(payment), .didAuthorizePayment, .value(.payment(payment)), at: now) {
            .authorize(payment, id: $0)
        }
    }

    /// Spec A9: the merchant does not implement `willAuthorizePayment`; its default ran, inside the
    /// notification of the authorization now awaited. The notification's entry says so, marked as
    /// a default answer like the optional callbacks' (`completion willAuthorizePayment #id [default
    /// answer] → not implemented`), and is no longer a delegate call (``Transcript/delegateCalls``):
    /// the merchant's code received none. Changes nothing else. Benign race: when the flow has
    /// already ended (a cancel from another thread during the notification), the entry stays a
    /// call.
    package mutating func willAuthorizePaymentNotImplemented(at now: FlowInstant) -> Effect<Call> {
        guard case .awaiting(let outstanding) = state, case .authorization = outstanding.callback else { return .none }
        let method = DelegateMethod.willAuthorizePayment.name
        log.amendLastCall(
            method,
            to: .completion(
                method, callbackID: outstanding.id, [.text("not implemented")], byDefault: true)
        )
        return .none
    }

    /// Spec E3, A8: cancel in every presented state, also while a callback is outstanding.
    package mutating func cancel(at now: FlowInstant) -> Effect<Call> {
        switch state {
        case .notPresented: return log.refuse("cancel", .notPresented, at: now)
        case .ended: return log.refuse("cancel", .finished, at: now)
        case .sheet, .awaiting:
            log.record(.action("cancel", []), at: now)
            return end(.cancelled, at: now)
        }
    }

    // MARK: Delegate events

    /// The merchant answered callback `id`; `first` is false for a repeated call of the same
    /// completion.
    ///
    /// Inlined into the engine's event: what is rare (an answer not taken, an invalid update, the
    /// authorization's result) is out of line, so that the common answer, a sheet update taken,
    /// costs only its checks and its application.
    ///
    /// The answer is the machine's: a sheet update taken is recorded last, moved into the
    /// transcript rather than copied; an answer that leads to more records (a violation, an
    /// outcome) is recorded before them (``answeredOtherwise(_:_:at:)``).
    @inline(__always)
    package mutating func answer(_ id: UInt64, first: Bool, _ answer: consuming Answer, at now: FlowInstant)
        -> Effect<Call>
    {
        guard case .inTime = ledger.admit(id, first: first, outstanding: pendingID, at: now) else {
            return notTaken(id, first: first, answer, at: now)
        }
        if ledger.keepsResolutions {
            let resolution = Resolution.answered(copy answer)
            ledger.resolve(id, resolution)
        }
        // Spec E7: every update is validated against the request; an invalid one ends the flow.
        // Asked once an answer (without copying the terms out: nearly every answer sets none).
        let setsTerms = answer.setsTerms
        guard answer.fits(request), shown.admitsTerms(of: answer, setsTerms: setsTerms, in: request),
            answer.updatesSheet
        else {
            return answeredOtherwise(id, answer, at: now)
        }
        // The sheet waits for the customer again; the callback is moved out of the state (not
        // copied) to apply the update to the sheet.
        var closed = State.sheet
        swap(&closed, &state)
        guard case .awaiting(let outstanding) = consume closed else {
            preconditionFailure("callback #\(id) is outstanding")
        }
        shown.apply(answer, setsTerms: setsTerms, to: outstanding.callback)
        if log.recordsTranscript {
            let byDefault = answer.isDefaultAnswer
            log.recordCompletion(
                outstanding.method, callbackID: id, answer: consume answer, byDefault: byDefault, at: now)
        }
        return .none
    }

    /// An answer in time that does more than update the sheet: an invalid update, the
    /// authorization's result, the merchant session. Its completion is recorded first.
    @inline(never)
    private mutating func answeredOtherwise(_ id: UInt64, _ answer: Answer, at now: FlowInstant) -> Effect<Call> {
        if log.recordsTranscript {
            log.recordCompletion(
                pendingMethod, callbackID: id, answer: answer, byDefault: answer.isDefaultAnswer, at: now)
        }
        let setsTerms = answer.setsTerms
        guard answer.fits(request), shown.admitsTerms(of: answer, setsTerms: setsTerms, in: request) else {
            return invalidUpdate(id, answer, at: now)
        }
        return answeredOutsideTheSheet(answer, at: now)
    }

    /// An answer that does not take effect (spec E2, E4): repeated, late, or past its deadline.
    @inline(never)
    private mutating func notTaken(_ id: UInt64, first: Bool, _ answer: Answer, at now: FlowInstant) -> Effect<Call> {
        switch ledger.admit(id, first: first, outstanding: pendingID, at: now) {
        case .inTime:
            preconditionFailure("an answer in time is taken")
        case .repeated:
            return log.violated(
                .completionCalledTwice, answer.method.name, id: id, at: now, "answered \(answer) again")
        case .late:
            return log.violated(
                .lateCompletion, answer.method.name, id: id, at: now,
                "answered \(answer) after the callback ended")
        case .pastDeadline:
            // The deadline ends the flow (spec E4): its didFinish must not be lost.
            let method = pendingMethod
            let timedOut = deadlinePassed(id, at: now)
            let late: Effect<Call> = log.violated(
                .lateCompletion, method, id: id, at: now, "answered \(answer) at or after the deadline")
            if case .call = timedOut { return timedOut }
            return late
        }
    }

    /// Spec E7: an update that does not fit the request ends the flow.
    @inline(never)
    private mutating func invalidUpdate(_ id: UInt64, _ answer: Answer, at now: FlowInstant) -> Effect<Call> {
        let problems = shown.problems(of: answer, against: request)
        let violation = log.violation(
            .invalidUpdate,
            pendingMethod,
            id: id,
            at: now,
            problems.map { "\($0.field ?? ""): \($0.message)" }.joined(separator: "; ")
        )
        return end(.failed(.violation(violation)), at: now)
    }

    /// The merchant's authorization result (spec A7).
    @inline(never)
    mutating func authorized(_ result: PaymentAuthorizationResult, at now: FlowInstant) -> Effect<Call> {
        guard case .awaiting(let outstanding) = state, case .authorization(let payment) = outstanding.callback
        else {
            preconditionFailure("an authorization result answers the authorization")
        }
        return applyAuthorization(result, payment, at: now)
    }

    /// The merchant's merchant session (spec W5): the sheet goes on with one, and ends without.
    @inline(never)
    mutating func merchantSessionAnswered(_ update: MerchantSessionUpdate, at now: FlowInstant) -> Effect<Call> {
        guard update.isSuccess else { return end(.failed(.merchantValidation), at: now) }
        state = .sheet
        return .none
    }

    /// Spec E4: the authorization flow ends as PassKit's sheet does when it times out.
    @usableFromInline package mutating func deadlinePassed(_ id: UInt64, at now: FlowInstant) -> Effect<Call> {
        guard pendingID == id, case .awaiting(let outstanding) = state else {
            return .none  // answered or cancelled in time; the timer is stale
        }
        log.violation(
            .completionTimedOut, outstanding.method, id: id, at: now, "no answer by \(now.duration.secondsString)s")
        return end(.timedOut, at: now)
    }

    // MARK: Helpers

    /// Spec A7.
    private mutating func applyAuthorization(
        _ result: PaymentAuthorizationResult,
        _ payment: Payment,
        at now: FlowInstant
    ) -> Effect<Call> {
        var errors = result.errors
        switch result.status {
        case .success:
            return end(.success(payment), at: now)
        case .pinLockout:
            return end(.failed(.pinLockout), at: now)
        case .pinRequired, .pinIncorrect:
            shown.isAwaitingPIN = true
        case .failure:
            shown.isAwaitingPIN = false
        case .invalidShippingPostalAddress:
            shown.isAwaitingPIN = false
            errors.append(.shippingContactInvalid(.postalAddress, "Invalid shipping address"))
        case .invalidShippingContact:
            shown.isAwaitingPIN = false
            errors.append(PaymentError(code: .shippingContactInvalid, message: "Invalid shipping contact"))
        case .invalidBillingPostalAddress:
            shown.isAwaitingPIN = false
            errors.append(.billingContactInvalid(.postalAddress, "Invalid billing address"))
        }
        shown.shippingContactErrors += errors.filter(\.isShippingContactError)
        shown.shownErrors = errors
        state = .sheet
        return .none
    }

    /// Nil when the sheet can take a customer action now; otherwise records the refusal and
    /// returns it.
    @inline(__always)
    mutating func refusal(_ action: String, at now: FlowInstant, allowedWhileAwaitingPIN: Bool)
        -> Effect<Call>?
    {
        // The common case first, without building the refusal.
        if case .sheet = state, !shown.isAwaitingPIN || allowedWhileAwaitingPIN { return nil }
        return refused(action, at: now)
    }

    /// The refusal ``refusal(_:at:allowedWhileAwaitingPIN:)`` records and returns.
    @inline(never)
    private mutating func refused(_ action: String, at now: FlowInstant) -> Effect<Call> {
        let refusal: Refusal
        switch state {
        case .sheet:
            // Refused on the sheet only while it waits for the PIN (``refusal(_:at:allowedWhileAwaitingPIN:)``).
            refusal = .notAllowed(action, "while the sheet waits for the PIN")
        case .awaiting(let outstanding): refusal = .callbackPending(outstanding.method)
        case .notPresented: refusal = .notPresented
        case .ended: refusal = .finished
        }
        return log.refuse(action, refusal, at: now)
    }

    /// The position of the method with `identifier`, compared in place (no method is copied).
    @inline(__always)
    private static func index(of identifier: String, in methods: [ShippingMethod]) -> Int? {
        methods.withUnsafeBufferPointer { methods in
            for index in methods.indices where methods[index].identifier == identifier { return index }
            return nil
        }
    }

    /// What the transcript records as a call's argument.
    enum CallArgument {
        case value(TranscriptValue)
        /// A value described when the transcript is read (``FlowLog/record(call:callbackID:deferred:at:)``).
        /// (Boxed: inline, a card would make every argument, the round trip's included, 24 bytes
        /// larger.)
        indirect case deferred(DeferredTranscriptValue)
        /// The contact the delegate sees redacted, recorded in full and redacted when read
        /// (``FlowLog/record(call:callbackID:redactingForShipping:at:)``).
        case redacted(Contact)
    }

    /// Opens a callback and asks for its delegate call.
    mutating func open(
        _ callback: Callback,
        _ method: DelegateMethod,
        _ argument: @autoclosure () -> CallArgument,
        at now: FlowInstant,
        _ call: (UInt64) -> Call
    ) -> Effect<Call> {
        var timed = true
        if case .authorization = callback { timed = authorizationIsTimed }
        let outstanding = ledger.open(callback, method, timed: timed)
        let id = outstanding.id
        state = .awaiting(outstanding)  // moved in: its last use
        if log.recordsTranscript {
            switch argument() {
            case .value(let value): log.record(call: method.name, callbackID: id, value, at: now)
            case .deferred(let value): log.record(call: method.name, callbackID: id, deferred: value, at: now)
            case .redacted(let contact):
                log.record(call: method.name, callbackID: id, redactingForShipping: contact, at: now)
            }
        }
        return .call(call(id))
    }

    /// Ends the flow with `outcome` and asks for `didFinish` (spec A8, E5).
    private mutating func end(_ outcome: PaymentAuthorizationOutcome, at now: FlowInstant) -> Effect<Call> {
        if ledger.keepsResolutions, case .awaiting(let outstanding) = state {
            ledger.endUnanswered(outstanding.id, outstanding.method, "\(outcome)")
        }
        state = .ended(outcome)
        shown = .hidden
        log.record(.outcome(outcome.description), at: now)
        log.record(.call(DelegateMethod.didFinish.name, callbackID: nil, []), at: now)
        return .call(.didFinish)
    }

    /// Whether ``missing(_:_:_:)`` finds nothing, decided without building a path.
    private static func hasFields(_ contact: Contact?, _ required: Set<ContactField>) -> Bool {
        required.isEmpty || contact?.hasFields(required) == true
    }

    private static func missing(_ contact: Contact?, _ required: Set<ContactField>, _ prefix: String)
        -> [String]
    {
        guard !required.isEmpty else { return [] }
        guard let contact else { return required.sorted().map { "\(prefix).\($0.rawValue)" } }
        return ShippingAddressStateMachine.missingFieldPaths(contact, required: required).map {
            "\(prefix).\($0)"
        }
    }
}
