import CheckoutCore
import Foundation
import XCTest

final class MoneyParsingTests: XCTestCase {
    // spec M: exact amounts, W3C grammar, trailing zeros judged by value.
    private static let valid: [(string: String, currency: String, minorUnits: Int64)] = [
        ("0", "USD", 0),
        ("12.50", "USD", 1250),
        ("12.5", "USD", 1250),
        ("12", "USD", 1200),
        ("-12.34", "USD", -1234),
        ("-0", "USD", 0),
        ("-0.00", "USD", 0),
        ("0.010", "USD", 1),
        ("007.50", "USD", 750),
        ("12.3400000000000000000000", "USD", 1234),
        ("500.0", "JPY", 500),
        ("500.000", "JPY", 500),
        ("-500.0", "JPY", -500),
        ("0000000000000000000000012", "JPY", 12),
        ("1.250", "KWD", 1250),
        ("1.25", "KWD", 1250),
        ("1", "KWD", 1000),
        ("0.001", "KWD", 1),
        ("1.2345", "CLF", 12345),
        ("0.0001", "CLF", 1),
        ("9223372036854775807", "JPY", .max),
        ("-9223372036854775808", "JPY", .min),
        ("92233720368547758.07", "USD", .max),
        ("-92233720368547758.08", "USD", .min),
        ("922337203685477.5807", "CLF", .max),
    ]

    func testValidStrings() throws {
        // spec M
        for (string, code, minorUnits) in Self.valid {
            let amount = try Money(string, currency: currency(code))
            XCTAssertEqual(amount.minorUnits, minorUnits, "\(string) \(code)")
            XCTAssertEqual(amount.currency.code, code)
        }
    }

    func testNegativeZeroIsZero() throws {
        // spec M: "-0.00" is zero, equal to and hashing like zero.
        let negativeZero = try Money("-0.00", currency: .usd)
        XCTAssertEqual(negativeZero, Money.zero(.usd))
        XCTAssertEqual(negativeZero.hashValue, Money.zero(.usd).hashValue)
        XCTAssertTrue(negativeZero.isZero)
        XCTAssertFalse(negativeZero.isNegative)
        XCTAssertEqual(negativeZero.amountString, "0.00")
    }

    func testMalformedStrings() {
        // spec M: `^-?[0-9]+(\.[0-9]+)?$`, nothing else.
        let malformed = [
            "10.", ".99", "1.0.0", " 1", "1 ", "$1", "1e3", "+1", "", "-", "1,00", "١٢", "0x10",
            "--1", "-.5", "1.-5", "- 1", "12.5 USD", "1_000", "１２", "NaN", "Infinity", "\n1", "1\n",
            "1.5e-2", "0.", "-0.", "1..0", "٣.٥",
        ]
        for string in malformed {
            for code in ["USD", "JPY", "KWD"] {
                let error = assertCheckoutError(
                    try Money(string, currency: currency(code)),
                    code: .malformedAmount,
                    field: "amount",
                    "\(string.debugDescription) \(code)"
                )
                XCTAssertEqual(error?.value, string)
            }
        }
    }

    func testTooPreciseStrings() {
        // spec M: finer than the minor unit is an error, not a rounding.
        let cases: [(string: String, currency: String)] = [
            ("0.001", "USD"), ("-0.001", "USD"), ("12.501", "USD"), ("0.0010", "USD"),
            ("0.5", "JPY"), ("500.01", "JPY"), ("-0.5", "JPY"),
            ("1.2345", "KWD"), ("0.0001", "KWD"),
            ("0.00001", "CLF"),
            ("1.05", "ISK"),
        ]
        for (string, code) in cases {
            let error = assertCheckoutError(
                try Money(string, currency: currency(code)),
                code: .amountTooPrecise,
                field: "amount",
                "\(string) \(code)"
            )
            XCTAssertEqual(error?.value, string)
            XCTAssertTrue(error?.message.contains(code) ?? false, error?.message ?? "")
        }
    }

    func testOutOfRangeStrings() {
        // Int64 minor units: 9223372036854775807 at most, -9223372036854775808 at least.
        let cases: [(string: String, currency: String)] = [
            ("9223372036854775808", "JPY"),
            ("-9223372036854775809", "JPY"),
            ("92233720368547758.08", "USD"),  // 9223372036854775808 cents: one past Int64.max
            ("-92233720368547758.09", "USD"),
            ("922337203685477.5808", "CLF"),
            ("99999999999999999999", "JPY"),
            ("99999999999999999999", "USD"),
            ("18446744073709551615", "JPY"),  // UInt64.max
            ("18446744073709551616", "JPY"),  // UInt64.max + 1
            ("184467440737095516.16", "USD"),
            ("100000000000000000000000000000000000000", "JPY"),
            ("92233720368547758.070", "USD"),  // fine: one digit too many, but a zero
        ]
        for (string, code) in cases.dropLast() {
            assertCheckoutError(
                try Money(string, currency: currency(code)),
                code: .amountOutOfRange,
                field: "amount",
                "\(string) \(code)"
            )
        }
        XCTAssertEqual(try Money(cases.last!.string, currency: .usd).minorUnits, .max)
    }

