import CheckoutCore

extension PaymentAuthorizationAnswer: CustomStringConvertible {
    /// A summary of the answer (update type, grand total, methods, errors, the terms it sets),
    /// without personal data.
    public var description: String {
        func terms(_ terms: PaymentTerms) -> String {
            var parts: [String] = []
            if let request = terms.recurringPaymentRequest { parts.append("recurring: \(request.regularBilling)") }
            if let request = terms.automaticReloadPaymentRequest {
                parts.append("automaticReload: \(request.automaticReloadBilling)")
            }
            if let request = terms.deferredPaymentRequest { parts.append("deferred: \(request.deferredBilling)") }
            if let contexts = terms.multiTokenContexts { parts.append("multiTokenContexts: \(contexts)") }
            return parts.map { ", " + $0 }.joined()
        }
        func items(_ items: [SummaryItem]) -> String {
            "total \(items.last.map { $0.amount.description } ?? "none") in \(items.count) items"
        }
        func errors(_ errors: [PaymentError]) -> String {
            errors.isEmpty ? "" : ", errors: [" + errors.map(\.description).joined(separator: "; ") + "]"
        }
        func methods(_ methods: [ShippingMethod]?) -> String {
            methods.map { ", methods: [" + $0.map(\.identifier).joined(separator: ", ") + "]" } ?? ""
        }
        // The answers worded here; another (a callback added since) is described by its model.
        if case .shippingContact(let update) = self {
            return "ShippingContactUpdate(\(items(update.summaryItems))\(methods(update.shippingMethods))"
                + "\(errors(update.errors))\(terms(update.terms)))"
        }
        if case .shippingMethod(let update) = self {
            return "ShippingMethodUpdate(\(items(update.summaryItems))\(terms(update.terms)))"
        }
        if case .paymentMethod(let update) = self {
            return "PaymentMethodUpdate(\(items(update.summaryItems))\(errors(update.errors))\(terms(update.terms)))"
        }
        if case .couponCode(let update) = self {
            return "CouponCodeUpdate(\(items(update.summaryItems))\(methods(update.shippingMethods))"
                + "\(errors(update.errors))\(terms(update.terms)))"
        }
        if case .authorization(let result) = self {
            return "PaymentAuthorizationResult(\(result.status)\(errors(result.errors)))"
        }
        if case .merchantSession(let update) = self { return "MerchantSessionUpdate(\(update.status))" }
        return modelDescription
    }
}

/// Why an authorization flow failed.
public enum PaymentAuthorizationFailure: Hashable, Sendable, CustomStringConvertible {
    /// The merchant answered with an update that does not fit the request (spec E7).
    case violation(Violation)
    /// The merchant answered `pinLockout`.
    case pinLockout
    /// The merchant could not get a merchant session (spec W5): Apple Pay's sheet ends then.
    case merchantValidation

    /// `violation(kind)`, `pinLockout` or `merchantValidation`.
    public var description: String {
        switch self {
        case .violation(let violation): "violation(\(violation.kind))"
        case .pinLockout: "pinLockout"
        case .merchantValidation: "merchantValidation"
        }
    }
}

/// How an authorization flow ended.
public enum PaymentAuthorizationOutcome: Hashable, Sendable, CustomStringConvertible {
    /// The merchant answered `didAuthorizePayment` with success for this payment (PassKit's
    /// `PKPaymentAuthorizationStatus.success`).
    case success(Payment)
    /// The customer cancelled (spec A8).
    case cancelled
    /// A callback's deadline passed (spec E4).
    case timedOut
    /// The flow failed.
    case failed(PaymentAuthorizationFailure)

    /// `success`, `cancelled`, `timedOut` or `failed(reason)`; the payment is not shown.
    public var description: String {
        switch self {
        case .success: "success"
        case .cancelled: "cancelled"
        case .timedOut: "timedOut"
        case .failed(let failure): "failed(\(failure))"
        }
    }
}

