import CheckoutCore

/// The members the merchant's Apple Pay answers with a new total share.
protocol ApplePayTotalUpdate {
    var newTotal: ApplePayLineItem { get }
    var newLineItems: [ApplePayLineItem]? { get }
    var newShippingMethods: [ApplePayShippingMethod]? { get }
    var newRecurringPaymentRequest: JSONValue? { get }
    var newAutomaticReloadPaymentRequest: JSONValue? { get }
    var newMultiTokenContexts: JSONValue? { get }
    var newDeferredPaymentRequest: JSONValue? { get }
    var newDisbursementRequest: JSONValue? { get }
    /// The errors for the sheet; nil for an update that has none.
    var sheetErrors: [ApplePayError]? { get }
}

extension ApplePayTotalUpdate {
    /// What WebKit checks of every merchant answer that carries a new total (`ApplePaySession.cpp`'s
    /// conversions of the update dictionaries): the new total as a total, the new line items as
    /// line items, the new shipping methods as the request's; `errors` from version 3; the `new…`
    /// extension members from version 14 (``ApplePayVersion``).
    func checkUpdate(version: Int) throws {
        let version = try ApplePayVersion.check(version)
        try ApplePayAmountRules.checkTotal(newTotal, version: version, path: "newTotal")
        try ApplePayAmountRules.checkLineItems(newLineItems, path: "newLineItems")
        try ApplePayAmountRules.checkShippingMethods(newShippingMethods, version: version, path: "newShippingMethods")
        try ApplePayVersion.require(
            ApplePayVersion.errorsAndCountries, for: "errors", present: !(sheetErrors ?? []).isEmpty, in: version)
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
