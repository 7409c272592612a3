import Foundation

extension Money {
    /// How an exact result that falls between two whole minor units (or two multiples of a step)
    /// becomes one of them.
    ///
    /// The names are those of the standard library's `FloatingPointRoundingRule`, which Swift
    /// programmers know; the arithmetic here is exact integer arithmetic all the same. `up` and
    /// `down` are toward positive and negative infinity (ceiling and floor), as there.
    ///
    /// | rule | 2.5 | 3.5 | -2.5 | 2.4 | -2.4 |
    /// |---|---|---|---|---|---|
    /// | ``toNearestOrEven`` | 2 | 4 | -2 | 2 | -2 |
    /// | ``toNearestOrAwayFromZero`` | 3 | 4 | -3 | 2 | -2 |
    /// | ``up`` | 3 | 4 | -2 | 3 | -2 |
    /// | ``down`` | 2 | 3 | -3 | 2 | -3 |
    /// | ``towardZero`` | 2 | 3 | -2 | 2 | -2 |
    /// | ``awayFromZero`` | 3 | 4 | -3 | 3 | -3 |
    public enum RoundingRule: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
        /// To the nearest; a tie goes to the even neighbour (banker's rounding, IEEE 754's default,
        /// what `NSDecimalNumber`'s `.bankers` does).
        case toNearestOrEven
        /// To the nearest; a tie goes away from zero (the rounding taught at school, `.plain` in
        /// `NSDecimalNumber`).
        case toNearestOrAwayFromZero
        /// Toward positive infinity (ceiling).
        case up
        /// Toward negative infinity (floor).
        case down
        /// Toward zero (truncation).
        case towardZero
        /// Away from zero.
        case awayFromZero

