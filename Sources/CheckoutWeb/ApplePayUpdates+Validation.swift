import CheckoutCore

/// The members the merchant's Apple Pay answers with a new total share.
protocol ApplePayTotalUpdate {
    var newTotal: ApplePayLineItem { get }
    var newLineItems: [ApplePayLineItem]? { get }
    var newShippingMethods: [ApplePayShippingMethod]? { get }
    var newRecurringPaymentRequest: ApplePayRecurringPaymentRequest? { get set }
    var newAutomaticReloadPaymentRequest: ApplePayAutomaticReloadPaymentRequest? { get set }
    var newMultiTokenContexts: [ApplePayPaymentTokenContext]? { get set }
    var newDeferredPaymentRequest: ApplePayDeferredPaymentRequest? { get set }
    var newDisbursementRequest: JSONValue? { get }
    /// The errors for the sheet; nil for an update that has none.
    var sheetErrors: [ApplePayError]? { get }
}

extension ApplePayTotalUpdate {
    /// The four members that set the payment's terms.
    var termsMembers: ApplePayPaymentTermsMembers {
        get {
            ApplePayPaymentTermsMembers(
                recurringPaymentRequest: newRecurringPaymentRequest,
                automaticReloadPaymentRequest: newAutomaticReloadPaymentRequest,
                deferredPaymentRequest: newDeferredPaymentRequest, multiTokenContexts: newMultiTokenContexts)
        }
        set {
            newRecurringPaymentRequest = newValue.recurringPaymentRequest
            newAutomaticReloadPaymentRequest = newValue.automaticReloadPaymentRequest
            newDeferredPaymentRequest = newValue.deferredPaymentRequest
            newMultiTokenContexts = newValue.multiTokenContexts
        }
    }

    /// Whether the update sets any of the payment's terms.
    var hasTerms: Bool {
        newRecurringPaymentRequest != nil || newAutomaticReloadPaymentRequest != nil || newMultiTokenContexts != nil
            || newDeferredPaymentRequest != nil
    }

    /// Sets the four terms members from a core update's terms; nothing is built when there are
    /// none, as in nearly every update.
    mutating func setTerms(_ terms: PaymentTerms) {
        if !terms.isEmpty { termsMembers = ApplePayPaymentTermsMembers(terms) }
    }

    /// What WebKit checks of every merchant answer that carries a new total (`ApplePaySession.cpp`'s
    /// conversions of the update dictionaries): the new total as a total, the new line items as
    /// line items, the new shipping methods as the request's; `errors` from version 3; the `new…`
    /// extension members from version 14 (``ApplePayVersion``), the amounts of their line items
    /// and token contexts as amounts. (Their rules against the request, such as contexts adding
    /// up to at most the total, are the flow's: spec E7.)
    func checkUpdate(version: Int) throws {
        let version = try ApplePayVersion.check(version)
        try ApplePayAmountRules.checkTotal(newTotal, version: version, path: "newTotal")
        try ApplePayAmountRules.checkLineItems(newLineItems, path: "newLineItems")
        try ApplePayAmountRules.checkShippingMethods(newShippingMethods, version: version, path: "newShippingMethods")
        try ApplePayVersion.require(
            ApplePayVersion.errorsAndCountries, for: "errors", present: !(sheetErrors ?? []).isEmpty, in: version)
        if version < ApplePayVersion.recurring {
            let extensionMembers: [(String, Bool)] = [
                ("newRecurringPaymentRequest", newRecurringPaymentRequest != nil),
                ("newAutomaticReloadPaymentRequest", newAutomaticReloadPaymentRequest != nil),
                ("newMultiTokenContexts", newMultiTokenContexts != nil),
                ("newDeferredPaymentRequest", newDeferredPaymentRequest != nil),
                ("newDisbursementRequest", newDisbursementRequest != nil),
            ]
            for (path, present) in extensionMembers {
                try ApplePayVersion.require(ApplePayVersion.recurring, for: path, present: present, in: version)
            }
        }
        // Nearly every update sets no terms: their members are not gathered then.
        if hasTerms { try termsMembers.checkAmounts(update: true) }
    }
}

extension ApplePayShippingContactUpdate: ApplePayTotalUpdate {
    var sheetErrors: [ApplePayError]? { errors }

    /// Checks the update as WebKit does in `completeShippingContactSelection` for `version`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path (`newTotal.amount`,
    ///   `newShippingMethods[1].identifier`, `errors`, ...).
    public func validate(version: Int) throws { try checkUpdate(version: version) }
}

extension ApplePayShippingMethodUpdate: ApplePayTotalUpdate {
    var sheetErrors: [ApplePayError]? { nil }

    /// Checks the update as WebKit does in `completeShippingMethodSelection` for `version`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path.
    public func validate(version: Int) throws { try checkUpdate(version: version) }
}

extension ApplePayPaymentMethodUpdate: ApplePayTotalUpdate {
    var sheetErrors: [ApplePayError]? { errors }

    /// Checks the update as WebKit does in `completePaymentMethodSelection` for `version`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path.
    public func validate(version: Int) throws { try checkUpdate(version: version) }
}

extension ApplePayCouponCodeUpdate: ApplePayTotalUpdate {
    var sheetErrors: [ApplePayError]? { errors }

    /// Checks the update as WebKit does in `completeCouponCodeChange` for `version` (coupon codes
    /// exist from version 12: an older version is refused naming `version`).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path.
    public func validate(version: Int) throws {
        try ApplePayVersion.require(ApplePayVersion.couponCodes, for: "version", in: version)
        try checkUpdate(version: version)
    }
}

extension ApplePayPaymentAuthorizationResult {
    /// Checks the result as WebKit does in `completePayment` for `version`: a status code 0 to 7
    /// (any other is an `InvalidAccessError`), `errors` from version 3.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `status`, `errors` or `version`.
    public func validate(version: Int) throws {
        let version = try ApplePayVersion.check(version)
        _ = try core()
        try ApplePayVersion.require(
            ApplePayVersion.errorsAndCountries, for: "errors", present: !(errors ?? []).isEmpty, in: version)
    }
}
