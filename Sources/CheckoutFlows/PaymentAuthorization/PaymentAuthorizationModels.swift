import CheckoutCore

/// What the merchant answered during an authorization flow.
public enum PaymentAuthorizationAnswer: Hashable, Sendable, CustomStringConvertible {
    /// The answer to `didSelectShippingContact`.
    case shippingContact(ShippingContactUpdate)
    /// The answer to `didSelectShippingMethod`.
    case shippingMethod(ShippingMethodUpdate)
    /// The answer to `didSelectPaymentMethod`.
    case paymentMethod(PaymentMethodUpdate)
    /// The answer to `didChangeCouponCode`.
    case couponCode(CouponCodeUpdate)
    /// The answer to `didAuthorizePayment`.
    case authorization(PaymentAuthorizationResult)
    /// The answer to `didRequestMerchantSessionUpdate`.
    case merchantSession(MerchantSessionUpdate)

    /// A summary of the answer (update type, grand total, methods, errors), without personal
    /// data.
    public var description: String {
        func items(_ items: [SummaryItem]) -> String {
            "total \(items.last.map { $0.amount.description } ?? "none") in \(items.count) items"
        }
        func errors(_ errors: [PaymentError]) -> String {
            errors.isEmpty ? "" : ", errors: [" + errors.map(\.description).joined(separator: "; ") + "]"
        }
        func methods(_ methods: [ShippingMethod]?) -> String {
            methods.map { ", methods: [" + $0.map(\.identifier).joined(separator: ", ") + "]" } ?? ""
        }
        switch self {
        case .shippingContact(let update):
            return "ShippingContactUpdate(\(items(update.summaryItems))\(methods(update.shippingMethods))"
                + "\(errors(update.errors)))"
        case .shippingMethod(let update):
            return "ShippingMethodUpdate(\(items(update.summaryItems)))"
        case .paymentMethod(let update):
            return "PaymentMethodUpdate(\(items(update.summaryItems))\(errors(update.errors)))"
        case .couponCode(let update):
            return "CouponCodeUpdate(\(items(update.summaryItems))\(methods(update.shippingMethods))"
                + "\(errors(update.errors)))"
        case .authorization(let result):
            return "PaymentAuthorizationResult(\(result.status)\(errors(result.errors)))"
        case .merchantSession(let update):
            return "MerchantSessionUpdate(\(update.status))"
        }
    }

    var isDefaultAnswer: Bool {
        switch self {
        case .shippingContact(let update): update.isDefaultAnswer
        case .shippingMethod(let update): update.isDefaultAnswer
        case .paymentMethod(let update): update.isDefaultAnswer
        case .couponCode(let update): update.isDefaultAnswer
        case .authorization: false
        case .merchantSession(let update): update.isDefaultAnswer
        }
    }
}

extension PaymentAuthorizationAnswer {
    /// The update's summary items (none for an authorization result).
    fileprivate var updatedSummaryItems: [SummaryItem] {
        switch self {
        case .shippingContact(let update): update.summaryItems
        case .shippingMethod(let update): update.summaryItems
        case .paymentMethod(let update): update.summaryItems
        case .couponCode(let update): update.summaryItems
        case .authorization, .merchantSession: []
        }
    }

    /// The update's shipping methods, when it carries a list (as each update type says: the
    /// shipping-method and payment-method updates never do).
    fileprivate var updatedShippingMethods: [ShippingMethod]? {
        switch self {
        case .shippingContact(let update): update.shippingMethods
        case .shippingMethod(let update): update.shippingMethods
        case .paymentMethod(let update): update.shippingMethods
        case .couponCode(let update): update.shippingMethods
        case .authorization, .merchantSession: nil
        }
    }

    /// The update's errors (the result's, for an authorization).
    fileprivate var updatedErrors: [PaymentError] {
        switch self {
        case .shippingContact(let update): update.errors
        case .shippingMethod(let update): update.errors
        case .paymentMethod(let update): update.errors
        case .couponCode(let update): update.errors
        case .authorization(let result): result.errors
        case .merchantSession: []
        }
    }

