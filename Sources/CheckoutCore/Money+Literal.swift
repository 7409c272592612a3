/// Amounts written in source, built without `try`.
///
/// A literal is the merchant's own code, not input: `Money(19.99, .usd)`, `Money(5, .usd)` (five
/// dollars) and `Money("0.005", .kwd)` are checked when they run, and a literal that is not an
/// amount of its currency (finer than its minor unit, more than 15 significant digits) stops the
/// program with the reason, as an out-of-range integer literal would fail to compile. Input (a
/// string from a page, a number from a database) goes through the throwing
/// ``Money/init(_:currency:)-(String,CurrencyCode)``, which names the field and the value.
///
/// Why a float literal can be exact here: ``Literal`` is no number a program can compute (it has
/// no arithmetic, and a `Double` variable does not convert to it), so only a literal written in
/// source reaches it. Swift stores a decimal literal as the nearest `Double`, and the shortest
/// decimal that reads back as that `Double`, which `Double.description` writes, is the literal
/// itself (trailing zeros aside) whenever it has at most 15 significant digits (`DBL_DIG`): two
/// such decimals never share a `Double`. The amount is then parsed from that text by the exact
/// string parser, so no binary arithmetic touches it; a literal with more digits is refused rather
/// than guessed.
extension Money {
    /// An amount written in source: an integer (major units), a decimal or a string literal.
    public struct Literal: Sendable, Hashable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
        ExpressibleByStringLiteral
    {
        /// The literal's decimal text, or nil with the reason it has none.
        let text: String?
        let problem: String?

        /// `19` is nineteen major units.
        public init(integerLiteral value: Int64) {
            text = String(value)
            problem = nil
        }

        /// `19.99`, read back exactly from its shortest decimal form (see ``Money``'s discussion).
        public init(floatLiteral value: Double) {
            let shortest = value.description
            let digits = shortest.filter(\.isNumber).drop { $0 == "0" }
            if shortest.contains("e") || !value.isFinite || digits.count > 15 {
                text = nil
                problem = "the literal \(shortest) has more than 15 significant digits; write it as a string literal"
            } else {
                text = shortest
                problem = nil
            }
        }

        /// `"19.99"`, as the W3C grammar writes amounts.
        public init(stringLiteral value: String) {
            text = value
            problem = nil
        }
    }

    /// The amount a literal in source writes, in `currency`: `Money(19.99, .usd)`.
    ///
    /// A literal that is no amount of `currency` stops the program with the reason (see the
    /// extension's discussion); input goes through the throwing forms.
    public init(_ amount: Literal, _ currency: CurrencyCode) {
        guard let text = amount.text else { preconditionFailure("Money literal: \(amount.problem ?? "")") }
        do {
            self = try Money(text, currency: currency)
        } catch {
            preconditionFailure("Money literal \(text) \(currency.code): \(error)")
        }
    }
}

// MARK: - Sums where the currency is known

extension Money {
    /// `self` plus a literal in `self`'s currency: `subtotal + 4.99`. The currencies cannot
    /// differ, so nothing is thrown; an overflow of 64-bit minor units stops the program, as
    /// `Int`'s `+` does (use the throwing `+` of two `Money` values for amounts from input).
    public static func + (lhs: Money, rhs: Literal) -> Money {
        lhs.adding(Money(rhs, lhs.currency).minorUnits, "+")
    }

    /// `self` minus a literal in `self`'s currency: `total - 5`. As `+` with a literal.
    public static func - (lhs: Money, rhs: Literal) -> Money {
        let amount = Money(rhs, lhs.currency).minorUnits
        guard amount != .min else { preconditionFailure("\(lhs) - \(amount) overflows 64-bit minor units") }
        return lhs.adding(-amount, "-")
    }

    /// The sum of `amounts`, each converted to `currency`'s literal: `Money.total(9.99, 4.99, in: .usd)`.
    public static func total(_ amounts: Literal..., in currency: CurrencyCode) -> Money {
        amounts.reduce(.zero(currency)) { $0 + $1 }
    }

    private func adding(_ minor: Int64, _ symbol: String) -> Money {
        let (result, overflow) = minorUnits.addingReportingOverflow(minor)
        guard !overflow else { preconditionFailure("\(self) \(symbol) \(minor) overflows 64-bit minor units") }
        return Money(minorUnits: result, currency: currency)
    }
}
