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
/// change), as Apple Pay reads it. The extension members (`newRecurringPaymentRequest`, ...) are
/// kept as ``/CheckoutCore/JSONValue`` and have no core counterpart.
public struct ApplePayShippingContactUpdate: Codable, Hashable, Sendable {
    /// The new total.
    public var newTotal: ApplePayLineItem
    /// The new lines above the total.
    public var newLineItems: [ApplePayLineItem]?
    /// Errors for the sheet.
    public var errors: [ApplePayError]?
    /// The new shipping methods; absent or empty means no change.
    public var newShippingMethods: [ApplePayShippingMethod]?
    /// A new recurring payment request, kept as it is.
    public var newRecurringPaymentRequest: JSONValue?
    /// A new automatic reload payment request, kept as it is.
    public var newAutomaticReloadPaymentRequest: JSONValue?
    /// New multi-merchant token contexts, kept as they are.
    public var newMultiTokenContexts: JSONValue?
    /// A new deferred payment request, kept as it is.
    public var newDeferredPaymentRequest: JSONValue?
    /// A new disbursement request, kept as it is.
    public var newDisbursementRequest: JSONValue?

    /// An update; only the new total is needed.
    public init(
        newTotal: ApplePayLineItem,
        newLineItems: [ApplePayLineItem]? = nil,
        errors: [ApplePayError]? = nil,
        newShippingMethods: [ApplePayShippingMethod]? = nil,
        newRecurringPaymentRequest: JSONValue? = nil,
        newAutomaticReloadPaymentRequest: JSONValue? = nil,
        newMultiTokenContexts: JSONValue? = nil,
        newDeferredPaymentRequest: JSONValue? = nil,
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
        let parts = try AppleUpdateParts(
            summaryItems: core.summaryItems, shippingMethods: core.shippingMethods, errors: core.shownErrors)
        self.init(
            newTotal: parts.newTotal,
            newLineItems: parts.newLineItems,
            errors: parts.errors,
            newShippingMethods: parts.newShippingMethods
        )
    }

    /// The core update, amounts read in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the amount's path (`newTotal.amount`,
    ///   `newLineItems[0].amount`, `newShippingMethods[1].amount`, ...).
    public func core(currency: CurrencyCode) throws -> ShippingContactUpdate {
        let parts = try CoreUpdateParts(
            newTotal: newTotal, newLineItems: newLineItems, newShippingMethods: newShippingMethods, errors: errors,
            currency: currency)
        return ShippingContactUpdate(
            errors: parts.errors, summaryItems: parts.summaryItems, shippingMethods: parts.shippingMethods)
    }

    /// The extension members present, which the core update has no place for.
    public var membersWithoutCoreCounterpart: [String] {
        presentExtensionMembers([
            ("newRecurringPaymentRequest", newRecurringPaymentRequest),
            ("newAutomaticReloadPaymentRequest", newAutomaticReloadPaymentRequest),
            ("newMultiTokenContexts", newMultiTokenContexts), ("newDeferredPaymentRequest", newDeferredPaymentRequest),
            ("newDisbursementRequest", newDisbursementRequest),
        ])
    }
}
