import CheckoutCore

/// Apple Pay on the web's `ApplePayShippingContactUpdate`, what the page passes to
/// `completeShippingContactSelection`.
///
/// Conversion from ``/CheckoutCore/ShippingContactUpdate`` (``init(_:)``): the last summary item is
/// `newTotal`, the others `newLineItems`; errors map as ``ApplePayError`` says; shipping methods
/// nil are absent, a list is `newShippingMethods`, and an empty list (none available) becomes no
/// list, the errors being the update's shown errors, which then hold the blocking error it
/// stands for (``/CheckoutCore/ShippingContactUpdate/shownErrors``: `addressUnserviceable` unless the merchant
/// gave a blocking error; spec A2, W3). To the core (``core(currency:)``): `newShippingMethods` absent or empty is nil (no
/// change), as Apple Pay reads it. Today's Apple Pay members (`newRecurringPaymentRequest`,
/// `newAutomaticReloadPaymentRequest`, `newDeferredPaymentRequest`, `newMultiTokenContexts`) are
/// carried both ways as the core update's terms; `newDisbursementRequest` is kept as
/// ``/CheckoutCore/JSONValue`` and has no core counterpart.
public struct ApplePayShippingContactUpdate: Codable, Hashable, Sendable {
    /// The new total.
    public var newTotal: ApplePayLineItem
    /// The new lines above the total.
    public var newLineItems: [ApplePayLineItem]?
    /// Errors for the sheet.
    public var errors: [ApplePayError]?
    /// The new shipping methods; absent or empty means no change.
    public var newShippingMethods: [ApplePayShippingMethod]?
    /// A new recurring payment request; absent leaves the current one.
    public var newRecurringPaymentRequest: ApplePayRecurringPaymentRequest?
    /// A new automatic reload payment request; absent leaves the current one.
    public var newAutomaticReloadPaymentRequest: ApplePayAutomaticReloadPaymentRequest?
    /// New multi-merchant token contexts; absent leaves the current ones.
    public var newMultiTokenContexts: [ApplePayPaymentTokenContext]?
    /// A new deferred payment request; absent leaves the current one.
    public var newDeferredPaymentRequest: ApplePayDeferredPaymentRequest?
    /// A new disbursement request, kept as it is.
    public var newDisbursementRequest: JSONValue?

    /// An update; only the new total is needed.
    public init(
        newTotal: ApplePayLineItem,
        newLineItems: [ApplePayLineItem]? = nil,
        errors: [ApplePayError]? = nil,
        newShippingMethods: [ApplePayShippingMethod]? = nil,
        newRecurringPaymentRequest: ApplePayRecurringPaymentRequest? = nil,
        newAutomaticReloadPaymentRequest: ApplePayAutomaticReloadPaymentRequest? = nil,
        newMultiTokenContexts: [ApplePayPaymentTokenContext]? = nil,
        newDeferredPaymentRequest: ApplePayDeferredPaymentRequest? = nil,
        newDisbursementRequest: JSONValue? = nil
    ) {
        self.newTotal = newTotal
        self.newLineItems = newLineItems
        self.errors = errors
        self.newShippingMethods = newShippingMethods
        self.newRecurringPaymentRequest = newRecurringPaymentRequest
        self.newAutomaticReloadPaymentRequest = newAutomaticReloadPaymentRequest
        self.newMultiTokenContexts = newMultiTokenContexts
        self.newDeferredPaymentRequest = newDeferredPaymentRequest
        self.newDisbursementRequest = newDisbursementRequest
    }

    /// The core update in Apple's members (see the type's discussion).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `summaryItems` when there are none, or `errors[i].code`
    ///   for an error code Apple Pay does not have.
    public init(_ core: ShippingContactUpdate) throws {
        let (newTotal, newLineItems) = try appleTotalAndLineItems(core.summaryItems, field: "summaryItems")
        self.init(
            newTotal: newTotal, newLineItems: newLineItems,
            errors: try appleErrors(core.shownErrors, path: "errors"),
            newShippingMethods: appleShippingMethods(core.shippingMethods))
        setTerms(core.terms)
    }

    /// The core update, amounts read in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the amount's path (`newTotal.amount`,
    ///   `newLineItems[0].amount`, `newShippingMethods[1].amount`, ...).
    public func core(currency: CurrencyCode) throws -> ShippingContactUpdate {
        let parts = try CoreUpdateParts(
            newTotal: newTotal, newLineItems: newLineItems, newShippingMethods: newShippingMethods, errors: errors,
            currency: currency)
        let terms = try termsMembers.core(currency: currency, update: true)
        var update = ShippingContactUpdate(
            errors: parts.errors, summaryItems: parts.summaryItems, shippingMethods: parts.shippingMethods)
        update.terms = terms
        return update
    }

    /// The extension members present that the core update has no place for
    /// (`newDisbursementRequest`).
    public var membersWithoutCoreCounterpart: [String] {
        presentExtensionMembers([("newDisbursementRequest", newDisbursementRequest)])
    }
}
