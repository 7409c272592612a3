import CheckoutCore
import Foundation
import XCTest

final class MoneyRoundingTests: XCTestCase {
    private typealias Rule = Money.RoundingRule

    /// The reference: the exact quotient `n / d` (d > 0) placed between its floor and the next
    /// integer up, then picked by the rule's definition. Written with floor division, unlike the
    /// library's truncate-and-bump, so the two do not share a mistake.
    private static func reference(_ n: Int, _ d: Int, _ rule: Rule) -> Int {
        precondition(d > 0)
        let floor = n >= 0 ? n / d : -((-n + d - 1) / d)
        let remainder = n - floor * d  // 0 ..< d
        if remainder == 0 { return floor }
        let ceiling = floor + 1
        let twice = 2 * remainder
        switch rule {
        case .up: return ceiling
        case .down: return floor
        case .towardZero: return n >= 0 ? floor : ceiling
        case .awayFromZero: return n >= 0 ? ceiling : floor
        case .toNearestOrAwayFromZero:
            if twice != d { return twice < d ? floor : ceiling }
            return n >= 0 ? ceiling : floor
        case .toNearestOrEven:
            if twice != d { return twice < d ? floor : ceiling }
            return floor % 2 == 0 ? floor : ceiling
        }
    }

    func testScaledAgreesWithTheReference() throws {
        for units in -250...250 {
            let money = Money(minorUnits: Int64(units), currency: .usd)
            for (numerator, denominator) in [(1, 2), (1, 3), (2, 3), (-1, 4), (7, -8), (1, 10), (3, 1), (-5, -6)] {
                for rule in Rule.allCases {
                    let got = try money.scaled(by: Int64(numerator), over: Int64(denominator), rounding: rule)
                    let n = units * numerator * (denominator < 0 ? -1 : 1)
                    let expected = Self.reference(n, abs(denominator), rule)
                    XCTAssertEqual(got.minorUnits, Int64(expected), "\(units) × \(numerator)/\(denominator) \(rule)")
                    XCTAssertEqual(got.currency, .usd)
                }
            }
        }
    }

    func testTheDocumentedTable() throws {
        // The table in RoundingRule's doc comment, as half-cents of USD.
        let inputs = ["0.025", "0.035", "-0.025", "0.024", "-0.024"]
        let expected: [Rule: [Int64]] = [
            .toNearestOrEven: [2, 4, -2, 2, -2],
            .toNearestOrAwayFromZero: [3, 4, -3, 2, -2],
            .up: [3, 4, -2, 3, -2],
            .down: [2, 3, -3, 2, -3],
            .towardZero: [2, 3, -2, 2, -2],
            .awayFromZero: [3, 4, -3, 3, -3],
        ]
        XCTAssertEqual(Set(expected.keys), Set(Rule.allCases))
        for (rule, values) in expected {
            let got = try inputs.map { try Money($0, currency: .usd, rounding: rule).minorUnits }
            XCTAssertEqual(got, values, "\(rule)")
        }
    }

    func testRoundingStringsLookAtEveryDroppedDigit() throws {
        // A 5 followed by a non-zero digit is above half, whatever comes between.
        XCTAssertEqual(try Money("0.0250000000001", currency: .usd, rounding: .toNearestOrEven).minorUnits, 3)
        XCTAssertEqual(try Money("0.0250000000000", currency: .usd, rounding: .toNearestOrEven).minorUnits, 2)
        XCTAssertEqual(try Money("0.0049999999999", currency: .usd, rounding: .toNearestOrEven).minorUnits, 0)
        XCTAssertEqual(try Money("0.0000000000001", currency: .usd, rounding: .up).minorUnits, 1)
        XCTAssertEqual(try Money("-0.0000000000001", currency: .usd, rounding: .up).minorUnits, 0)
        XCTAssertEqual(try Money("-0.0000000000001", currency: .usd, rounding: .down).minorUnits, -1)
        XCTAssertEqual(try Money("2.5", currency: .jpy, rounding: .toNearestOrEven).minorUnits, 2)
        XCTAssertEqual(try Money("1.2345", currency: .kwd, rounding: .toNearestOrAwayFromZero).minorUnits, 1235)
        // Within the minor unit nothing is rounded.
        XCTAssertEqual(try Money("12.30", currency: .usd, rounding: .up).minorUnits, 1230)
        XCTAssertEqual(
            try Money(Decimal(string: "12.345")!, currency: .usd, rounding: .toNearestOrEven).minorUnits, 1234)
    }

