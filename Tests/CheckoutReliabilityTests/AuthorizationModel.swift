/// The payment-authorization flow as the spec (the `FlowRules` article of `CheckoutFlows`, E1-E9, A1-A9) describes it, written
/// again from the text and sharing no code with `PaymentAuthorizationStateMachine`: the oracle
/// the random sessions are checked against.
///
/// It predicts, for each driver action, merchant answer and clock jump, the refusal (if any), the
/// delegate calls, the violations and the outcome.
struct AuthorizationModel {
    /// What the harness's merchant answers with, so that the model knows the update's effect.
    enum Content: Hashable, CaseIterable {
        case plain
        /// Contact update: `shippingAddressUnserviceable` (blocks authorization).
        case blockingError
        /// Payment-method update: an error (blocks until another card).
        case cardError
        /// Coupon update: `couponCodeInvalid` (does not block).
        case couponError
        /// Contact or coupon update: a new list of methods, `["ground"]` only.
        case fewerMethods
        /// Contact update: an error of no particular kind (`unknown`), which blocks as every
        /// error of a contact update but a coupon's does (A2).
        case unknownError
        /// Contact or coupon update: an empty list of methods, none available, which blocks
        /// until another contact is selected (A2, A5, W3).
        case noMethods
        /// Any update: a negative grand total (E7).
        case invalid
        // Authorization results.
        case success
        case failure
        case failureShippingError
        case failureBillingError
        case pinRequired
        case pinLockout
    }

    enum Phase: Equatable {
        case notPresented
        case sheet
        case awaiting(id: Int, method: String, deadline: Int?)
        case ended(String)
    }

    let timeout: Int?
    var phase = Phase.notPresented
    var now = 0
    var nextID = 1
    var calls: [String] = []
    var violations: [String] = []
    /// Completions called once already (answered or late).
    var called: Set<Int> = []
    var methods = ["ground", "express"]
    var selected: String? = "ground"
    var contactChosen = false
    var contactBlocked = false
    var cardBlocked = false
    var awaitingPIN = false
    /// The callback's kind, by id, for the answer's effect.
    var pendingKind: [Int: String] = [:]
    /// A method selection waiting for its answer.
    var pendingMethod: String?

    /// A deliberately wrong model (it forgets E2's repeated completions), to prove the harness
    /// can fail.
    var forgetsRepeatedCompletions = false

    init(timeout: Int?) { self.timeout = timeout }

    var outcome: String? {
        if case .ended(let outcome) = phase { return outcome }
        return nil
    }

    // MARK: Driver

    private mutating func idle(_ action: String, pinAllowed: Bool = false) -> String? {
        switch phase {
        case .notPresented: return "notPresented"
        case .ended: return "finished"
        case .awaiting: return "callbackPending"
        case .sheet: return awaitingPIN && !pinAllowed ? "notAllowedInThisStep" : nil
        }
    }

    private mutating func open(_ method: String) -> Int {
        let id = nextID
        nextID += 1
        phase = .awaiting(id: id, method: method, deadline: timeout.map { now + $0 })
        pendingKind[id] = method
        calls.append(method)
        return id
    }

    /// Returns the refusal code, or nil when accepted.
    mutating func present() -> String? {
        switch phase {
        case .notPresented:
            phase = .sheet
            return nil
        case .ended: return "finished"
        default: return "alreadyPresented"
        }
    }

    mutating func selectShippingContact() -> String? {
        if let refusal = idle("selectShippingContact") { return refusal }
        _ = open("didSelectShippingContact")
        return nil
    }

    mutating func selectShippingMethod(_ identifier: String) -> String? {
        if let refusal = idle("selectShippingMethod") { return refusal }
        guard methods.contains(identifier) else { return "unknownShippingMethod" }
        pendingMethod = identifier
        _ = open("didSelectShippingMethod")
        return nil
    }

    mutating func selectPaymentMethod() -> String? {
        if let refusal = idle("selectPaymentMethod") { return refusal }
        _ = open("didSelectPaymentMethod")
        return nil
    }

    mutating func changeCouponCode(supported: Bool) -> String? {
        if let refusal = idle("changeCouponCode") { return refusal }
        guard supported else { return "couponCodesNotSupported" }
        _ = open("didChangeCouponCode")
        return nil
    }

    mutating func authorize() -> String? {
        if let refusal = idle("authorize", pinAllowed: true) { return refusal }
        if contactBlocked || cardBlocked { return "blockedByError" }
        if !contactChosen { return "missingRequiredFields" }
        calls.append("willAuthorizePayment")
        _ = open("didAuthorizePayment")
        return nil
    }

    mutating func cancel() -> String? {
        switch phase {
        case .notPresented: return "notPresented"
        case .ended: return "finished"
        default:
            end("cancelled")
            return nil
        }
    }

    private mutating func end(_ outcome: String) {
        phase = .ended(outcome)
        calls.append("didFinish")
    }

    // MARK: Merchant and clock

    /// The merchant calls the completion of callback `id` with `content`.
    mutating func answer(_ id: Int, _ content: Content) {
        guard called.insert(id).inserted || forgetsRepeatedCompletions else {
            violations.append("completionCalledTwice")
            return
        }
        guard case .awaiting(let current, let method, _) = phase, current == id else {
            violations.append("lateCompletion")
            return
        }
        if content == .invalid && method != "didAuthorizePayment" {
            violations.append("invalidUpdate")
            end("failed(violation(invalidUpdate))")
            return
        }
        phase = .sheet
        switch method {
        case "didSelectShippingContact":
            contactChosen = true
            contactBlocked = [.blockingError, .unknownError, .noMethods].contains(content)
            if content == .fewerMethods { replaceMethods(["ground"]) }
            if content == .noMethods { replaceMethods([]) }
        case "didSelectShippingMethod":
            selected = pendingMethod
        case "didSelectPaymentMethod":
            cardBlocked = content == .cardError
        case "didChangeCouponCode":
            if content == .fewerMethods { replaceMethods(["ground"]) }
            if content == .noMethods {
                replaceMethods([])
                contactBlocked = true
            }
        default:  // didAuthorizePayment
            switch content {
            case .success: end("success")
            case .pinLockout: end("failed(pinLockout)")
            case .pinRequired: awaitingPIN = true
            case .failureShippingError:
                awaitingPIN = false
                contactBlocked = true
            default: awaitingPIN = false
            }
        }
    }

    private mutating func replaceMethods(_ list: [String]) {
        methods = list
        if let selected, !list.contains(selected) { self.selected = list.first }
    }

    /// Virtual time moves to `time`; a deadline at or before it fires.
    mutating func advance(to time: Int) {
        if case .awaiting(_, _, .some(let deadline)) = phase, deadline <= time {
            now = deadline
            violations.append("completionTimedOut")
            end("timedOut")
        }
        now = time
    }
}
