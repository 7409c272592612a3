import CheckoutCore

/// The W3C Payment Request `PaymentCurrencyAmount`: `{currency, value}`, both strings, kept as
/// the page sent them.
public struct PaymentCurrencyAmount: Codable, Hashable, Sendable {
    /// The ISO 4217 currency code.
    public var currency: String
    /// The amount, a decimal string such as `"12.50"`.
    public var value: String

    /// An amount.
    public init(currency: String, value: String) {
        self.currency = currency
        self.value = value
    }

    /// The amount as ``/CheckoutCore/Money``.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `currency` when it is not an ISO 4217 code, or
    ///   `value` when the string is not an amount of that currency.
    public func core() throws -> Money {
        let code: CurrencyCode
        do {
            code = try CurrencyCode(currency)
        } catch var error as CheckoutError {
            error.field = "currency"
            throw error
        }
        return try wireMoney(value, currency: code, path: "value")
    }

    /// The amount with the currency's minor digits (`"12.50"`, `"500"` JPY).
    public init(_ core: Money) {
        self.init(currency: core.currency.code, value: core.amountString)
    }
}