    /// Whether the update fits the request (spec E7), decided without building an error; an
    /// authorization result always does.
    @inline(__always)
    func fits(_ request: PaymentRequest) -> Bool {
        // (Per case: read through the `updated...` accessors above, the check cost more.)
        switch self {
        case .shippingContact(let update):
            request.fits(summaryItems: update.summaryItems, shippingMethods: update.shippingMethods)
        case .shippingMethod(let update):
            request.fits(summaryItems: update.summaryItems, shippingMethods: update.shippingMethods)
        case .paymentMethod(let update):
            request.fits(summaryItems: update.summaryItems, shippingMethods: update.shippingMethods)
        case .couponCode(let update):
            request.fits(summaryItems: update.summaryItems, shippingMethods: update.shippingMethods)
        case .authorization, .merchantSession: true
        }
    }

    /// Why the update does not fit the request (spec E7): empty when it does.
    func problems(against request: PaymentRequest) -> [CheckoutError] {
        switch self {
        case .shippingContact(let update): request.problems(in: update)
        case .shippingMethod(let update): request.problems(in: update)
        case .paymentMethod(let update): request.problems(in: update)
        case .couponCode(let update): request.problems(in: update)
        case .authorization, .merchantSession: []
        }
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
/// chosen contact and card, the coupon, and the errors shown.
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
    /// Errors that block authorization until another shipping contact is selected.
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
    }

    private var rest: CopyOnWrite<Rest>
    private static let nothingElse = CopyOnWrite(Rest())

    init(
        summaryItems: [SummaryItem],
        shippingMethods: [ShippingMethod],
        selectedShippingMethodID: String?,
        couponCode: String?
    ) {
        self.summaryItems = summaryItems
        self.shippingMethods = shippingMethods
        self.selectedShippingMethodID = selectedShippingMethodID
        rest = couponCode == nil ? Self.nothingElse : CopyOnWrite(Rest(couponCode: couponCode))
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

    /// Applies the merchant's update to the callback it answers (spec A2-A5): the selection the
    /// customer made, the new summary, the methods and errors the update carries. An authorization
    /// result is applied by the flow (spec A7): it may end it.
    @inline(__always)
    mutating func apply(_ answer: PaymentAuthorizationAnswer, to callback: PaymentAuthorizationStateMachine.Callback) {
        // The callback, then the answer: a switch over the pair would copy both. The update's
        // lists are read through the answer, not a binding of the update, which copied it whole.
        switch callback {
        case .shippingContact(let contact):
            guard case .shippingContact = answer else { break }
            shippingContact = contact
            summaryItems = answer.updatedSummaryItems
            replaceMethods(answer.updatedShippingMethods)
            shippingContactErrors = answer.updatedErrors.filter(\.isShippingContactError)
            shownErrors = answer.updatedErrors
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
            shownErrors = answer.updatedErrors
            return
        case .authorization, .merchantSession:
            break
        }
        Self.mismatched(answer)
    }

    /// ``apply(_:to:)``'s trap, out of line.
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

extension PaymentAuthorizationAnswer: TranscriptModel {
    /// The update or result in CheckoutCore's JSON (spec E8).
    package var transcriptJSON: String? {
        switch self {
        case .shippingContact(let update): TranscriptValue.modelJSON(update)
        case .shippingMethod(let update): TranscriptValue.modelJSON(update)
        case .paymentMethod(let update): TranscriptValue.modelJSON(update)
        case .couponCode(let update): TranscriptValue.modelJSON(update)
        case .authorization(let result): TranscriptValue.modelJSON(result)
        // The session itself is never recorded (spec W5).
        case .merchantSession(let update):
            update.merchantSession == nil
                ? "{\"status\":\"\(update.status.rawValue)\"}"
                : "{\"status\":\"\(update.status.rawValue)\",\"merchantSession\":\"not shown\"}"
        }
    }
}
