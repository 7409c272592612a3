import CheckoutCore

/// Apple Pay on the web's `ApplePayPaymentMethodUpdate`, what the page passes to
/// `completePaymentMethodSelection`.
///
/// From the core ``/CheckoutCore/PaymentMethodUpdate`` (``init(_:)``): the last summary item is `newTotal`, the
/// others `newLineItems`, errors as ``ApplePayError`` maps them. To it (``core(currency:)``): a
/// non-empty `newShippingMethods` is refused rather than dropped, as the core update has no
/// shipping methods; the extension members are kept as ``/CheckoutCore/JSONValue`` and have no core
/// counterpart.
public struct ApplePayPaymentMethodUpdate: Codable, Hashable, Sendable {
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

    /// The core update in Apple's members.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `summaryItems` when there are none, or `errors[i].code`
    ///   for an error code Apple Pay does not have.
    public init(_ core: PaymentMethodUpdate) throws {
        let parts = try AppleUpdateParts(summaryItems: core.summaryItems, shippingMethods: nil, errors: core.errors)
        self.init(newTotal: parts.newTotal, newLineItems: parts.newLineItems, errors: parts.errors)
    }

    /// The core update, amounts read in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the amount's path, or `newShippingMethods` when it is
    ///   not empty (the core update cannot carry it).
    public func core(currency: CurrencyCode) throws -> PaymentMethodUpdate {
        try refuseShippingMethods(newShippingMethods, coreType: "PaymentMethodUpdate")
        let parts = try CoreUpdateParts(
            newTotal: newTotal, newLineItems: newLineItems, newShippingMethods: nil, errors: errors, currency: currency)
        return PaymentMethodUpdate(errors: parts.errors, summaryItems: parts.summaryItems)
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