/// The sheet as the customer sees it: the current summary, shipping methods and selection, the
/// chosen contact and card, the coupon, the errors shown, and the payment's terms (recurring,
/// automatic-reload or deferred request, multi-token contexts) as the request set them and the
/// merchant's updates replaced them.
public struct PaymentSheet: Hashable, Sendable {
    /// The summary items; the last is the grand total.
    public internal(set) var summaryItems: [SummaryItem]
    /// The shipping methods offered.
    public internal(set) var shippingMethods: [ShippingMethod]
    /// The selected shipping method's identifier.
    public internal(set) var selectedShippingMethodID: String?
    /// The selected shipping contact, in full.
    public internal(set) var shippingContact: Contact?
    /// The selected payment method.
    public internal(set) var paymentMethod: PaymentMethod? {
        get { rest.value.paymentMethod }
        _modify { yield &rest.value.paymentMethod }
    }
    /// The coupon code applied.
    public internal(set) var couponCode: String? {
        get { rest.value.couponCode }
        _modify { yield &rest.value.couponCode }
    }
    /// Errors that block authorization until another shipping contact is selected: every error
    /// of the last shipping-contact update but a coupon's, the error an empty list of methods
    /// stands for, and the shipping-contact errors of a failed authorization (spec A2, A5, A7).
    public internal(set) var shippingContactErrors: [PaymentError] {
        get { rest.value.shippingContactErrors }
        _modify { yield &rest.value.shippingContactErrors }
    }
    /// Errors that block authorization until another payment method is selected.
    public internal(set) var paymentMethodErrors: [PaymentError] {
        get { rest.value.paymentMethodErrors }
        _modify { yield &rest.value.paymentMethodErrors }
    }
    /// The errors last shown (blocking or not).
    public internal(set) var shownErrors: [PaymentError] {
        get { rest.value.shownErrors }
        _modify { yield &rest.value.shownErrors }
    }
    /// The recurring payment request in force: the request's, or the last update's that set one.
    public var recurringPaymentRequest: RecurringPaymentRequest? { rest.value.terms.recurringPaymentRequest }
    /// The automatic-reload payment request in force.
    public var automaticReloadPaymentRequest: AutomaticReloadPaymentRequest? {
        rest.value.terms.automaticReloadPaymentRequest
    }
    /// The deferred payment request in force.
    public var deferredPaymentRequest: DeferredPaymentRequest? { rest.value.terms.deferredPaymentRequest }
    /// The multi-token contexts in force; empty for a single merchant.
    public var multiTokenContexts: [PaymentTokenContext] { rest.value.terms.multiTokenContexts ?? [] }
    /// The four above, as one value.
    var terms: PaymentTerms {
        get { rest.value.terms }
        set { rest.value.terms = newValue }
    }
    /// Whether the merchant asked for the PIN; the next authorization is the re-entry. (Inline:
    /// every customer action reads it.)
    public internal(set) var isAwaitingPIN = false

    /// What a sheet shows besides its summary, methods and contact, in one box (copy on write)
    /// that sheets without any share: inline it would make every session about 50 bytes larger.
    /// (A contact is one reference already: ``Contact`` is copy on write.)
    private struct Rest: Hashable, Sendable {
        var paymentMethod: PaymentMethod?
        var couponCode: String?
        var shippingContactErrors: [PaymentError] = []
        var paymentMethodErrors: [PaymentError] = []
        var shownErrors: [PaymentError] = []
        var terms = PaymentTerms()
    }

    private var rest: CopyOnWrite<Rest>
    private static let nothingElse = CopyOnWrite(Rest())

    init(
        summaryItems: [SummaryItem],
        shippingMethods: [ShippingMethod],
        selectedShippingMethodID: String?,
        couponCode: String?,
        terms: PaymentTerms = PaymentTerms()
    ) {
        self.summaryItems = summaryItems
        self.shippingMethods = shippingMethods
        self.selectedShippingMethodID = selectedShippingMethodID
        rest =
            couponCode == nil && terms.isEmpty
            ? Self.nothingElse : CopyOnWrite(Rest(couponCode: couponCode, terms: terms))
    }

    /// The selected shipping method.
    public var selectedShippingMethod: ShippingMethod? {
        shippingMethods.first { $0.identifier == selectedShippingMethodID }
    }

    /// The grand total.
    public var grandTotal: Money? { summaryItems.last?.amount }
}

extension PaymentSheet {
    /// The sheet of a flow that shows none (before it is presented, after it ends): empty.
    static let hidden = PaymentSheet(
        summaryItems: [], shippingMethods: [], selectedShippingMethodID: nil, couponCode: nil)

    /// Whether the terms `answer` sets fit `request` with the terms in force (spec E7, W8): decided
    /// at once when neither has any, as for nearly every answer.
    @inline(__always)
    func admitsTerms(of answer: PaymentAuthorizationAnswer, setsTerms: Bool, in request: PaymentRequest) -> Bool {
        if !setsTerms && terms.isEmpty { return true }
        return request.termsFit(answer.updatedTerms, summaryItems: answer.updatedSummaryItems, current: terms)
    }

    /// Why `answer` does not fit `request` with the terms in force (spec E7): its summary, its
    /// methods, its terms. Empty when it does.
    func problems(of answer: PaymentAuthorizationAnswer, against request: PaymentRequest) -> [CheckoutError] {
        answer.problems(against: request, current: terms)
    }

