import CheckoutCore
import CheckoutFlows

/// The pay context (spec P1-P8) as a pure state machine: what happens between the sheet's
/// authorization and `didComplete`. The sheet itself is an authorization flow that this machine's
/// shell drives and is the delegate of; backend calls are effects whose results come back as
/// events. No lock, no delegate, no clock, no backend inside.
///
/// Invalid transitions: driver misuse is refused with a typed reason; a backend result or a
/// merchant answer for a round that has ended (cancelled, timed out) is ignored and, for the
/// merchant, recorded as a late completion: never trapped.
@usableFromInline
package struct PayContextStateMachine: FlowMachine {
    @usableFromInline package typealias SheetHandler = @Sendable (PaymentAuthorizationResult) -> Void

    @usableFromInline package enum Call: Sendable {
        /// Present the authorization sheet.
        case presentSheet
        /// Backend: create a payment method for round `round`.
        case createPaymentMethod(Payment, round: UInt64)
        /// Delegate: `didCreatePaymentMethod`, callback `id`.
        case didCreatePaymentMethod(StripePaymentMethod, Payment, id: UInt64)
        /// Backend: retrieve the intent.
        case retrieveIntent(IntentClientSecret, round: UInt64)
        /// Backend: confirm the intent.
        case confirmIntent(IntentClientSecret, paymentMethodID: String, shipping: ShippingDetails?, round: UInt64)
        /// Delegate: `willComplete`, callback `id`.
        case willComplete(PaymentAuthorizationResult, id: UInt64)
        /// Answer the sheet's `didAuthorizePayment`; then, with `dismiss`, close the sheet.
        case answerSheet(PaymentAuthorizationResult, SheetHandler, dismiss: Bool)
        /// Close the sheet (the customer's cancel, or the sheet's deadline).
        case dismissSheet
        /// Delegate: the terminal `didComplete`.
        case didComplete(PaymentStatus, (any Error)?)
    }

    /// The pay context's driver waits for the end only.
    @usableFromInline package typealias Answer = Never

    /// One authorization being processed, under the sheet's deadline.
    fileprivate struct Round: Sendable {
        let id: UInt64
        /// The id of the sheet's `didAuthorizePayment` call this round answers.
        let sheetCallbackID: UInt64
        let payment: Payment
        let handler: SheetHandler
        let deadline: FlowInstant?
        var paymentMethod: StripePaymentMethod?
        var secret: IntentClientSecret?
        var confirmSent = false
        /// The sheet ended without the pay context (a driver cancelled the context's `sheet`
        /// directly) while the confirmation was in flight: the outcome goes straight to
        /// `didComplete` when the confirmation answers.
        var sheetGone = false
    }

    /// What the pay context decided for a round: the result for the sheet, and how the payment
    /// ends (nil: it does not; the sheet stays for a retry).
    fileprivate struct Decision: Sendable {
        var result: PaymentAuthorizationResult
        var final: Final?
    }

    fileprivate struct Final: Sendable {
        let status: PaymentStatus
        let error: (any Error)?
    }

    private enum Stage {
        case notPresented
        case sheet
        case creatingPaymentMethod(Round)
        case awaitingIntent(Round, Outstanding<UInt64>)
        case retrieving(Round)
        case confirming(Round, cancelDeferred: Bool)
        case awaitingWillComplete(Round, Outstanding<UInt64>, Decision)
        /// The sheet has been answered or dismissed; `didComplete` follows its dismissal.
        case closing(Final)
        case ended(Final)
    }

    @usableFromInline package var ledger: CallbackLedger<Never>
    @usableFromInline package private(set) var log: FlowLog
    private var stage = Stage.notPresented

    package init(options: FlowOptions) {
        self.ledger = CallbackLedger(timeout: options.callbackTimeout)
        self.log = FlowLog(recordsTranscript: options.recordsTranscript)
    }

    // MARK: Queries

    private var round: Round? {
        switch stage {
        case .creatingPaymentMethod(let round), .awaitingIntent(let round, _), .retrieving(let round),
            .confirming(let round, _), .awaitingWillComplete(let round, _, _):
            round
        case .notPresented, .sheet, .closing, .ended:
            nil
        }
    }

    /// The round in progress runs under the sheet's deadline (spec P5).
    @usableFromInline package var pending: (id: UInt64, deadline: FlowInstant?)? {
        round.map { ($0.id, $0.deadline) }
    }

    @usableFromInline package var isEnded: Bool {
        if case .ended = stage { return true }
        return false
    }

    package var outcome: PayContextOutcome? {
        if case .ended(let final) = stage { return PayContextOutcome(status: final.status, error: final.error) }
        return nil
    }

    /// The callback the merchant owes an answer to, if any: `didCreatePaymentMethod` or
    /// `willComplete`. (The pay context's driver awaits no answer of its own: its ledger keeps no
    /// resolution.)
    private var outstandingID: UInt64? {
        switch stage {
        case .awaitingIntent(_, let outstanding): outstanding.id
        case .awaitingWillComplete(_, let outstanding, _): outstanding.id
        case .notPresented, .sheet, .creatingPaymentMethod, .retrieving, .confirming, .closing, .ended: nil
        }
    }

    /// Nothing starts here: the pay context's own callbacks run under the round's deadline, which
    /// starts when the sheet calls for the authorization.
    @usableFromInline package mutating func delegateCalled(_ call: Call, at now: FlowInstant) {}

    /// Packs the context's own transcript (``FlowLog/compact()``), for a context that waits long
    /// between events.
    package mutating func compactTranscript() { log.compact() }

    // MARK: Driver events

    /// Spec P1, P6: a context is presented once.
    package mutating func present(at now: FlowInstant) -> Effect<Call> {
        switch stage {
        case .notPresented:
            log.record(.action("present", []), at: now)
            stage = .sheet
            return .call(.presentSheet)
        case .ended, .closing: return log.refuse("present", .finished, at: now)
        case .sheet, .creatingPaymentMethod, .awaitingIntent, .retrieving, .confirming, .awaitingWillComplete:
            return log.refuse("present", .alreadyPresented, at: now)
        }
    }

    /// Spec P5, E3: before the confirm request is sent the payment ends at once as a user
    /// cancellation; while a confirm is in flight the cancel is deferred until its answer.
    package mutating func cancel(at now: FlowInstant) -> Effect<Call> {
        switch stage {
        case .notPresented: return log.refuse("cancel", .notPresented, at: now)
        case .closing, .ended: return log.refuse("cancel", .finished, at: now)
        case .confirming(let round, let deferred):
            log.record(.action("cancel", [.text("deferred: a confirmation is in flight")]), at: now)
            if !deferred { stage = .confirming(round, cancelDeferred: true) }
            return .none
        case .awaitingWillComplete(let round, _, let decision) where round.confirmSent && decision.final != nil:
            // The confirmation has answered: report its real outcome, skipping willComplete.
            log.record(.action("cancel", [.text("after the confirmation: reporting its outcome")]), at: now)
            return finish(decision, round, at: now)
        case .sheet, .creatingPaymentMethod, .awaitingIntent, .retrieving, .awaitingWillComplete:
            log.record(.action("cancel", []), at: now)
            stage = .closing(Final(status: .userCancellation, error: nil))
            return .call(.dismissSheet)
        }
    }

    // MARK: Sheet events

    /// The sheet's `didAuthorizePayment` (its call `sheetCallbackID`, when known): a new round
    /// starts with the backend creating a payment method (spec P3).
    package mutating func authorizationRequested(
        _ payment: Payment,
        handler: @escaping SheetHandler,
        sheetCallbackID: UInt64? = nil,
        at now: FlowInstant
    ) -> Effect<Call> {
        guard case .sheet = stage else { return .none }  // closing: the sheet is going away
        // The sheet is calling its delegate now: the round's deadline starts (spec E4, P5).
        let opened = ledger.open(payment, .didAuthorizePayment)
        ledger.called(opened.id, at: now)
        let round = Round(
            id: opened.id, sheetCallbackID: sheetCallbackID ?? opened.id, payment: payment, handler: handler,
            deadline: ledger.deadline(of: opened.id))
        stage = .creatingPaymentMethod(round)
        log.record(.call("backend.createPaymentMethod", callbackID: nil, [.payment(payment)]), at: now)
        return .call(.createPaymentMethod(payment, round: round.id))
    }

    /// The sheet is gone (its `didFinish`): `didComplete` exactly once (spec P6).
    package mutating func sheetDismissed(_ sheetOutcome: PaymentAuthorizationOutcome?, at now: FlowInstant) -> Effect<
        Call
    > {
        let final: Final
        switch stage {
        case .ended: return .none
        case .closing(let closing): final = closing
        case .confirming(var round, _):
            // P5: a confirmation in flight cannot be abandoned, even when the sheet ended itself
            // (a driver cancelling the context's `sheet` directly): wait for its real outcome.
            round.sheetGone = true
            stage = .confirming(round, cancelDeferred: true)
            log.record(.action("sheet ended", [.text("waiting for the confirmation in flight")]), at: now)
            return .none
        case .notPresented, .sheet, .creatingPaymentMethod, .awaitingIntent, .retrieving, .awaitingWillComplete:
            // The sheet ended on its own: its deadline on a forwarded callback, or a violation.
            switch sheetOutcome {
            case .failed(.violation(let violation)):
                let error = PayContextError(code: .merchantViolation, message: violation.description)
                final = Final(status: .error, error: error)
            default:
                final = Final(status: .userCancellation, error: nil)
            }
        }
        return complete(final, at: now)
    }

    /// Ends the payment with `didComplete` (spec P6).
    private mutating func complete(_ final: Final, at now: FlowInstant) -> Effect<Call> {
        stage = .ended(final)
        let outcome = PayContextOutcome(status: final.status, error: final.error)
        log.record(.outcome(outcome.description), at: now)
        log.record(.call(DelegateMethod.didComplete.name, callbackID: nil, [.text(outcome.description)]), at: now)
        return .call(.didComplete(final.status, final.error))
    }

    // MARK: Backend events

    package mutating func paymentMethodCreated(
        _ roundID: UInt64,
        _ result: Result<StripePaymentMethod, any Error>,
        at now: FlowInstant
    ) -> Effect<Call> {
        guard case .creatingPaymentMethod(var round) = stage, round.id == roundID else {
            return ignoredBackendResult("createPaymentMethod", at: now)
        }
        switch result {
        case .failure(let error):
            log.record(
                .completion("backend.createPaymentMethod", callbackID: roundID, [.text("\(error)")], byDefault: false),
                at: now)
            let failure = PaymentAuthorizationResult(status: .failure, errors: [PaymentError(carrying: error)])
            return decide(Decision(result: failure, final: nil), round, at: now)  // the customer may retry
        case .success(let method):
            log.record(
                .completion("backend.createPaymentMethod", callbackID: roundID, [.text(method.id)], byDefault: false),
                at: now)
            round.paymentMethod = method
            let outstanding = ledger.open(roundID, .didCreatePaymentMethod, timed: false)
            stage = .awaitingIntent(round, outstanding)
            // Spec P2: the full contact arrives here, in the payment information.
            log.record(
                .call(
                    outstanding.method, callbackID: outstanding.id, [.text(method.id), .payment(round.payment)]),
                at: now)
            return .call(.didCreatePaymentMethod(method, round.payment, id: outstanding.id))
        }
    }

    package mutating func intentRetrieved(
        _ roundID: UInt64,
        _ result: Result<StripeIntent, any Error>,
        at now: FlowInstant
    ) -> Effect<Call> {
        guard case .retrieving(var round) = stage, round.id == roundID, let secret = round.secret,
            let method = round.paymentMethod
        else {
            return ignoredBackendResult("retrieveIntent", at: now)
        }
        let intent: StripeIntent
        switch result {
        case .failure(let error):
            log.record(
                .completion("backend.retrieveIntent", callbackID: roundID, [.text("\(error)")], byDefault: false),
                at: now)
            return decide(.failed(error), round, at: now)
        case .success(let retrieved):
            intent = retrieved
            log.record(
                .completion(
                    "backend.retrieveIntent", callbackID: roundID, [.text("\(intent.id): \(intent.status)")],
                    byDefault: false),
                at: now
            )
        }
        // Spec P3: what to do with each status.
        let confirmable: Bool
        let done: Bool
        switch intent.kind {
        case .setupIntent:
            confirmable = [.requiresPaymentMethod, .requiresConfirmation, .requiresAction].contains(intent.status)
            done = intent.status == .succeeded
        case .paymentIntent:
            confirmable =
                intent.confirmationMethod == .automatic
                && [.requiresPaymentMethod, .requiresConfirmation].contains(intent.status)
            done = intent.status == .succeeded || intent.status == .requiresCapture
        }
        if done { return decide(.succeeded, round, at: now) }
        guard confirmable else {
            let error = PayContextError(
                code: .invalidIntentState,
                message: "the intent \(intent.id) is in status \(intent.status)",
                intentStatus: intent.status
            )
            return decide(.failed(error), round, at: now)
        }
        let shipping = ShippingDetails(round.payment.shippingContact)
        let sentShipping = shipping == intent.shipping ? nil : shipping
        round.confirmSent = true
        stage = .confirming(round, cancelDeferred: false)
        log.record(.call("backend.confirmIntent", callbackID: nil, [.secret(secret), .text(method.id)]), at: now)
        return .call(.confirmIntent(secret, paymentMethodID: method.id, shipping: sentShipping, round: roundID))
    }

    package mutating func intentConfirmed(
        _ roundID: UInt64,
        _ result: Result<StripeIntent, any Error>,
        at now: FlowInstant
    ) -> Effect<Call> {
        guard case .confirming(let round, let cancelDeferred) = stage, round.id == roundID else {
            return ignoredBackendResult("confirmIntent", at: now)
        }
        let decision: Decision
        switch result {
        case .success(let intent):
            log.record(
                .completion(
                    "backend.confirmIntent", callbackID: roundID, [.text("\(intent.id): \(intent.status)")],
                    byDefault: false),
                at: now
            )
            switch intent.status {
            case .succeeded, .requiresCapture:
                decision = .succeeded
            case .requiresAction:
                decision = .failed(
                    PayContextError(
                        code: .confirmationFailure,
                        message:
                            "the intent \(intent.id) requires an action (3-D Secure) that cannot be shown over the sheet",
                        intentStatus: intent.status
                    )
                )
            default:
                decision = .failed(
                    PayContextError(
                        code: .invalidIntentState,
                        message: "after confirmation the intent \(intent.id) is in status \(intent.status)",
                        intentStatus: intent.status
                    )
                )
            }
        case .failure(let error):
            log.record(
                .completion("backend.confirmIntent", callbackID: roundID, [.text("\(error)")], byDefault: false),
                at: now)
            if let stripe = error as? StripeError, stripe.code == "incorrect_zip", !cancelDeferred {
                // Spec P4: a billing postal code error; the sheet stays for a retry.
                let zip = PaymentError.billingContactInvalid(.postalCode, stripe.message)
                decision = Decision(result: PaymentAuthorizationResult(status: .failure, errors: [zip]), final: nil)
            } else {
                decision = .failed(error)
            }
        }
        if cancelDeferred {
            // Spec P5: the deferred cancel skips willComplete and reports the real outcome.
            return finish(decision, round, at: now)
        }
        return decide(decision, round, at: now)
    }

    // MARK: Delegate events

    /// The merchant answered `didCreatePaymentMethod` number `id`.
    package mutating func intentAnswered(_ id: UInt64, first: Bool, _ answer: IntentAnswer, at now: FlowInstant)
        -> Effect<
            Call
        >
    {
        let method = DelegateMethod.didCreatePaymentMethod.name
        // The callback is untimed (the round's deadline times it, spec P5): an answer in time or late.
        let admission = ledger.admit(id, first: first, outstanding: outstandingID, at: now)
        guard admission == .inTime, case .awaitingIntent(var round, _) = stage else {
            if admission == .repeated {
                return log.violated(.completionCalledTwice, method, id: id, at: now, "answered \(answer) again")
            }
            return log.violated(.lateCompletion, method, id: id, at: now, "answered \(answer) after the payment ended")
        }
        log.record(.completion(method, callbackID: id, [.text(answer.description)], byDefault: false), at: now)
        switch answer {
        case .failure(let error):
            return decide(.failed(error), round, at: now)
        case .completeWithoutConfirming:
            return decide(.succeeded, round, at: now)
        case .clientSecret(let text):
            let secret: IntentClientSecret
            do {
                secret = try IntentClientSecret(text)
            } catch {
                return decide(.failed(error), round, at: now)
            }
            round.secret = secret
            stage = .retrieving(round)
            log.record(.call("backend.retrieveIntent", callbackID: nil, [.secret(secret)]), at: now)
            return .call(.retrieveIntent(secret, round: round.id))
        }
    }

    /// The merchant answered `willComplete` number `id`, perhaps adjusting the result.
    package mutating func willCompleteAnswered(
        _ id: UInt64,
        first: Bool,
        _ result: PaymentAuthorizationResult,
        byDefault: Bool,
        at now: FlowInstant
    ) -> Effect<Call> {
        let method = DelegateMethod.willComplete.name
        // Untimed, as `didCreatePaymentMethod`: an answer in time or late.
        let admission = ledger.admit(id, first: first, outstanding: outstandingID, at: now)
        guard admission == .inTime, case .awaitingWillComplete(let round, _, var decision) = stage else {
            if admission == .repeated {
                return log.violated(.completionCalledTwice, method, id: id, at: now, "answered again")
            }
            return log.violated(.lateCompletion, method, id: id, at: now, "answered after the payment ended")
        }
        // Described only when transcripts are on (the event is an autoclosure).
        log.record(
            .completion(
                method, callbackID: id, [.model(result, description: result.transcriptText)], byDefault: byDefault),
            at: now)
        decision.result = result
        return finish(decision, round, at: now)
    }

    /// The sheet's deadline passed during round `id` (spec P5): as a cancel. The completion then
    /// outstanding times out (spec E4): the merchant's callback, or else the sheet's
    /// `didAuthorizePayment`, whose answer waits for the backend.
    @usableFromInline package mutating func deadlinePassed(_ id: UInt64, at now: FlowInstant) -> Effect<Call> {
        guard let round, round.id == id else { return .none }
        switch stage {
        case .awaitingIntent(_, let outstanding), .awaitingWillComplete(_, let outstanding, _):
            log.violation(
                .completionTimedOut, outstanding.method, id: outstanding.id, at: now, "the sheet's deadline passed")
        case .confirming:
            log.violation(
                .completionTimedOut, DelegateMethod.didAuthorizePayment.name, id: round.sheetCallbackID, at: now,
                "the sheet's deadline passed during the confirmation; waiting for its outcome")
        case .creatingPaymentMethod, .retrieving:
            log.violation(
                .completionTimedOut, DelegateMethod.didAuthorizePayment.name, id: round.sheetCallbackID, at: now,
                "the sheet's deadline passed while the backend had not answered")
        case .notPresented, .sheet, .closing, .ended:
            preconditionFailure("a round is in progress")
        }
        switch stage {
        case .confirming(let round, _):
            stage = .confirming(round, cancelDeferred: true)
            return .none
        case .awaitingWillComplete(let round, _, let decision) where round.confirmSent && decision.final != nil:
            return finish(decision, round, at: now)
        case .creatingPaymentMethod, .awaitingIntent, .retrieving, .awaitingWillComplete,
            // Not reached: the switch above stops at these.
            .notPresented, .sheet, .closing, .ended:
            stage = .closing(Final(status: .userCancellation, error: nil))
            return .call(.dismissSheet)
        }
    }

    // MARK: Helpers

    /// Asks `willComplete` before the result goes to the sheet (spec P4).
    private mutating func decide(_ decision: Decision, _ round: Round, at now: FlowInstant) -> Effect<Call> {
        let outstanding = ledger.open(round.id, .willComplete, timed: false)
        stage = .awaitingWillComplete(round, outstanding, decision)
        log.record(
            .call(outstanding.method, callbackID: outstanding.id, [.text(decision.result.transcriptText)]), at: now)
        return .call(.willComplete(decision.result, id: outstanding.id))
    }

    /// Answers the sheet: a retry keeps it, a final outcome closes it.
    private mutating func finish(_ decision: Decision, _ round: Round, at now: FlowInstant) -> Effect<Call> {
        if round.sheetGone {
            // No sheet to answer: the payment's outcome goes to `didComplete` now.
            let error = PayContextError(code: .merchantViolation, message: "the sheet ended during the confirmation")
            return complete(decision.final ?? Final(status: .error, error: error), at: now)
        }
        log.record(.call("sheet.completion", callbackID: round.id, [.text(decision.result.transcriptText)]), at: now)
        guard let final = decision.final else {
            stage = .sheet
            return .call(.answerSheet(decision.result, round.handler, dismiss: false))
        }
        stage = .closing(final)
        let dismiss = decision.result.status != .success
        return .call(.answerSheet(decision.result, round.handler, dismiss: dismiss))
    }

    private mutating func ignoredBackendResult(_ call: String, at now: FlowInstant) -> Effect<Call> {
        // Benign race: the round ended (cancelled, timed out) before the backend answered.
        log.record(.action("ignored", [.text("late backend answer to \(call)")]), at: now)
        return .none
    }
}

extension PayContextStateMachine.Decision {
    static var succeeded: Self { Self(result: .success, final: .init(status: .success, error: nil)) }

    /// Spec P4: the payment ends with `error`, and the sheet's result carries it, as stripe-ios's
    /// `PKPaymentAuthorizationResult(status: .failure, errors: [error])` does.
    static func failed(_ error: any Error) -> Self {
        Self(
            result: PaymentAuthorizationResult(status: .failure, errors: [PaymentError(carrying: error)]),
            final: .init(status: .error, error: error)
        )
    }
}

extension PaymentError {
    /// The error a failed result carries for `error` (spec P4): a ``PaymentError`` as it is, any
    /// other (Stripe's, the backend's, the merchant's) as ``PaymentError/Code/unknown`` with its
    /// description, which for a ``StripeError`` keeps Stripe's type, code, decline code and message.
    init(carrying error: any Error) {
        self = (error as? PaymentError) ?? .unknown("\(error)")
    }
}

extension PaymentAuthorizationResult {
    /// The status and, when there are any, the errors: `failure, errors: [unknown: ...]`.
    fileprivate var transcriptText: String {
        errors.isEmpty ? "\(status)" : "\(status), errors: [" + errors.map(\.description).joined(separator: "; ") + "]"
    }
}
