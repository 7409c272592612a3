import Foundation

/// An exact amount of money: a whole number of the currency's minor units.
///
/// No binary floating point is involved anywhere. Amount strings follow the W3C Payment Request
/// grammar `^-?[0-9]+(\.[0-9]+)?$`; an amount finer than the currency's minor unit is an error,
/// never a silent rounding, and trailing zeros are judged by value (`"500.0"` JPY is 500 yen,
/// `"-0.00"` is zero).
///
/// ```swift
/// let price = try Money("12.50", currency: .usd)    // 1250 minor units
/// let total = try price + Money(minorUnits: 99, currency: .usd)
/// print(total.amountString)                          // "13.49"
/// ```
public struct Money: Hashable, Sendable, CustomStringConvertible {
    /// The amount in the currency's minor units (cents for USD, yen for JPY, fils for KWD).
    public let minorUnits: Int64
    /// The currency.
    public let currency: CurrencyCode

    /// An amount of `minorUnits` of `currency`'s minor unit.
    public init(minorUnits: Int64, currency: CurrencyCode) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Zero in `currency`.
    public static func zero(_ currency: CurrencyCode) -> Money {
        Money(minorUnits: 0, currency: currency)
    }

    /// Parses a decimal amount string such as `"12.50"` or `"-3"`.
    ///
    /// - Throws: ``CheckoutError`` with ``CheckoutError/Code/malformedAmount`` when the string does
    ///   not follow `^-?[0-9]+(\.[0-9]+)?$` (no spaces, signs, exponents or symbols),
    ///   ``CheckoutError/Code/amountTooPrecise`` when it has a non-zero digit beyond the currency's
    ///   minor unit, ``CheckoutError/Code/amountOutOfRange`` when it does not fit in 64-bit minor
    ///   units.
    public init(_ string: String, currency: CurrencyCode) throws {
        self.minorUnits = try Self.parseMinorUnits(string, currency: currency)
        self.currency = currency
    }

    /// Converts a `Decimal` amount in major units (`12.5` is twelve dollars fifty).
    ///
    /// - Throws: as ``init(_:currency:)-(String,CurrencyCode)``; a NaN is ``CheckoutError/Code/malformedAmount``.
    public init(_ decimal: Decimal, currency: CurrencyCode) throws {
        guard !decimal.isNaN else {
            throw CheckoutError(
                code: .malformedAmount,
                message: "amount NaN is not a number",
                field: "amount",
                value: "NaN"
            )
        }
        // Decimal's description is locale-independent plain notation ("-12.5"), which the exact
        // string parser then judges.
        self.minorUnits = try Self.parseMinorUnits(decimal.description, currency: currency)
        self.currency = currency
    }

    /// The amount in major units as an exact `Decimal` (1250 USD cents is `12.5`).
    public var decimalValue: Decimal {
        let significand = Decimal(minorUnits.magnitude)
        return Decimal(
            sign: minorUnits < 0 ? .minus : .plus,
            exponent: -currency.minorUnitDigits,
            significand: significand
        )
    }