    /// Applies the merchant's update to the callback it answers (spec A2-A5): the selection the
    /// customer made, the new summary, the methods, errors and terms the update carries. An
    /// authorization result is applied by the flow (spec A7): it may end it.
    @inline(__always)
    mutating func apply(
        _ answer: PaymentAuthorizationAnswer, setsTerms: Bool, to callback: PaymentAuthorizationStateMachine.Callback
    ) {
        // The terms an update sets replace those in force (W8); most updates set none.
        if setsTerms { terms = answer.updatedTerms.replacing(terms) }
        // The callback, then the answer: a switch over the pair would copy both. The update's
        // lists are read through the answer, not a binding of the update, which copied it whole.
        switch callback {
        case .shippingContact(let contact):
            guard case .shippingContact = answer else { break }
            shippingContact = contact
            summaryItems = answer.updatedSummaryItems
            replaceMethods(answer.updatedShippingMethods)
            if case .shippingContact(let update) = answer {
                // Spec A2, W3: every error but a coupon's blocks, and so does an empty list.
                shippingContactErrors = update.blockingErrors
                shownErrors = update.shownErrors
            }
            return
        case .shippingMethod(let identifier):
            guard case .shippingMethod = answer else { break }
            selectedShippingMethodID = identifier
            summaryItems = answer.updatedSummaryItems
            return
        case .paymentMethod(let method):
            guard case .paymentMethod = answer else { break }
            paymentMethod = method
            summaryItems = answer.updatedSummaryItems
            paymentMethodErrors = answer.updatedErrors
            shownErrors = answer.updatedErrors
            return
        case .couponCode(let code):
            guard case .couponCode = answer else { break }
            couponCode = code
            summaryItems = answer.updatedSummaryItems
            replaceMethods(answer.updatedShippingMethods)
            if case .couponCode(let update) = answer {
                // Spec A5, W3: a coupon's errors do not block; an empty list of methods does.
                shippingContactErrors += update.blockingErrors
                shownErrors = update.shownErrors
            }
            return
        default:
            // An answer that does not update the sheet (its callback's own handling takes it), or
            // a new sheet update without its arm here: the trap below names it.
            break
        }
        Self.mismatched(answer)
    }

    /// ``apply(_:setsTerms:to:)``'s trap, out of line.
    @inline(never)
    private static func mismatched(_ answer: PaymentAuthorizationAnswer) -> Never {
        preconditionFailure("\(answer) does not answer this callback, or is not a sheet update")
    }

    /// Spec A2, A5: a list replaces the methods; when the selection is gone, the first is selected.
    private mutating func replaceMethods(_ methods: [ShippingMethod]?) {
        guard let methods else { return }
        shippingMethods = methods
        if !methods.contains(where: { $0.identifier == selectedShippingMethodID }) {
            selectedShippingMethodID = methods.first?.identifier
        }
    }
}

extension PaymentSheet: CustomReflectable {
    /// The fields, as a struct's own (some are kept in a shared box, which a default mirror would
    /// show instead).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "summaryItems": summaryItems, "shippingMethods": shippingMethods,
                "selectedShippingMethodID": selectedShippingMethodID as Any, "shippingContact": shippingContact as Any,
                "paymentMethod": paymentMethod as Any, "couponCode": couponCode as Any,
                "shippingContactErrors": shippingContactErrors, "paymentMethodErrors": paymentMethodErrors,
                "shownErrors": shownErrors, "isAwaitingPIN": isAwaitingPIN,
                "recurringPaymentRequest": recurringPaymentRequest as Any,
                "automaticReloadPaymentRequest": automaticReloadPaymentRequest as Any,
                "deferredPaymentRequest": deferredPaymentRequest as Any, "multiTokenContexts": multiTokenContexts,
            ],
            displayStyle: .struct
        )
    }
}

/// The steps of an authorization flow, for the driver.
public enum PaymentAuthorizationStep: Hashable, Sendable {
    /// The sheet has not been presented yet.
    case notPresented
    /// The sheet is shown and waits for the customer.
    case sheet
    /// The sheet waits for the merchant's answer to this delegate method.
    case awaiting(String)
    /// The flow has ended with this outcome.
    case ended(PaymentAuthorizationOutcome)
}

extension MerchantSessionUpdate {
    /// The update for a transcript: its status, and whether a session came, never the session
    /// (spec W5).
    package var transcriptJSON: String? {
        merchantSession == nil
            ? "{\"status\":\"\(status.rawValue)\"}"
            : "{\"status\":\"\(status.rawValue)\",\"merchantSession\":\"not shown\"}"
    }
}