    func testRoundingStringsRefuseWhatTheExactParserRefuses() {
        for bad in ["", "-", "1.", ".5", "1e3", " 1", "1,5", "+1", "--1"] {
            assertCheckoutError(
                try Money(bad, currency: .usd, rounding: .up), code: .malformedAmount, field: "amount", bad)
        }
        assertCheckoutError(
            try Money("92233720368547758.075", currency: .usd, rounding: .up), code: .amountOutOfRange, field: "amount")
        assertCheckoutError(
            try Money("-92233720368547758.085", currency: .usd, rounding: .down), code: .amountOutOfRange)
        assertCheckoutError(try Money(Decimal.nan, currency: .usd, rounding: .up), code: .malformedAmount)
        // The extremes that round into range are fine.
        XCTAssertEqual(try Money("-92233720368547758.075", currency: .usd, rounding: .up).minorUnits, -.max)
        XCTAssertEqual(try Money("-92233720368547758.079", currency: .usd, rounding: .towardZero).minorUnits, -.max)
        XCTAssertEqual(try Money("-92233720368547758.071", currency: .usd, rounding: .down).minorUnits, .min)
    }

    func testPercentages() throws {
        let price = try Money("19.99", currency: .usd)
        XCTAssertEqual(
            try price.percentage(basisPoints: 1000, rounding: .toNearestOrEven), try Money("2.00", currency: .usd))
        XCTAssertEqual(try price.percentage("10", rounding: .down), try Money("1.99", currency: .usd))
        XCTAssertEqual(try price.percentage("10", rounding: .towardZero), try Money("1.99", currency: .usd))
        let other = try Money("12.34", currency: .usd)
        XCTAssertEqual(try other.percentage("10", rounding: .toNearestOrAwayFromZero).minorUnits, 123)
        XCTAssertEqual(try other.percentage("12.5", rounding: .up).minorUnits, 155)
        XCTAssertEqual(try other.percentage("12.500000", rounding: .up).minorUnits, 155)
        XCTAssertEqual(try other.percentage(Decimal(string: "12.5")!, rounding: .up).minorUnits, 155)
        XCTAssertEqual(try other.percentage("-10", rounding: .toNearestOrEven).minorUnits, -123)
        XCTAssertEqual(try other.percentage("100", rounding: .up), other)
        XCTAssertEqual(try other.percentage("0", rounding: .up), .zero(.usd))
        // 0.5 % of 1.00 USD is half a cent.
        let dollar = try Money("1.00", currency: .usd)
        XCTAssertEqual(try dollar.percentage("0.5", rounding: .toNearestOrEven).minorUnits, 0)
        XCTAssertEqual(try dollar.percentage("0.5", rounding: .toNearestOrAwayFromZero).minorUnits, 1)
        XCTAssertEqual(try dollar.percentage(basisPoints: 50, rounding: .toNearestOrEven).minorUnits, 0)
        // Eighteen decimal places are exact.
        let big = Money(minorUnits: 1_000_000_000_000_000_000, currency: .jpy)
        XCTAssertEqual(try big.percentage("0.000000000000000001", rounding: .up).minorUnits, 1)
        XCTAssertEqual(try big.percentage("0.000000000000010000", rounding: .up).minorUnits, 100)
    }

    func testPercentagesAgreeWithBasisPoints() throws {
        for units: Int64 in [-999, -1, 0, 1, 7, 333, 1999, 123_456] {
            let money = Money(minorUnits: units, currency: .eur)
            for basisPoints: Int64 in [0, 1, 5, 50, 125, 1000, 1750, 10_000, -250] {
                let percent = "\(basisPoints / 100).\(String(format: "%02d", abs(basisPoints % 100)))"
                let signed = basisPoints < 0 && basisPoints / 100 == 0 ? "-" + percent : percent
                for rule in Rule.allCases {
                    XCTAssertEqual(
                        try money.percentage(signed, rounding: rule),
                        try money.percentage(basisPoints: basisPoints, rounding: rule),
                        "\(money) \(signed) % \(rule)")
                }
            }
        }
    }

    func testPercentageErrors() {
        let price = Money(minorUnits: 1000, currency: .usd)
        for bad in ["", "10%", "ten", "1e2", ".5", "5.", " 5"] {
            assertCheckoutError(try price.percentage(bad, rounding: .up), code: .malformedAmount, field: "percent", bad)
        }
        assertCheckoutError(try price.percentage(Decimal.nan, rounding: .up), code: .malformedAmount)
        assertCheckoutError(
            try price.percentage("0.0000000000000000001", rounding: .up), code: .amountTooPrecise, field: "percent")
        let max = Money(minorUnits: .max, currency: .usd)
        assertCheckoutError(try max.percentage("200", rounding: .up), code: .amountOutOfRange)
        assertCheckoutError(try max.percentage(basisPoints: 10_001, rounding: .down), code: .amountOutOfRange)
        assertCheckoutError(try max.percentage(basisPoints: .max, rounding: .down), code: .amountOutOfRange)
        assertCheckoutError(
            try price.percentage(String(repeating: "9", count: 60), rounding: .up), code: .amountOutOfRange)
        XCTAssertEqual(try max.percentage("100", rounding: .up), max)
        let min = Money(minorUnits: .min, currency: .usd)
        XCTAssertEqual(try min.percentage("100", rounding: .up), min)
        assertCheckoutError(try min.percentage("-100", rounding: .up), code: .amountOutOfRange)
        assertCheckoutError(try price.scaled(by: 1, over: 0, rounding: .up), code: .invalidField, field: "denominator")
        assertCheckoutError(try min.scaled(by: -1, over: 1, rounding: .up), code: .amountOutOfRange)
        XCTAssertEqual(try min.scaled(by: -1, over: 2, rounding: .up).minorUnits, Int64.max / 2 + 1)
    }

