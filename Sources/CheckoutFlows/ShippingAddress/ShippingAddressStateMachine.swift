import CheckoutCore

/// The shipping-address flow as a pure state machine (spec S1-S5 on the rules E1-E9): no lock, no
/// delegate, no clock. Each event returns what the shell must do.
///
/// Invalid transitions: a driver action that does not fit the state is refused with a typed
/// reason; a completion or deadline for a callback that is no longer outstanding is a benign race
/// (the customer cancelled first, the deadline won) and is recorded as a violation, never trapped.
@usableFromInline
package struct ShippingAddressStateMachine: FlowMachine {
    package static let defaultInvalidMessage = "Invalid Shipping Address"

    @usableFromInline package enum Call: Sendable {
        case didEnterAddress(Contact, id: UInt64)
        case didFinish(Contact, ShippingMethod?)
        case didCancel
    }

    @usableFromInline package typealias Answer = ShippingAddressValidation

    private enum State {
        case notPresented
        case addressStep(error: String?)
        case validating(Outstanding<Contact>)
        case methodStep(address: Contact, methods: [ShippingMethod], selected: ShippingMethod)
        case ended(ShippingAddressOutcome)
    }

    package let configuration: ShippingAddressConfiguration
    @usableFromInline package var ledger: CallbackLedger<Answer>
    @usableFromInline package private(set) var log: FlowLog
    private var state = State.notPresented

    package init(configuration: ShippingAddressConfiguration, options: FlowOptions) {
        self.configuration = configuration
        self.ledger = CallbackLedger(timeout: options.callbackTimeout)
        self.log = FlowLog(recordsTranscript: options.recordsTranscript)
    }

    // MARK: Queries

    @usableFromInline package var pending: (id: UInt64, deadline: FlowInstant?)? {
        guard let id = pendingID else { return nil }
        return (id, ledger.deadline(of: id))
    }

    /// The outstanding callback's id: the one the ledger opened last, while the merchant validates.
    private var pendingID: UInt64? {
        if case .validating = state { return ledger.lastOpenedID }
        return nil
    }

    @usableFromInline package mutating func delegateCalled(_ call: Call, at now: FlowInstant) {
        if case .didEnterAddress(_, let id) = call { ledger.called(id, at: now) }
    }

    @usableFromInline package var isEnded: Bool {
        if case .ended = state { return true }
        return false
    }

    package var outcome: ShippingAddressOutcome? {
        if case .ended(let outcome) = state { return outcome }
        return nil
    }

    package var step: ShippingAddressStep {
        switch state {
        case .notPresented: .notPresented
        case .addressStep(let error): .address(error: error)
        case .validating: .validatingAddress
        case .methodStep(_, let methods, let selected): .shippingMethod(methods: methods, selected: selected)
        case .ended(let outcome): .ended(outcome)
        }
    }

    // MARK: Driver events

    package mutating func present(at now: FlowInstant) -> Effect<Call> {
        switch state {
        case .notPresented:
            log.record(.action("present", []), at: now)
            state = .addressStep(error: nil)
            return .none
        case .ended: return log.refuse("present", .finished, at: now)
        case .addressStep, .validating, .methodStep: return log.refuse("present", .alreadyPresented, at: now)
        }
    }

    /// Spec S1-S3: validates the entered address, then finishes (delivery) or asks the merchant.
    package mutating func enterAddress(_ address: Contact, at now: FlowInstant) -> Effect<Call> {
        let action = "enterAddress"
        switch state {
        case .addressStep:
            break
        case .validating(let outstanding):
            return log.refuse(action, .callbackPending(outstanding.method), at: now)
        case .methodStep:
            return log.refuse(action, .notAllowed(action, "on the shipping-method step"), at: now)
        case .notPresented: return log.refuse(action, .notPresented, at: now)
        case .ended: return log.refuse(action, .finished, at: now)
        }
        let required = configuration.requiredShippingAddressFields
        if !address.isValid(required: required) {
            let missing = Self.missingFieldPaths(address, required: required)
            if !missing.isEmpty { return log.refuse(action, .missing(missing), at: now) }
            return log.refuse(action, .invalid(address.validate(required: required)), at: now)
        }

        log.record(action: action, .contact(address), at: now)
        if configuration.shippingType == .delivery {
            return end(.finished(address: address, shippingMethod: nil), at: now)  // spec S2
        }
        let outstanding = ledger.open(address, .didEnterAddress)
        state = .validating(outstanding)
        log.record(call: DelegateMethod.didEnterAddress.name, callbackID: outstanding.id, .contact(address), at: now)
        return .call(.didEnterAddress(address, id: outstanding.id))
    }

    /// Spec S4.
    package mutating func selectShippingMethod(_ identifier: String, at now: FlowInstant) -> Effect<Call> {
        let action = "selectShippingMethod"
        guard case .methodStep(let address, let methods, _) = state else {
            return refuseOutsideMethodStep(action, at: now)
        }
        guard let method = methods.first(where: { $0.identifier == identifier }) else {
            let refusal = Refusal(
                code: .unknownShippingMethod,
                message: "no shipping method has the identifier \(identifier.quotedForMessage)",
                fields: ["shippingMethod"]
            )
            return log.refuse(action, refusal, at: now)
        }
        log.record(action: action, .text(identifier), at: now)
        state = .methodStep(address: address, methods: methods, selected: method)
        return .none
    }

    /// Spec S4: back from the method step to the address step.
    package mutating func back(at now: FlowInstant) -> Effect<Call> {
        guard case .methodStep(let address, _, _) = state else {
            return refuseOutsideMethodStep("back", at: now)
        }
        _ = address
        log.record(.action("back", []), at: now)
        state = .addressStep(error: nil)
        return .none
    }

    /// Spec S4: finish with the selected method.
    package mutating func done(at now: FlowInstant) -> Effect<Call> {
        guard case .methodStep(let address, _, let selected) = state else {
            return refuseOutsideMethodStep("done", at: now)
        }
        log.record(.action("done", []), at: now)
        return end(.finished(address: address, shippingMethod: selected), at: now)
    }

    /// Spec S5, E3: cancel at any step, also while the merchant validates.
    package mutating func cancel(at now: FlowInstant) -> Effect<Call> {
        switch state {
        case .notPresented: return log.refuse("cancel", .notPresented, at: now)
        case .ended: return log.refuse("cancel", .finished, at: now)
        case .addressStep, .validating, .methodStep:
            log.record(.action("cancel", []), at: now)
            return end(.cancelled, at: now)
        }
    }

    // MARK: Delegate events

    /// The merchant answered `didEnterAddress` number `id`; `first` is false for a repeated call of
    /// the same completion.
    package mutating func answer(
        _ id: UInt64,
        first: Bool,
        _ validation: ShippingAddressValidation,
        at now: FlowInstant
    ) -> Effect<Call> {
        let method = DelegateMethod.didEnterAddress.name
        switch ledger.admit(id, first: first, outstanding: pendingID, at: now) {
        case .inTime:
            break
        case .repeated:
            return log.violated(.completionCalledTwice, method, id: id, at: now, "answered \(validation) again")
        case .late:
            return log.violated(
                .lateCompletion, method, id: id, at: now, "answered \(validation) after the callback ended")
        case .pastDeadline:
            // The deadline's own effect comes first: back to the address step, timed out.
            _ = deadlinePassed(id, at: now)
            return log.violated(
                .lateCompletion, method, id: id, at: now, "answered \(validation) at or after the deadline")
        }
        guard case .validating(let outstanding) = state else { preconditionFailure("callback #\(id) is outstanding") }
        log.recordCompletion(method, callbackID: id, answer: validation, byDefault: false, at: now)
        ledger.resolve(id, .answered(validation))
        let address = outstanding.callback
        switch validation {
        case .invalid(let message):
            state = .addressStep(error: message ?? Self.defaultInvalidMessage)
            return .none
        case .valid(let methods, let selected):
            guard let methods, let first = methods.first else {
                return end(.finished(address: address, shippingMethod: nil), at: now)
            }
            // Spec E7: unique identifiers, amounts of zero or more, one currency.
            let currency = configuration.currency ?? first.amount.currency
            let problems = ShippingMethod.problems(in: methods, currency: currency)
            if !problems.isEmpty {
                // Spec E7: the shipping flow treats an invalid update as an `invalid` answer.
                let detail = problems.map(\.message).joined(separator: "; ")
                state = .addressStep(error: Self.defaultInvalidMessage)
                return log.violated(.invalidUpdate, method, id: id, at: now, detail)
            }
            // Spec S3: the answer's selection, else the configuration's, else the first.
            let chosen =
                selected.flatMap { pick in methods.first { $0.identifier == pick.identifier } }
                ?? configuration.selectedShippingMethod.flatMap { pick in
                    methods.first { $0.identifier == pick.identifier }
                }
                ?? first
            state = .methodStep(address: address, methods: methods, selected: chosen)
            return .none
        }
    }

    /// Spec E4: the shipping flow returns to the address step with a timeout error.
    @usableFromInline package mutating func deadlinePassed(_ id: UInt64, at now: FlowInstant) -> Effect<Call> {
        guard pendingID == id, case .validating(let outstanding) = state else {
            return .none  // answered or cancelled in time; the timer is stale
        }
        let message = "The merchant did not answer in time"
        state = .addressStep(error: message)
        ledger.endUnanswered(id, outstanding.method, "timed out")
        return log.violated(
            .completionTimedOut, outstanding.method, id: id, at: now, "no answer by \(now.duration.secondsString)s")
    }

    // MARK: Helpers

    /// Ends the flow with `outcome` and asks for its terminal call (spec E5).
    private mutating func end(_ outcome: ShippingAddressOutcome, at now: FlowInstant) -> Effect<Call> {
        // A valid answer that finishes the flow keeps its resolution: the async driver gets it.
        if ledger.keepsResolutions, case .validating(let outstanding) = state {
            ledger.endUnanswered(outstanding.id, outstanding.method, "\(outcome)")
        }
        state = .ended(outcome)
        log.record(.outcome(outcome.description), at: now)
        switch outcome {
        case .finished(let address, let method):
            log.record(
                .call(
                    DelegateMethod.didFinish.name, callbackID: nil,
                    [.contact(address), .text(method?.identifier ?? "nil")]),
                at: now)
            return .call(.didFinish(address, method))
        case .cancelled:
            log.record(.call(DelegateMethod.didCancel.name, callbackID: nil, []), at: now)
            return .call(.didCancel)
        }
    }

    private mutating func refuseOutsideMethodStep(_ action: String, at now: FlowInstant) -> Effect<Call> {
        switch state {
        case .notPresented: log.refuse(action, .notPresented, at: now)
        case .ended: log.refuse(action, .finished, at: now)
        case .validating(let outstanding): log.refuse(action, .callbackPending(outstanding.method), at: now)
        case .addressStep, .methodStep: log.refuse(action, .notAllowed(action, "on the address step"), at: now)
        }
    }

    /// The missing required fields as paths: contact fields, and the address's own fields under
    /// `postalAddress.` when a postal address is required.
    static func missingFieldPaths(_ contact: Contact, required: Set<ContactField>) -> [String] {
        contact.missingFields(required: required).flatMap { field -> [String] in
            guard field == .postalAddress, let address = contact.postalAddress else {
                return [field.rawValue]
            }
            return address.missingFields.map { "postalAddress.\($0.rawValue)" }
        }
    }

}
