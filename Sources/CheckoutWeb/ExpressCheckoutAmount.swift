import CheckoutCore

/// Stripe's Express Checkout Element moves every amount as an integer in the currency's smallest
/// unit as Stripe counts it (`1099` for 10.99 USD, `500` for 500 JPY), the `amount` Stripe's API
/// takes. These two conversions go through ``/CheckoutCore/Money`` exactly, with Stripe's table
/// where it differs from ISO 4217 (``/CheckoutCore/CurrencyCode/stripeDecimalDigits``): ISK and
/// HUF with two digits, three-decimal currencies ending in 0.
public enum ExpressCheckoutAmount {
    /// The element's integer for `money`; a negative amount (a discount line) keeps its sign.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with `unsupportedStripeAmount`, naming `path` and
    ///   the amount, when Stripe's digits cannot carry it.
    public static func integer(_ money: Money, path: String) throws -> Int64 {
        do {
            if money.isNegative { return -(try money.negated().stripeAmount()) }
            return try money.stripeAmount()
        } catch var error as CheckoutError {
            error.field = path
            error.message = "\(path): \(error.message)"
            throw error
        }
    }

    /// The money the element's integer `amount` stands for in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with `unsupportedStripeAmount`, naming `path` and
    ///   the integer, when it has no exact ISO 4217 value (an ISK amount not a multiple of 100).
    public static func money(_ amount: Int64, currency: CurrencyCode, path: String) throws -> Money {
        do {
            guard amount < 0 else { return try Money(stripeAmount: amount, currency: currency) }
            guard amount != .min else {
                throw CheckoutError(
                    code: .unsupportedStripeAmount, message: "Stripe amount \(amount) is out of range",
                    value: String(amount))
            }
            return try Money(stripeAmount: -amount, currency: currency).negated()
        } catch var error as CheckoutError {
            error.field = path
            error.message = "\(path): \(error.message)"
            throw error
        }
    }
}

extension ExpressCheckoutAmount {
    /// The Elements `amount` for `summaryItems`: the grand total's (the last item's), which the
    /// page sets with `elements.update({amount})` before it resolves an event.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `summaryItems` when there is none, or the
    ///   total's path when Stripe's digits cannot carry it.
    public static func elementsAmount(of summaryItems: [SummaryItem]) throws -> Int64 {
        guard let total = summaryItems.last else {
            throw CheckoutError(
                code: .emptyList, message: "summaryItems is empty: there is no total", field: "summaryItems")
        }
        return try integer(total.amount, path: "summaryItems[\(summaryItems.count - 1)].amount")
    }
}

extension KeyedDecodingContainer {
    /// An element's integer amount under `key`, refused with the member's path when it is not an
    /// integer (`10.5`, `"1099"`): Foundation's own error for a fraction names no path (spec W2).
    func decodeExpressCheckoutAmount(forKey key: Key) throws -> Int64 {
        guard contains(key) else { return try decode(Int64.self, forKey: key) }
        do {
            return try decode(Int64.self, forKey: key)
        } catch {
            // Foundation reports a fraction as "not valid JSON", without a path, from its top level.
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + [key],
                    debugDescription: "\(key.stringValue) is not an integer amount in the currency's smallest unit"))
        }
    }
}