    func testHugeInputGivesASmallError() {
        let huge = String(repeating: "9", count: 100_000)
        let error = assertCheckoutError(try Money(huge, currency: .usd), code: .amountOutOfRange)
        XCTAssertLessThanOrEqual(error?.value?.count ?? .max, 257)
        XCTAssertLessThan(error?.message.count ?? .max, 300)
    }

    func testDecimalInitializer() throws {
        let cases: [(decimal: Decimal, currency: String, minorUnits: Int64)] = [
            (Decimal(string: "12.5")!, "USD", 1250),
            (Decimal(string: "-0.99")!, "USD", -99),
            (Decimal(0), "USD", 0),
            (Decimal(500), "JPY", 500),
            (Decimal(sign: .plus, exponent: 2, significand: 5), "JPY", 500),
            (Decimal(string: "1.25")!, "KWD", 1250),
            (Decimal(string: "0.0001")!, "CLF", 1),
            (Decimal(string: "92233720368547758.07")!, "USD", .max),
            (Decimal(string: "-92233720368547758.08")!, "USD", .min),
        ]
        for (decimal, code, minorUnits) in cases {
            XCTAssertEqual(
                try Money(decimal, currency: currency(code)).minorUnits, minorUnits, "\(decimal) \(code)")
        }
        assertCheckoutError(try Money(Decimal(string: "0.001")!, currency: .usd), code: .amountTooPrecise)
        assertCheckoutError(try Money(Decimal(string: "0.5")!, currency: .jpy), code: .amountTooPrecise)
        assertCheckoutError(try Money(Decimal.nan, currency: .usd), code: .malformedAmount, field: "amount")
        assertCheckoutError(try Money(Decimal(string: "1e30")!, currency: .usd), code: .amountOutOfRange)
        assertCheckoutError(
            try Money(Decimal(string: "92233720368547758.08")!, currency: .usd),
            code: .amountOutOfRange
        )
    }

    func testDecimalValueRoundTrips() throws {
        let cases: [(minorUnits: Int64, currency: String, decimal: String)] = [
            (1250, "USD", "12.5"),
            (-99, "USD", "-0.99"),
            (0, "USD", "0"),
            (500, "JPY", "500"),
            (-500, "JPY", "-500"),
            (1250, "KWD", "1.25"),
            (1, "KWD", "0.001"),
            (12345, "CLF", "1.2345"),
            (.max, "USD", "92233720368547758.07"),
            (.min, "USD", "-92233720368547758.08"),
            (.min, "JPY", "-9223372036854775808"),
        ]
        for (minorUnits, code, decimal) in cases {
            let amount = Money(minorUnits: minorUnits, currency: currency(code))
            XCTAssertEqual(amount.decimalValue, Decimal(string: decimal)!, "\(amount)")
            XCTAssertEqual(try Money(amount.decimalValue, currency: amount.currency), amount)
        }
    }

    func testAmountString() throws {
        let cases: [(minorUnits: Int64, currency: String, string: String)] = [
            (1250, "USD", "12.50"),
            (5, "USD", "0.05"),
            (0, "USD", "0.00"),
            (-99, "USD", "-0.99"),
            (-1250, "USD", "-12.50"),
            (-5, "USD", "-0.05"),
            (500, "JPY", "500"),
            (-500, "JPY", "-500"),
            (0, "JPY", "0"),
            (1250, "KWD", "1.250"),
            (1, "KWD", "0.001"),
            (-1, "KWD", "-0.001"),
            (12345, "CLF", "1.2345"),
            (1, "CLF", "0.0001"),
            (-10000, "CLF", "-1.0000"),
            (.max, "USD", "92233720368547758.07"),
            (.min, "USD", "-92233720368547758.08"),
            (.min, "JPY", "-9223372036854775808"),
        ]
        for (minorUnits, code, string) in cases {
            let amount = Money(minorUnits: minorUnits, currency: currency(code))
            XCTAssertEqual(amount.amountString, string)
            XCTAssertEqual(amount.description, "\(string) \(code)")
            // The string parses back to the same amount.
            XCTAssertEqual(try Money(string, currency: amount.currency), amount)
        }
    }

    func testSignPredicates() {
        XCTAssertTrue(money("-0.01").isNegative)
        XCTAssertFalse(money("0.01").isNegative)
        XCTAssertFalse(money("0.01").isZero)
        XCTAssertTrue(Money.zero(.jpy).isZero)
        XCTAssertEqual(Money.zero(.kwd).currency, .kwd)
    }

