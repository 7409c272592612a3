import CheckoutCore

/// The payment-authorization flow as a pure state machine (spec A1-A9 on the rules E1-E9): no
/// lock, no delegate, no clock. Each event returns what the shell must do.
///
/// Invalid transitions: a driver action that does not fit the state is refused with a typed
/// reason; a completion or deadline for a callback that is no longer outstanding is a benign race
/// and is recorded as a violation (or ignored, for a stale timer), never trapped.
package struct PaymentAuthorizationStateMachine: FlowMachine {
    package enum Callback: Sendable {
        /// Carries the full contact; the delegate saw it redacted.
        case shippingContact(Contact)
        case shippingMethod(ShippingMethod)
        case paymentMethod(PaymentMethod)
        case couponCode(String)
        case authorization(Payment)
    }

    package enum Call: Sendable {
        case didSelectShippingContact(Contact, id: UInt64)
        case didSelectShippingMethod(ShippingMethod, id: UInt64)
        case didSelectPaymentMethod(PaymentMethod, id: UInt64)
        case didChangeCouponCode(String, id: UInt64)
        /// `willAuthorizePayment`, then `didAuthorizePayment`.
        case authorize(Payment, id: UInt64)
        case didFinish
    }

    package typealias Answer = PaymentAuthorizationAnswer

    private enum State {
        case notPresented
        case sheet(PaymentSheet)
        case awaiting(Outstanding<Callback>, PaymentSheet)
        case ended(PaymentAuthorizationOutcome)
    }

    package let request: PaymentRequest
    private let isStrict: Bool
    private var ledger: CallbackLedger
    package private(set) var log: FlowLog
    private var state = State.notPresented
    private var resolution: (id: UInt64, resolution: Resolution<Answer>)?

    /// Whether `didAuthorizePayment` has a deadline of its own. The pay context times the whole
    /// authorization itself (spec P5) and turns it off.
    private let authorizationIsTimed: Bool

    package init(request: PaymentRequest, options: FlowOptions, authorizationIsTimed: Bool = true) {
        self.request = request
        self.authorizationIsTimed = authorizationIsTimed
        self.isStrict = options.isStrict
        self.ledger = CallbackLedger(timeout: options.callbackTimeout)
        self.log = FlowLog(recordsTranscript: options.recordsTranscript)
    }

    // MARK: Queries

    package var pending: (id: UInt64, deadline: Duration?)? {
        if case .awaiting(let outstanding, _) = state { return (outstanding.id, outstanding.deadline) }
        return nil
    }

    package var isEnded: Bool {
        if case .ended = state { return true }
        return false
    }

    package var outcome: PaymentAuthorizationOutcome? {
        if case .ended(let outcome) = state { return outcome }
        return nil
    }

    package var sheet: PaymentSheet? {
        switch state {
        case .sheet(let sheet), .awaiting(_, let sheet): sheet
        case .notPresented, .ended: nil
        }
    }

    package var step: PaymentAuthorizationStep {
        switch state {
        case .notPresented: .notPresented
        case .sheet: .sheet
        case .awaiting(let outstanding, _): .awaiting(outstanding.method)
        case .ended(let outcome): .ended(outcome)
        }
    }

    package mutating func takeResolution() -> (id: UInt64, resolution: Resolution<Answer>)? {
        defer { resolution = nil }
        return resolution
    }

    // MARK: Driver events

    /// Spec A1: validates the request, every problem at once.
    package mutating func present(at now: Duration) -> Effect<Call> {
        switch state {
        case .notPresented: break
        case .ended: return log.refuse("present", .finished, at: now)
        default: return log.refuse("present", .alreadyPresented, at: now)
        }
        let problems = request.problems
        guard problems.isEmpty else {
            let refusal = Refusal(
                code: .invalidRequest,
                message: "the payment request has \(problems.count) problem(s): "
                    + problems.map(\.message).joined(separator: "; "),
                fields: problems.compactMap(\.field),
                problems: problems
            )
            return log.refuse("present", refusal, at: now)
        }
        log.record(.action("present", []), at: now)
        state = .sheet(
            PaymentSheet(
                summaryItems: request.summaryItems,
                shippingMethods: request.shippingMethods,
                selectedShippingMethodID: request.shippingMethods.first?.identifier,
                couponCode: request.couponCode
            )
        )
        return .none
    }

    /// Spec A2: the delegate sees the contact redacted.
    package mutating func selectShippingContact(_ contact: Contact, at now: Duration) -> Effect<Call> {
        let action = "selectShippingContact"
        guard let sheet = idleSheet(action, at: now, allowedWhileAwaitingPIN: false) else {
            return lastRefusal
        }
        let problems = contact.validate(required: request.requiredShippingContactFields)
            .filter { $0.code != .missingField }
        if !problems.isEmpty {
            return log.refuse(action, .invalid(problems, under: "shippingContact"), at: now)
        }
        log.record(.action(action, [.contact(contact)]), at: now)
        let redacted = contact.redactedForShipping()
        return open(
            .shippingContact(contact), "didSelectShippingContact", sheet, [.contact(redacted)], at: now
        ) {
            .didSelectShippingContact(redacted, id: $0)
        }
    }

    /// Spec A3.
    package mutating func selectShippingMethod(_ identifier: String, at now: Duration) -> Effect<Call> {
        let action = "selectShippingMethod"
        guard let sheet = idleSheet(action, at: now, allowedWhileAwaitingPIN: false) else {
            return lastRefusal
        }
        guard let method = sheet.shippingMethods.first(where: { $0.identifier == identifier }) else {
            let refusal = Refusal(
                code: .unknownShippingMethod,
                message: "no shipping method has the identifier \(identifier.quotedForMessage)",
                fields: ["shippingMethod"]
            )
            return log.refuse(action, refusal, at: now)
        }
        log.record(.action(action, [.text(identifier)]), at: now)
        return open(.shippingMethod(method), "didSelectShippingMethod", sheet, [.text(identifier)], at: now) {
            .didSelectShippingMethod(method, id: $0)
        }
    }

    /// Spec A4.
    package mutating func selectPaymentMethod(_ method: PaymentMethod, at now: Duration) -> Effect<Call> {
        let action = "selectPaymentMethod"
        guard let sheet = idleSheet(action, at: now, allowedWhileAwaitingPIN: false) else {
            return lastRefusal
        }
        let name = method.displayName ?? method.network?.rawValue ?? method.type.rawValue
        log.record(.action(action, [.text(name)]), at: now)
        return open(.paymentMethod(method), "didSelectPaymentMethod", sheet, [.text(name)], at: now) {
            .didSelectPaymentMethod(method, id: $0)
        }
    }

    /// Spec A5.
    package mutating func changeCouponCode(_ code: String, at now: Duration) -> Effect<Call> {
        let action = "changeCouponCode"
        guard let sheet = idleSheet(action, at: now, allowedWhileAwaitingPIN: false) else {
            return lastRefusal
        }
        guard request.supportsCouponCode else {
            let refusal = Refusal(
                code: .couponCodesNotSupported, message: "the request does not support coupon codes")
            return log.refuse(action, refusal, at: now)
        }
        log.record(.action(action, [.text(code)]), at: now)
        return open(.couponCode(code), "didChangeCouponCode", sheet, [.text(code)], at: now) {
            .didChangeCouponCode(code, id: $0)
        }
    }

    /// Spec A6: refused while an error blocks or a required field is missing; otherwise
    /// `willAuthorizePayment`, then `didAuthorizePayment` with the full contacts limited to the
    /// requested fields and the selected shipping method.
    package mutating func authorize(_ token: PaymentToken, billingContact: Contact?, at now: Duration)
        -> Effect<Call>
    {
        let action = "authorize"
        guard let sheet = idleSheet(action, at: now, allowedWhileAwaitingPIN: true) else {
            return lastRefusal
        }
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
        let missing =
            Self.missing(sheet.shippingContact, shippingRequired, "shippingContact")
            + Self.missing(billingContact, billingRequired, "billingContact")
        if !missing.isEmpty { return log.refuse(action, .missing(missing), at: now) }
        if let billingContact {
            let problems = billingContact.validate(required: billingRequired).filter {
                $0.code != .missingField
            }
            if !problems.isEmpty {
                return log.refuse(action, .invalid(problems, under: "billingContact"), at: now)
            }
        }
        let payment = Payment(
            token: token,
            billingContact: billingContact?.limited(to: billingRequired),
            shippingContact: sheet.shippingContact?.limited(to: shippingRequired),
            shippingMethod: sheet.selectedShippingMethod
        )
        log.record(
            .action(sheet.isAwaitingPIN ? "authorize (PIN re-entry)" : action, [.text(token.description)]),
            at: now)
        log.record(.call("willAuthorizePayment", callbackID: nil, []), at: now)
        return open(.authorization(payment), "didAuthorizePayment", sheet, [.payment(payment)], at: now) {
            .authorize(payment, id: $0)
        }
    }

    /// Spec E3, A8: cancel in every presented state, also while a callback is outstanding.
    package mutating func cancel(at now: Duration) -> Effect<Call> {
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
    package mutating func answer(_ id: UInt64, first: Bool, _ answer: Answer, at now: Duration) -> Effect<
        Call
    > {
        guard first else {
            return violated(
                .completionCalledTwice, Self.method(of: answer), id: id, at: now, "answered \(answer) again")
        }
        guard case .awaiting(let outstanding, var sheet) = state, outstanding.id == id else {
            return violated(
                .lateCompletion,
                Self.method(of: answer),
                id: id,
                at: now,
                "answered \(answer) after the callback ended"
            )
        }
        if outstanding.arrival(at: now) == .pastDeadline {
            // The deadline ends the flow (spec E4): its didFinish must not be lost.
            let timedOut = deadlinePassed(id, at: now)
            let late = violated(
                .lateCompletion, outstanding.method, id: id, at: now,
                "answered \(answer) at or after the deadline")
            if case .call = timedOut { return timedOut }
            return late
        }
        log.record(
            .completion(
                outstanding.method, callbackID: id, [.text(answer.description)],
                byDefault: answer.isDefaultAnswer),
            at: now
        )
        resolution = (id, .answered(answer))
        // Spec E7: every update is validated against the request; an invalid one ends the flow.
        let problems: [CheckoutError] =
            switch answer {
            case .shippingContact(let update): request.problems(in: update)
            case .shippingMethod(let update): request.problems(in: update)
            case .paymentMethod(let update): request.problems(in: update)
            case .couponCode(let update): request.problems(in: update)
            case .authorization: []
            }
        if !problems.isEmpty {
            let violation = log.violation(
                .invalidUpdate,
                outstanding.method,
                id: id,
                at: now,
                problems.map { "\($0.field ?? ""): \($0.message)" }.joined(separator: "; ")
            )
            return end(.failed(.violation(violation)), at: now)
        }
        switch (outstanding.callback, answer) {
        case (.shippingContact(let contact), .shippingContact(let update)):
            sheet.shippingContact = contact
            sheet.summaryItems = update.summaryItems
            Self.replaceMethods(&sheet, update.shippingMethods)
            sheet.shippingContactErrors = update.errors.filter(\.isShippingContactError)
            sheet.shownErrors = update.errors
        case (.shippingMethod(let method), .shippingMethod(let update)):
            sheet.selectedShippingMethodID = method.identifier
            sheet.summaryItems = update.summaryItems
        case (.paymentMethod(let method), .paymentMethod(let update)):
            sheet.paymentMethod = method
            sheet.summaryItems = update.summaryItems
            sheet.paymentMethodErrors = update.errors
            sheet.shownErrors = update.errors
        case (.couponCode(let code), .couponCode(let update)):
            sheet.couponCode = code
            sheet.summaryItems = update.summaryItems
            Self.replaceMethods(&sheet, update.shippingMethods)
            sheet.shownErrors = update.errors
        case (.authorization(let payment), .authorization(let result)):
            return applyAuthorization(result, payment, &sheet, at: now)
        default:
            preconditionFailure("an answer of another callback's type cannot reach callback #\(id)")
        }
        state = .sheet(sheet)
        return .none
    }

    /// Spec E4: the authorization flow ends as PassKit's sheet does when it times out.
    package mutating func deadlinePassed(_ id: UInt64, at now: Duration) -> Effect<Call> {
        guard case .awaiting(let outstanding, _) = state, outstanding.id == id else {
            return .none  // answered or cancelled in time; the timer is stale
        }
        log.violation(
            .completionTimedOut, outstanding.method, id: id, at: now, "no answer by \(now.secondsString)s")
        return end(.timedOut, at: now)
    }

    // MARK: Helpers

    /// Spec A7.
    private mutating func applyAuthorization(
        _ result: PaymentAuthorizationResult,
        _ payment: Payment,
        _ sheet: inout PaymentSheet,
        at now: Duration
    ) -> Effect<Call> {
        var errors = result.errors
        switch result.status {
        case .success:
            return end(.authorized(payment), at: now)
        case .pinLockout:
            return end(.failed(.pinLockout), at: now)
        case .pinRequired, .pinIncorrect:
            sheet.isAwaitingPIN = true
        case .failure:
            sheet.isAwaitingPIN = false
        case .invalidShippingPostalAddress:
            sheet.isAwaitingPIN = false
            errors.append(.shippingContactInvalid(.postalAddress, "Invalid shipping address"))
        case .invalidShippingContact:
            sheet.isAwaitingPIN = false
            errors.append(PaymentError(code: .shippingContactInvalid, message: "Invalid shipping contact"))
        case .invalidBillingPostalAddress:
            sheet.isAwaitingPIN = false
            errors.append(.billingContactInvalid(.postalAddress, "Invalid billing address"))
        }
        sheet.shippingContactErrors += errors.filter(\.isShippingContactError)
        sheet.shownErrors = errors
        state = .sheet(sheet)
        return .none
    }

    /// Spec A2, A5: a list replaces the methods; when the selection is gone, the first is selected.
    private static func replaceMethods(_ sheet: inout PaymentSheet, _ methods: [ShippingMethod]?) {
        guard let methods else { return }
        sheet.shippingMethods = methods
        if !methods.contains(where: { $0.identifier == sheet.selectedShippingMethodID }) {
            sheet.selectedShippingMethodID = methods.first?.identifier
        }
    }

    private var lastRefusal: Effect<Call> = .none

    /// The sheet when the flow can take a customer action now; otherwise records the refusal in
    /// `lastRefusal` and returns nil.
    private mutating func idleSheet(_ action: String, at now: Duration, allowedWhileAwaitingPIN: Bool)
        -> PaymentSheet?
    {
        let refusal: Refusal
        switch state {
        case .sheet(let sheet):
            if sheet.isAwaitingPIN, !allowedWhileAwaitingPIN {
                refusal = .notAllowed(action, "while the sheet waits for the PIN")
            } else {
                return sheet
            }
        case .awaiting(let outstanding, _): refusal = .callbackPending(outstanding.method)
        case .notPresented: refusal = .notPresented
        case .ended: refusal = .finished
        }
        lastRefusal = log.refuse(action, refusal, at: now)
        return nil
    }

    /// Opens a callback and asks for its delegate call.
    private mutating func open(
        _ callback: Callback,
        _ method: String,
        _ sheet: PaymentSheet,
        _ arguments: [TranscriptValue],
        at now: Duration,
        _ call: (UInt64) -> Call
    ) -> Effect<Call> {
        var timed = true
        if case .authorization = callback { timed = authorizationIsTimed }
        let outstanding = ledger.open(callback, method, at: now, timed: timed)
        state = .awaiting(outstanding, sheet)
        log.record(.call(method, callbackID: outstanding.id, arguments), at: now)
        return .call(call(outstanding.id))
    }

    /// Ends the flow with `outcome` and asks for `didFinish` (spec A8, E5).
    private mutating func end(_ outcome: PaymentAuthorizationOutcome, at now: Duration) -> Effect<Call> {
        if case .awaiting(let outstanding, _) = state, resolution?.id != outstanding.id {
            resolution = (
                outstanding.id, .ended(CallbackEnded(callback: outstanding.method, reason: "\(outcome)"))
            )
        }
        state = .ended(outcome)
        log.record(.outcome(outcome.description), at: now)
        log.record(.call("didFinish", callbackID: nil, []), at: now)
        return .call(.didFinish)
    }

    private mutating func violated(
        _ kind: Violation.Kind,
        _ method: String,
        id: UInt64,
        at now: Duration,
        _ detail: String
    ) -> Effect<Call> {
        let violation = log.violation(kind, method, id: id, at: now, detail)
        if isStrict, !isEnded { return end(.failed(.violation(violation)), at: now) }
        return .none
    }

    private static func method(of answer: Answer) -> String {
        switch answer {
        case .shippingContact: "didSelectShippingContact"
        case .shippingMethod: "didSelectShippingMethod"
        case .paymentMethod: "didSelectPaymentMethod"
        case .couponCode: "didChangeCouponCode"
        case .authorization: "didAuthorizePayment"
        }
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