        /// The rule's name, such as `toNearestOrEven`.
        public var description: String { rawValue }
    }

    /// Parses a decimal amount string that may be finer than the currency's minor unit and rounds
    /// it to a whole minor unit by `rule`: `Money("12.345", currency: .usd, rounding: .toNearestOrEven)`
    /// is 12.34 USD.
    ///
    /// Use ``init(_:currency:)-(String,CurrencyCode)`` where a finer amount is a mistake to report (spec M); use this one
    /// where rounding is the intent, as for a computed price.
    ///
    /// - Throws: ``CheckoutError/Code/malformedAmount`` when the string does not follow
    ///   `^-?[0-9]+(\.[0-9]+)?$`, ``CheckoutError/Code/amountOutOfRange`` when the rounded amount
    ///   does not fit in 64-bit minor units.
    public init(_ string: String, currency: CurrencyCode, rounding rule: RoundingRule) throws {
        guard let parsed = DecimalDigits(string) else {
            // The exact parser says why the string is malformed, in its words.
            try self.init(string, currency: currency)
            return
        }
        let digits = currency.minorUnitDigits
        guard parsed.fraction.count > digits else {
            try self.init(string, currency: currency)
            return
        }
        var magnitude: UInt64 = 0
        var overflow = false
        for digit in parsed.integer + parsed.fraction.prefix(digits) {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
            magnitude = sum
            overflow = overflow || o1 || o2
        }
        let dropped = parsed.fraction.dropFirst(digits)
        let first = dropped.first ?? 0
        let sticky = dropped.dropFirst().contains { $0 != 0 }
        let tail: RoundingTail =
            switch first {
            case 0: sticky ? .belowHalf : .exact
            case 1...4: .belowHalf
            case 5: sticky ? .aboveHalf : .half
            default: .aboveHalf
            }
        guard !overflow,
            let minor = Self.rounded(
                magnitude: UInt128(magnitude), negative: parsed.negative, tail: tail, rule: rule)
        else {
            throw CheckoutError(
                code: .amountOutOfRange,
                message: "amount \(string.quotedForMessage) is out of range for 64-bit minor units of \(currency.code)",
                field: "amount",
                value: string.clippedForError
            )
        }
        self.init(minorUnits: minor, currency: currency)
    }

    /// Converts a `Decimal` amount in major units, rounding it to a whole minor unit by `rule`.
    ///
    /// - Throws: as the `String` form of this initializer does; a NaN is
    ///   ``CheckoutError/Code/malformedAmount``.
    public init(_ decimal: Decimal, currency: CurrencyCode, rounding rule: RoundingRule) throws {
        guard !decimal.isNaN else {
            // The exact initializer reports a NaN.
            try self.init(decimal, currency: currency)
            return
        }
        try self.init(decimal.description, currency: currency, rounding: rule)
    }

    /// This amount times `numerator / denominator`, rounded to a whole minor unit by `rule`:
    /// a third of 10.00 USD is `scaled(by: 1, over: 3, rounding: .toNearestOrEven)`, 3.33 USD.
    ///
    /// The product is exact (128-bit) before the one rounding.
    ///
    /// - Throws: ``CheckoutError/Code/invalidField`` for a zero denominator,
    ///   ``CheckoutError/Code/amountOutOfRange`` when the result does not fit in 64-bit minor units.
    public func scaled(by numerator: Int64, over denominator: Int64, rounding rule: RoundingRule) throws -> Money {
        guard denominator != 0 else {
            throw CheckoutError(
                code: .invalidField,
                message: "cannot scale \(self) by \(numerator)/0: the denominator is zero",
                field: "denominator",
                value: "0"
            )
        }
        // Int64 × Int64 always fits in Int128.
        let product = Int128(minorUnits) * Int128(numerator)
        return try divided(
            product, by: Int128(denominator), rule: rule, expression: "\(self) × \(numerator)/\(denominator)")
    }

    /// `basisPoints` hundredths of a percent of this amount (1000 basis points is 10 %), rounded to
    /// a whole minor unit by `rule`.
    ///
    /// ```swift
    /// let price = try Money("19.99", currency: .usd)
    /// let discount = try price.percentage(basisPoints: 1000, rounding: .toNearestOrEven)  // 2.00 USD
    /// ```
    ///
    /// - Throws: ``CheckoutError/Code/amountOutOfRange`` when the result does not fit in 64-bit minor
    ///   units.
    public func percentage(basisPoints: Int64, rounding rule: RoundingRule) throws -> Money {
        try scaled(by: basisPoints, over: 10_000, rounding: rule)
    }

    /// `percent` percent of this amount, rounded to a whole minor unit by `rule`; `percent` is a
    /// decimal string of the W3C amount grammar such as `"10"`, `"12.5"` or `"-7.25"`.
    ///
    /// ```swift
    /// let price = try Money("12.34", currency: .usd)
    /// try price.percentage("10", rounding: .toNearestOrAwayFromZero)   // 1.23 USD
    /// try price.percentage("12.5", rounding: .up)                      // 1.55 USD
    /// ```
    ///
    /// - Throws: ``CheckoutError/Code/malformedAmount`` when `percent` is not of the form `12` or
    ///   `12.5`; ``CheckoutError/Code/amountTooPrecise`` when it has more than 18 decimal places
    ///   after trailing zeros are dropped; ``CheckoutError/Code/amountOutOfRange`` when the result
    ///   (or the percentage itself) does not fit.
    public func percentage(_ percent: String, rounding rule: RoundingRule) throws -> Money {
        func failure(_ code: CheckoutError.Code, _ why: String) -> CheckoutError {
            CheckoutError(
                code: code,
                message: "percentage \(percent.quotedForMessage) \(why)",
                field: "percent",
                value: percent.clippedForError
            )
        }
        guard let parsed = DecimalDigits(percent) else {
            throw failure(.malformedAmount, "is not a decimal number of the form 12 or 12.5")
        }
        var fraction = parsed.fraction[...]
        while fraction.last == 0 { fraction = fraction.dropLast() }
        guard fraction.count <= 18 else {
            throw failure(.amountTooPrecise, "has more than 18 decimal places")
        }
        var numerator: Int128 = 0
        for digit in parsed.integer + fraction {
            let (times10, o1) = numerator.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int128(digit))
            guard !o1, !o2 else { throw failure(.amountOutOfRange, "is out of range") }
            numerator = sum
        }
        if parsed.negative { numerator = -numerator }
        // 100 × 10^18 fits comfortably in Int128.
        var denominator: Int128 = 100
        for _ in 0..<fraction.count { denominator *= 10 }
        let (product, overflow) = Int128(minorUnits).multipliedReportingOverflow(by: numerator)
        guard !overflow else { throw outOfRange("\(percent) % of \(self)") }
        return try divided(product, by: denominator, rule: rule, expression: "\(percent) % of \(self)")
    }

    /// `percent` percent of this amount, rounded to a whole minor unit by `rule`.
    ///
    /// - Throws: as the `String` form of this method does; a NaN is
    ///   ``CheckoutError/Code/malformedAmount``.
    public func percentage(_ percent: Decimal, rounding rule: RoundingRule) throws -> Money {
        // Decimal's description is locale-independent plain notation ("12.5"); a NaN's is "NaN",
        // which the string grammar refuses.
        try percentage(percent.description, rounding: rule)
    }

    /// This amount rounded to a multiple of `step` minor units by `rule`: Swiss cash rounding to
    /// 5 centimes is `rounded(toMultipleOf: 5, rounding: .toNearestOrAwayFromZero)`, and a
    /// three-decimal amount Stripe accepts (ending in 0) is `rounded(toMultipleOf: 10, ...)`.
    ///
    /// - Throws: ``CheckoutError/Code/invalidField`` when `step` is not positive,
    ///   ``CheckoutError/Code/amountOutOfRange`` when the result does not fit.
    public func rounded(toMultipleOf step: Int64, rounding rule: RoundingRule) throws -> Money {
        guard step > 0 else {
            throw CheckoutError(
                code: .invalidField,
                message: "cannot round \(self) to a multiple of \(step) minor units: the step must be positive",
                field: "step",
                value: String(step)
            )
        }
        let units = try divided(Int128(minorUnits), by: Int128(step), rule: rule, expression: "\(self) ÷ \(step)")
        let (product, overflow) = units.minorUnits.multipliedReportingOverflow(by: step)
        guard !overflow else { throw outOfRange("\(self) rounded to a multiple of \(step)") }
        return Money(minorUnits: product, currency: currency)
    }

    // MARK: Exact rounding

    /// Where the exact value lies between the truncated magnitude and the next one up.
    private enum RoundingTail {
        case exact
        case belowHalf
        case half
        case aboveHalf
    }

    /// `numerator / denominator` in this currency, rounded by `rule`.
    private func divided(_ numerator: Int128, by denominator: Int128, rule: RoundingRule, expression: String) throws
        -> Money
    {
        let negative = (numerator < 0) != (denominator < 0) && numerator != 0
        let n = numerator.magnitude
        let d = denominator.magnitude
        let (quotient, remainder) = n.quotientAndRemainder(dividingBy: d)
        let tail: RoundingTail =
            if remainder == 0 {
                .exact
            } else if remainder < d - remainder {
                .belowHalf
            } else if remainder == d - remainder {
                .half
            } else {
                .aboveHalf
            }
        guard let minor = Self.rounded(magnitude: quotient, negative: negative, tail: tail, rule: rule) else {
            throw outOfRange(expression)
        }
        return Money(minorUnits: minor, currency: currency)
    }

    /// The signed, rounded value of a truncated magnitude, or nil when it does not fit in Int64.
    private static func rounded(magnitude: UInt128, negative: Bool, tail: RoundingTail, rule: RoundingRule) -> Int64? {
        let inexact = tail != .exact
        let bumps: Bool =
            switch rule {
            case .towardZero: false
            case .awayFromZero: inexact
            case .up: inexact && !negative
            case .down: inexact && negative
            case .toNearestOrAwayFromZero: tail == .half || tail == .aboveHalf
            case .toNearestOrEven: tail == .aboveHalf || (tail == .half && magnitude % 2 == 1)
            }
        let value = bumps ? magnitude + 1 : magnitude
        if negative {
            guard value <= UInt128(Int64.max) + 1 else { return nil }
            return value == UInt128(Int64.max) + 1 ? Int64.min : -Int64(value)
        }
        guard value <= UInt128(Int64.max) else { return nil }
        return Int64(value)
    }
}

/// The digits of a string of the W3C amount grammar `^-?[0-9]+(\.[0-9]+)?$`.
private struct DecimalDigits {
    var negative: Bool
    var integer: [UInt8]
    var fraction: [UInt8]

    /// Nil when `text` does not follow the grammar.
    init?(_ text: String) {
        var bytes = text.utf8[...]
        negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let integerPart = bytes.prefix(while: isDigit)
        guard !integerPart.isEmpty else { return nil }
        integer = integerPart.map { $0 - UInt8(ascii: "0") }
        bytes = bytes.dropFirst(integerPart.count)
        fraction = []
        if let point = bytes.first {
            guard point == UInt8(ascii: "."), bytes.count > 1, bytes.dropFirst().allSatisfy(isDigit) else { return nil }
            fraction = bytes.dropFirst().map { $0 - UInt8(ascii: "0") }
        }
    }
}
