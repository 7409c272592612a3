import CheckoutCore

/// Google Pay's rules for its decimal price strings, applied before anything is sent (Google Pay
/// API for the web, reference "Request objects"):
///
/// - `TransactionInfo.totalPrice` follows the pattern `^[0-9]+(\.[0-9][0-9])?$`: digits, and if a
///   decimal point, exactly two decimals; no sign.
/// - `DisplayItem.price` has "an optional decimal precision of two decimal places" and may be
///   negative: the same pattern with an optional leading `-`.
///
/// An amount of a currency with three minor-unit digits (KWD, BHD, ...) whose last digit is not
/// zero has no Google form: the conversions refuse it naming the field, never round it.
public enum GooglePayPriceRules {
    /// Whether `text` is a `totalPrice` Google accepts.
    public static func isTotalPrice(_ text: String) -> Bool { matches(text, signed: false) }

    /// Whether `text` is a `DisplayItem.price` Google accepts.
    public static func isItemPrice(_ text: String) -> Bool { matches(text, signed: true) }

    private static func matches(_ text: String, signed: Bool) -> Bool {
        var bytes = Substring(text).utf8[...]
        if signed, bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let isDigit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        let integer = bytes.prefix(while: isDigit)
        guard !integer.isEmpty else { return false }
        let rest = bytes.dropFirst(integer.count)
        if rest.isEmpty { return true }
        return rest.count == 3 && rest.first == UInt8(ascii: ".") && rest.dropFirst().allSatisfy(isDigit)
    }

    /// `money` as Google writes a price: the amount's decimal string, checked against the
    /// pattern.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/invalidField``
    ///   naming `path` and the value, for a negative total or more than two decimals.
    static func price(_ money: Money, total: Bool, path: String) throws -> String {
        var text = money.amountString
        // Three minor-unit digits ending in zero have an exact two-digit form.
        if let point = text.firstIndex(of: "."), text.distance(from: point, to: text.endIndex) == 4, text.hasSuffix("0")
        {
            text.removeLast()
        }
        try check(text, total: total, path: path)
        return text
    }

    /// Refuses `text` when it breaks the pattern of a total (`total`) or an item price.
    static func check(_ text: String, total: Bool, path: String) throws {
        guard total ? isTotalPrice(text) : isItemPrice(text) else {
            throw unmappable(
                path, text,
                total
                    ? "is not a totalPrice Google Pay accepts (^[0-9]+(\\.[0-9][0-9])?$: no sign, none or two decimals)"
                    : "is not a price Google Pay accepts (an optional '-', digits, none or two decimals)")
        }
    }

    /// Google's price `text` as money in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `path` when the text breaks Google's pattern
    ///   or the currency's minor units.
    static func money(_ text: String, currency: CurrencyCode, total: Bool, path: String) throws -> Money {
        try check(text, total: total, path: path)
        return try wireMoney(text, currency: currency, path: path)
    }
}
