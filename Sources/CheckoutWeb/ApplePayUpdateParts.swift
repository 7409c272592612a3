import CheckoutCore

/// What the four Apple Pay update dictionaries share, in the core's terms.
struct CoreUpdateParts {
    var summaryItems: [SummaryItem]
    var shippingMethods: [ShippingMethod]?
    var errors: [PaymentError]

    /// Reads Apple's members: the summary items are `newLineItems` followed by `newTotal`;
    /// `newShippingMethods` absent or empty is nil, Apple's "no change" (spec W3).
    init(
        newTotal: ApplePayLineItem,
        newLineItems: [ApplePayLineItem]?,
        newShippingMethods: [ApplePayShippingMethod]?,
        errors: [ApplePayError]?,
        currency: CurrencyCode
    ) throws {
        summaryItems =
            try (newLineItems ?? []).core(currency: currency, path: "newLineItems")
            + [try inside("newTotal") { try newTotal.core(currency: currency) }]
        let methods = try (newShippingMethods ?? []).core(currency: currency, path: "newShippingMethods")
        shippingMethods = methods.isEmpty ? nil : methods
        self.errors = (errors ?? []).core()
    }
}

/// The core's shipping methods as Apple's `newShippingMethods`. A list that is empty, the core's
/// "none available", cannot be shown by Apple Pay (an empty list is "no change"): it is sent as no
/// list, and the update's errors are its shown errors, which then hold the blocking error that
/// stands for it (``/CheckoutCore/ShippingContactUpdate/shownErrors``, spec W3).
func appleShippingMethods(_ methods: [ShippingMethod]?) -> [ApplePayShippingMethod]? {
    guard let methods, !methods.isEmpty else { return nil }
    return methods.map(ApplePayShippingMethod.init)
}

/// Refuses a non-empty `newShippingMethods` on an update whose core counterpart has no
/// shipping methods: dropping them would change the sheet in silence.
func refuseShippingMethods(_ methods: [ApplePayShippingMethod]?, coreType: String) throws {
    guard let methods, !methods.isEmpty else { return }
    throw CheckoutError(
        code: .invalidField,
        message: "newShippingMethods (\(methods.count)) cannot be carried: a core \(coreType) has no shipping methods",
        field: "newShippingMethods"
    )
}

/// The wire names of Apple's extension members that are present, which the core updates have
/// no place for.
func presentExtensionMembers(_ members: [(String, JSONValue?)]) -> [String] {
    members.compactMap { $0.1 == nil ? nil : $0.0 }
}