    func testRoundedToMultiple() throws {
        // Swiss cash rounding to 5 centimes.
        let chf = try CurrencyCode("CHF")
        let expectations: [(String, String)] = [
            ("1.02", "1.00"), ("1.03", "1.05"), ("1.025", "1.05"), ("1.07", "1.05"), ("1.08", "1.10"),
            ("-1.03", "-1.05"),
        ]
        for (input, output) in expectations {
            let amount = try Money(input, currency: chf, rounding: .toNearestOrAwayFromZero)
            XCTAssertEqual(
                try amount.rounded(toMultipleOf: 5, rounding: .toNearestOrAwayFromZero),
                try Money(output, currency: chf),
                input)
        }
        // A three-decimal amount Stripe accepts ends in 0.
        let kwd = try Money("1.255", currency: .kwd)
        XCTAssertEqual(try kwd.rounded(toMultipleOf: 10, rounding: .toNearestOrEven).amountString, "1.260")
        XCTAssertEqual(try kwd.rounded(toMultipleOf: 10, rounding: .towardZero).amountString, "1.250")
        XCTAssertEqual(try kwd.rounded(toMultipleOf: 1, rounding: .up), kwd)
        for rule in Rule.allCases {
            for units in -40...40 {
                let got = try Money(minorUnits: Int64(units), currency: .usd).rounded(toMultipleOf: 7, rounding: rule)
                XCTAssertEqual(got.minorUnits, Int64(Self.reference(units, 7, rule) * 7), "\(units) \(rule)")
            }
        }
        assertCheckoutError(try kwd.rounded(toMultipleOf: 0, rounding: .up), code: .invalidField, field: "step")
        assertCheckoutError(try kwd.rounded(toMultipleOf: -5, rounding: .up), code: .invalidField, field: "step")
        assertCheckoutError(
            try Money(minorUnits: .max, currency: .usd).rounded(toMultipleOf: 10, rounding: .up),
            code: .amountOutOfRange)
        XCTAssertEqual(
            try Money(minorUnits: .max, currency: .usd).rounded(toMultipleOf: 10, rounding: .down).minorUnits,
            Int64.max - 7)
    }

    func testRuleNames() {
        XCTAssertEqual(
            Rule.allCases.map(\.description),
            ["toNearestOrEven", "toNearestOrAwayFromZero", "up", "down", "towardZero", "awayFromZero"])
    }
}

final class MoneyComparableTests: XCTestCase {
    func testOrderWithinACurrency() throws {
        let one = try Money("1.00", currency: .usd)
        let two = try Money("2.00", currency: .usd)
        let minusOne = try Money("-1.00", currency: .usd)
        XCTAssertLessThan(one, two)
        XCTAssertLessThan(minusOne, one)
        XCTAssertFalse(two < one)
        XCTAssertFalse(one < one)
        XCTAssertEqual([two, minusOne, one].sorted(), [minusOne, one, two])
        XCTAssertEqual([two, minusOne, one].max(), two)
    }

    func testOrderAcrossCurrenciesIsByCodeThenAmount() throws {
        let nineEuros = try Money("9.00", currency: .eur)
        let oneDollar = try Money("1.00", currency: .usd)
        let twoDollars = try Money("2.00", currency: .usd)
        let yen = try Money("100", currency: .jpy)
        XCTAssertLessThan(nineEuros, oneDollar)
        XCTAssertEqual([twoDollars, yen, oneDollar, nineEuros].sorted(), [nineEuros, yen, oneDollar, twoDollars])
        // isLess(than:) still refuses to compare two currencies.
        assertCheckoutError(try nineEuros.isLess(than: oneDollar), code: .currencyMismatch)
        XCTAssertTrue(try oneDollar.isLess(than: twoDollars))
    }

    func testStrictTotalOrderConsistentWithEquality() throws {
        let values = try [
            Money("0", currency: .usd), Money("0", currency: .eur), Money("0", currency: .jpy),
            Money("-1", currency: .usd), Money("1", currency: .eur), Money("0.01", currency: .usd),
            Money(minorUnits: .min, currency: .kwd), Money(minorUnits: .max, currency: CurrencyCode("AED")),
        ]
        for a in values {
            for b in values {
                let relations = [a < b, a == b, b < a].filter { $0 }.count
                XCTAssertEqual(relations, 1, "\(a) vs \(b)")
                XCTAssertEqual(a < b, (a.currency.code, a.minorUnits) < (b.currency.code, b.minorUnits))
            }
        }
    }
}