    func testEqualityNeedsSameCurrency() {
        XCTAssertNotEqual(Money(minorUnits: 100, currency: .usd), Money(minorUnits: 100, currency: .eur))
        XCTAssertEqual(money("1.00"), money("1"))
    }
}

final class MoneyArithmeticTests: XCTestCase {
    func testAdditionAndSubtraction() throws {
        let cases: [(lhs: String, rhs: String, sum: String, difference: String)] = [
            ("12.50", "0.99", "13.49", "11.51"),
            ("0", "0", "0.00", "0.00"),
            ("1", "-2.50", "-1.50", "3.50"),
            ("-0.01", "0.01", "0.00", "-0.02"),
        ]
        for (lhs, rhs, sum, difference) in cases {
            XCTAssertEqual(try (money(lhs) + money(rhs)).amountString, sum, "\(lhs) + \(rhs)")
            XCTAssertEqual(try (money(lhs) - money(rhs)).amountString, difference, "\(lhs) - \(rhs)")
        }
        XCTAssertEqual(try money("1.250", "KWD") + money("0.001", "KWD"), money("1.251", "KWD"))
    }

    func testMixedCurrenciesAreRefused() {
        let dollars = money("1.00")
        let euros = money("1.00", "EUR")
        let sum = assertCheckoutError(try dollars + euros, code: .currencyMismatch)
        XCTAssertEqual(sum?.value, "EUR")
        assertCheckoutError(try dollars - euros, code: .currencyMismatch)
        assertCheckoutError(try dollars.isLess(than: euros), code: .currencyMismatch)
        assertCheckoutError(try Money.sum([dollars, euros], currency: .usd), code: .currencyMismatch)
        assertCheckoutError(try Money.sum([dollars], currency: .eur), code: .currencyMismatch)
        // Same digits, different currency: still refused.
        assertCheckoutError(try money("1", "JPY") + money("1", "KRW"), code: .currencyMismatch)
    }

    func testOverflowIsAnError() {
        let max = Money(minorUnits: .max, currency: .usd)
        let min = Money(minorUnits: .min, currency: .usd)
        let cent = Money(minorUnits: 1, currency: .usd)
        assertCheckoutError(try max + cent, code: .amountOutOfRange, field: "amount")
        assertCheckoutError(try min - cent, code: .amountOutOfRange)
        assertCheckoutError(try cent - min, code: .amountOutOfRange)
        assertCheckoutError(try max.multiplied(by: 2), code: .amountOutOfRange)
        assertCheckoutError(try min.multiplied(by: -1), code: .amountOutOfRange)
        assertCheckoutError(try min.negated(), code: .amountOutOfRange)
        assertCheckoutError(try Money.sum([max, cent], currency: .usd), code: .amountOutOfRange)
        XCTAssertEqual(try (max + Money(minorUnits: -1, currency: .usd)).minorUnits, .max - 1)
        XCTAssertEqual(try (min + max).minorUnits, -1)
    }

    func testMultiplication() throws {
        let cases: [(amount: String, factor: Int64, product: String)] = [
            ("12.50", 3, "37.50"),
            ("12.50", 0, "0.00"),
            ("12.50", -2, "-25.00"),
            ("-0.01", -1, "0.01"),
        ]
        for (amount, factor, product) in cases {
            XCTAssertEqual(
                try money(amount).multiplied(by: factor).amountString, product, "\(amount) × \(factor)")
        }
        XCTAssertEqual(try money("7", "JPY").multiplied(by: 6), money("42", "JPY"))
    }

    func testNegation() throws {
        XCTAssertEqual(try money("12.50").negated(), money("-12.50"))
        XCTAssertEqual(try money("-0.01").negated(), money("0.01"))
        XCTAssertEqual(try Money.zero(.usd).negated(), Money.zero(.usd))
        XCTAssertEqual(try Money(minorUnits: .max, currency: .jpy).negated().minorUnits, -Int64.max)
    }

    func testSum() throws {
        XCTAssertEqual(try Money.sum([], currency: .jpy), Money.zero(.jpy))
        XCTAssertEqual(
            try Money.sum([money("1.10"), money("2.20"), money("-0.30")], currency: .usd), money("3.00"))
        XCTAssertEqual(try Money.sum([money("0.001", "KWD")], currency: .kwd), money("0.001", "KWD"))
    }

    func testComparison() throws {
        XCTAssertTrue(try money("0.99").isLess(than: money("1.00")))
        XCTAssertFalse(try money("1.00").isLess(than: money("1.00")))
        XCTAssertFalse(try money("1.01").isLess(than: money("1.00")))
        XCTAssertTrue(try money("-5").isLess(than: Money.zero(.usd)))
    }
}
