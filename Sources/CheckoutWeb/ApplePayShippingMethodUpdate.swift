import CheckoutCore

/// Apple Pay on the web's `ApplePayShippingMethodUpdate`, what the page passes to
/// `completeShippingMethodSelection`.
///
/// The core ``/CheckoutCore/ShippingMethodUpdate`` carries summary items only: from it (``init(_:)``) the last
/// item is `newTotal` and the others `newLineItems`. To it (``core(currency:)``) a non-empty
/// `newShippingMethods` is refused rather than dropped; today's Apple Pay members (`newRecurringPaymentRequest`,
/// ...) are carried both ways as the core update's terms, `newDisbursementRequest` is kept as
/// ``/CheckoutCore/JSONValue`` and has no core counterpart.
public struct ApplePayShippingMethodUpdate: Codable, Hashable, Sendable {
    /// The new total.
    public var newTotal: ApplePayLineItem
    /// The new lines above the total.
    public var newLineItems: [ApplePayLineItem]?
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
        newShippingMethods: [ApplePayShippingMethod]? = nil,
        newRecurringPaymentRequest: ApplePayRecurringPaymentRequest? = nil,
        newAutomaticReloadPaymentRequest: ApplePayAutomaticReloadPaymentRequest? = nil,
        newMultiTokenContexts: [ApplePayPaymentTokenContext]? = nil,
        newDeferredPaymentRequest: ApplePayDeferredPaymentRequest? = nil,
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
        let (newTotal, newLineItems) = try appleTotalAndLineItems(core.summaryItems, field: "summaryItems")
        self.init(
            newTotal: newTotal, newLineItems: newLineItems)
        setTerms(core.terms)
    }

    /// The core update, amounts read in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the amount's path, or `newShippingMethods` when it is
    ///   not empty (the core update cannot carry it).
    public func core(currency: CurrencyCode) throws -> ShippingMethodUpdate {
        try refuseShippingMethods(newShippingMethods, coreType: "ShippingMethodUpdate")
        let parts = try CoreUpdateParts(
            newTotal: newTotal, newLineItems: newLineItems, newShippingMethods: nil, errors: nil, currency: currency)
        let terms = try termsMembers.core(currency: currency, update: true)
        var update = ShippingMethodUpdate(
            summaryItems: parts.summaryItems)
        update.terms = terms
        return update
    }

    /// The extension members present that the core update has no place for
    /// (`newDisbursementRequest`).
    public var membersWithoutCoreCounterpart: [String] {
        presentExtensionMembers([("newDisbursementRequest", newDisbursementRequest)])
    }
}
