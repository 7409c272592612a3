import CheckoutCore

/// Apple Pay on the web's `ApplePayShippingMethod`: a way to ship and its cost.
///
/// Conversion to ``/CheckoutCore/ShippingMethod`` (``core(currency:)``) reads `amount` in the request's
/// currency; an empty `detail` is no detail (Apple requires the member, so a method without a
/// detail is sent with `""`); `dateComponentsRange` becomes the delivery range.
public struct ApplePayShippingMethod: Codable, Hashable, Sendable {
    /// A short name, such as "Express".
    public var label: String
    /// More detail, such as "Arrives in 1-2 days"; `""` for none.
    public var detail: String
    /// The cost, a decimal string in the request's currency.
    public var amount: String
    /// Identifies the method within the request.
    public var identifier: String
    /// When it delivers.
    public var dateComponentsRange: ApplePayDateComponentsRange?

    /// A shipping method.
    public init(
        label: String,
        detail: String,
        amount: String,
        identifier: String,
        dateComponentsRange: ApplePayDateComponentsRange? = nil
    ) {
        self.label = label
        self.detail = detail
        self.amount = amount
        self.identifier = identifier
        self.dateComponentsRange = dateComponentsRange
    }

    /// The core shipping method, with `amount` read in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `amount` for an amount that is not one of `currency`,
    ///   or `dateComponentsRange.…` for a range that is not two calendar days in order.
    public func core(currency: CurrencyCode) throws -> ShippingMethod {
        ShippingMethod(
            identifier: identifier,
            label: label,
            detail: detail.isEmpty ? nil : detail,
            amount: try wireMoney(amount, currency: currency, path: "amount"),
            deliveryDateRange: try dateComponentsRange.map { range in
                try inside("dateComponentsRange") { try range.core() }
            }
        )
    }

    /// The core method as Apple's: a nil detail is `""`.
    public init(_ core: ShippingMethod) {
        self.init(
            label: core.label,
            detail: core.detail ?? "",
            amount: core.amount.amountString,
            identifier: core.identifier,
            dateComponentsRange: core.deliveryDateRange.map(ApplePayDateComponentsRange.init)
        )
    }
}

extension [ApplePayShippingMethod] {
    /// The methods in the core's terms, each error naming `path[index].…`.
    func core(currency: CurrencyCode, path: String) throws -> [ShippingMethod] {
        try enumerated().map { index, method in try inside("\(path)[\(index)]") { try method.core(currency: currency) }
        }
    }
}
