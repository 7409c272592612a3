import CheckoutCore

/// Apple Pay on the web's `ApplePayShippingMethodUpdate`, what the page passes to
/// `completeShippingMethodSelection`.
///
/// The core ``/CheckoutCore/ShippingMethodUpdate`` carries summary items only: from it (``init(_:)``) the last
/// item is `newTotal` and the others `newLineItems`. To it (``core(currency:)``) a non-empty
/// `newShippingMethods` is refused rather than dropped; the extension members are kept as
/// ``/CheckoutCore/JSONValue`` and have no core counterpart.
public struct ApplePayShippingMethodUpdate: Codable, Hashable, Sendable {
    /// The new total.
    public var newTotal: ApplePayLineItem
    /// The new lines above the total.
    public var newLineItems: [ApplePayLineItem]?
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
        newShippingMethods: [ApplePayShippingMethod]? = nil,
        newRecurringPaymentRequest: JSONValue? = nil,
        newAutomaticReloadPaymentRequest: JSONValue? = nil,
        newMultiTokenContexts: JSONValue? = nil,
        newDeferredPaymentRequest: JSONValue? = nil,
        newDisbursementRequest: JSONValue? = nil
    ) {
        self.newTotal = newTotal
        self.newLineItems = newLineItems
        self.newShippingMethods = newShippingMethods
        self.newRecurringPaymentRequest = newRecurringPaymentRequest
        self.newAutomaticReloadPaymentRequest = newAutomaticReloadPaymentRequest
        self.newMultiTokenContexts = newMultiTokenContexts
        self.newDeferredPaymentRequest = newDeferredPaymentRequest
        self.newDisbursementRequest = newDisbursementRequest
    }

    /// The core update in Apple's members.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `summaryItems` when there are none.
    public init(_ core: ShippingMethodUpdate) throws {
        let parts = try AppleUpdateParts(summaryItems: core.summaryItems, shippingMethods: nil, errors: [])
        self.init(newTotal: parts.newTotal, newLineItems: parts.newLineItems)
    }

    /// The core update, amounts read in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the amount's path, or `newShippingMethods` when it is
    ///   not empty (the core update cannot carry it).
    public func core(currency: CurrencyCode) throws -> ShippingMethodUpdate {
        try refuseShippingMethods(newShippingMethods, coreType: "ShippingMethodUpdate")
        let parts = try CoreUpdateParts(
            newTotal: newTotal, newLineItems: newLineItems, newShippingMethods: nil, errors: nil, currency: currency)
        return ShippingMethodUpdate(summaryItems: parts.summaryItems)
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