    /// The amount as a locale-independent decimal string with exactly the currency's minor digits:
    /// `"12.50"` USD, `"500"` JPY, `"1.250"` KWD, `"-0.99"`.
    public var amountString: String {
        // Written from its last digit back into a string of the exact length (up to 15 bytes, which
        // is nearly every amount, a small string with no allocation): the relay writes every
        // amount of every answer, and concatenating pieces cost some 2,400 instructions an amount.
        let digits = currency.minorUnitDigits
        let magnitude = minorUnits.magnitude
        var significant = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            significant += 1
        }
        let whole = Swift.max(significant - digits, 1)
        let length = (minorUnits < 0 ? 1 : 0) + whole + (digits > 0 ? 1 + digits : 0)
        return String(unsafeUninitializedCapacity: length) { buffer in
            var rest = magnitude
            var index = length
            func put(_ byte: UInt8) {
                index -= 1
                buffer[index] = byte
            }
            for _ in 0..<digits {
                put(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            }
            if digits > 0 { put(UInt8(ascii: ".")) }
            for _ in 0..<whole {
                put(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            }
            if minorUnits < 0 { put(UInt8(ascii: "-")) }
            return length
        }
    }

    /// `"12.50 USD"`.
    public var description: String { "\(amountString) \(currency.code)" }

    /// Whether the amount is below zero.
    public var isNegative: Bool { minorUnits < 0 }
    /// Whether the amount is zero.
    public var isZero: Bool { minorUnits == 0 }

    // MARK: Parsing

    private static func parseMinorUnits(_ string: String, currency: CurrencyCode) throws -> Int64 {
        func failure(_ code: CheckoutError.Code, _ why: String) -> CheckoutError {
            CheckoutError(
                code: code,
                message: "amount \(string.quotedForMessage) \(why)",
                field: "amount",
                value: string.clippedForError
            )
        }
        let bytes = string.utf8
        var index = bytes.startIndex
        let negative = index != bytes.endIndex && bytes[index] == UInt8(ascii: "-")
        if negative { index = bytes.index(after: index) }

        let zero = UInt8(ascii: "0")
        let nine = UInt8(ascii: "9")
        var magnitude: UInt64 = 0
        var overflow = false
        var integerDigits = 0
        while index != bytes.endIndex, (zero...nine).contains(bytes[index]) {
            overflow = overflow || accumulate(&magnitude, digit: bytes[index] - zero)
            integerDigits += 1
            index = bytes.index(after: index)
        }
        var fractionDigits = 0
        var precisionLost = false
        var danglingPoint = false
        if integerDigits > 0, index != bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index = bytes.index(after: index)
            while index != bytes.endIndex, (zero...nine).contains(bytes[index]) {
                let digit = bytes[index] - zero
                if fractionDigits < currency.minorUnitDigits {
                    overflow = overflow || accumulate(&magnitude, digit: digit)
                } else if digit != 0 {
                    precisionLost = true
                }
                fractionDigits += 1
                index = bytes.index(after: index)
            }
            danglingPoint = fractionDigits == 0  // "10." is malformed
        }
        guard integerDigits > 0, !danglingPoint, index == bytes.endIndex else {
            throw failure(.malformedAmount, "is not a decimal number of the form 123 or 123.45")
        }
        if precisionLost {
            throw failure(
                .amountTooPrecise,
                "is finer than the minor unit of \(currency.code) (\(currency.minorUnitDigits) digits)"
            )
        }
        for _ in fractionDigits..<max(fractionDigits, currency.minorUnitDigits) {
            overflow = overflow || accumulate(&magnitude, digit: 0)
        }
        let limit = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard !overflow, magnitude <= limit else {
            throw failure(.amountOutOfRange, "is out of range for 64-bit minor units of \(currency.code)")
        }
        if negative {
            return magnitude == limit ? Int64.min : -Int64(magnitude)
        }
        return Int64(magnitude)
    }

    /// `value = value * 10 + digit`; returns whether it overflowed (the value is then garbage).
    private static func accumulate(_ value: inout UInt64, digit: UInt8) -> Bool {
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
        value = sum
        return o1 || o2
    }
}

// MARK: - Arithmetic

extension Money {
    /// The sum of two amounts of one currency.
    ///
    /// - Throws: ``CheckoutError/Code/currencyMismatch`` for two currencies,
    ///   ``CheckoutError/Code/amountOutOfRange`` on overflow.
    public static func + (lhs: Money, rhs: Money) throws -> Money {
        try lhs.combined(with: rhs, "+") { $0.addingReportingOverflow($1) }
    }

    /// The difference of two amounts of one currency.
    ///
    /// - Throws: as ``+(_:_:)-(_,Money)``.
    public static func - (lhs: Money, rhs: Money) throws -> Money {
        try lhs.combined(with: rhs, "-") { $0.subtractingReportingOverflow($1) }
    }

    /// The amount times a whole factor (a quantity).
    ///
    /// - Throws: ``CheckoutError/Code/amountOutOfRange`` on overflow.
    public func multiplied(by factor: Int64) throws -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: factor)
        guard !overflow else { throw outOfRange("\(self) × \(factor)") }
        return Money(minorUnits: product, currency: currency)
    }

    /// The amount with its sign flipped.
    ///
    /// - Throws: ``CheckoutError/Code/amountOutOfRange`` for the one amount whose negation does not
    ///   fit.
    public func negated() throws -> Money {
        try Money.zero(currency) - self
    }

    /// Whether `self` is less than `other`, for two amounts of one currency.
    ///
    /// Use this where a comparison across currencies is a mistake to report (a price against a
    /// limit); `<` from `Comparable` never fails and orders mixed currencies by code instead.
    ///
    /// - Throws: ``CheckoutError/Code/currencyMismatch`` for two currencies.
    public func isLess(than other: Money) throws -> Bool {
        try requireSameCurrency(other, "<")
        return minorUnits < other.minorUnits
    }

    /// The sum of `amounts`, all in `currency`; zero for none.
    ///
    /// - Throws: as ``+(_:_:)-(_,Money)``.
    public static func sum(_ amounts: some Sequence<Money>, currency: CurrencyCode) throws -> Money {
        try amounts.reduce(Money.zero(currency)) { try $0 + $1 }
    }

    private func combined(
        with other: Money,
        _ symbol: String,
        _ operation: (Int64, Int64) -> (partialValue: Int64, overflow: Bool)
    ) throws -> Money {
        try requireSameCurrency(other, symbol)
        let (result, overflow) = operation(minorUnits, other.minorUnits)
        guard !overflow else { throw outOfRange("\(self) \(symbol) \(other)") }
        return Money(minorUnits: result, currency: currency)
    }

    private func requireSameCurrency(_ other: Money, _ symbol: String) throws {
        guard currency == other.currency else {
            throw CheckoutError(
                code: .currencyMismatch,
                message: "cannot combine \(self) \(symbol) \(other): the currencies differ",
                field: "currency",
                value: other.currency.code
            )
        }
    }

    func outOfRange(_ expression: String) -> CheckoutError {
        CheckoutError(
            code: .amountOutOfRange,
            message: "\(expression) overflows 64-bit minor units",
            field: "amount",
            value: amountString
        )
    }
}

// MARK: - Comparable

extension Money: Comparable {
    /// Orders amounts by currency code first, then by amount: `9.00 EUR < 1.00 USD`, and within a
    /// currency `1.00 USD < 2.00 USD`.
    ///
    /// `Comparable` needs a total order that agrees with `==` (which already tells currencies
    /// apart), and `sort()`, `min()` and `Set` iteration call `<` on whatever a caller hands them,
    /// so `<` cannot trap or throw on two currencies. Ordering by code first keeps each currency's
    /// amounts together and in order, as `CurrencyCode`'s own order and a tuple comparison
    /// `(currency, minorUnits)` would, and never pretends that 9 euros are less than 1 dollar by
    /// value: the order across currencies is alphabetical, not an exchange rate. Where comparing
    /// two currencies is a mistake to report, use ``isLess(than:)``, which throws
    /// ``CheckoutError/Code/currencyMismatch``.
    public static func < (lhs: Money, rhs: Money) -> Bool {
        if lhs.currency != rhs.currency { return lhs.currency < rhs.currency }
        return lhs.minorUnits < rhs.minorUnits
    }
}

// MARK: - Codable

extension Money: Codable {
    private enum CodingKeys: String, CodingKey {
        case currency
        case value
    }

    /// Decodes the W3C `PaymentCurrencyAmount` shape `{"currency": "USD", "value": "12.50"}`.
    /// A number instead of a string is refused: amounts never pass through floating point; an
    /// unknown key is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "Money")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let currency = try container.decode(CurrencyCode.self, forKey: .currency)
        let value = try container.decode(String.self, forKey: .value)
        self = try decoder.validating(at: CodingKeys.value) { try Money(value, currency: currency) }
    }

    /// Encodes as `{"currency": "USD", "value": "12.50"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(currency, forKey: .currency)
        try container.encode(amountString, forKey: .value)
    }
}
