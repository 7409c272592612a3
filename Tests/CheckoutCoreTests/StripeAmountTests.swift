import CheckoutCore
import XCTest

final class StripeAmountTests: XCTestCase {
    // spec M: Stripe's table where it differs from ISO.
    private static let conversions: [(value: String, currency: String, stripe: Int64)] = [
        ("12.50", "USD", 1250),
        ("0", "USD", 0),
        ("0.01", "USD", 1),
        ("999999.99", "USD", 99_999_999),  // eight digits, Stripe's maximum
        ("500", "JPY", 500),
        ("99999999", "JPY", 99_999_999),
        ("500", "KRW", 500),
        ("12.00", "MGA", 12),  // ISO 2 digits, Stripe zero-decimal
        ("12", "MGA", 12),
        ("500", "ISK", 50000),  // ISO 0 digits, Stripe sends two
        ("999999", "ISK", 99_999_900),
        ("12.34", "HUF", 1234),
        ("1.250", "KWD", 1250),  // three decimals ending in 0
        ("1.25", "BHD", 1250),
        ("0.010", "OMR", 10),
        ("2.5", "JOD", 2500),
        ("3", "TND", 3000),
        ("9999999999.99", "IDR", 999_999_999_999),  // IDR allows twelve digits
        ("1.5", "EUR", 150),
    ]

    func testStripeAmount() throws {
        // spec M
        for (value, code, stripe) in Self.conversions {
            XCTAssertEqual(try money(value, code).stripeAmount(), stripe, "\(value) \(code)")
        }
    }

    func testInverseConversion() throws {
        // spec M: Money(stripeAmount:currency:) undoes stripeAmount().
        for (value, code, stripe) in Self.conversions {
            XCTAssertEqual(
                try Money(stripeAmount: stripe, currency: currency(code)), money(value, code),
                "\(stripe) \(code)")
        }
    }

    func testStripeDecimalDigits() throws {
        // spec M
        let cases: [(currency: String, digits: Int)] = [
            ("USD", 2), ("EUR", 2), ("JPY", 0), ("KRW", 0), ("MGA", 0), ("XOF", 0), ("VUV", 0),
            ("ISK", 2), ("HUF", 2), ("IDR", 2),
            ("KWD", 3), ("BHD", 3), ("JOD", 3), ("OMR", 3), ("TND", 3),
        ]
        for (code, digits) in cases {
            XCTAssertEqual(try CurrencyCode(code).stripeDecimalDigits, digits, code)
        }
    }

    func testAmountsStripeRefuses() {
        // spec M: three-decimal amounts must end in 0; MGA has no fraction at Stripe.
        let cases: [(value: String, currency: String)] = [
            ("12.50", "MGA"),
            ("0.01", "MGA"),
            ("1.255", "KWD"),
            ("0.001", "BHD"),
            ("-0.01", "USD"),  // negative
            ("-500", "JPY"),
            ("-1.250", "KWD"),
            ("1000000.00", "USD"),  // nine digits
            ("100000000", "JPY"),
            ("1000000", "ISK"),  // 100000000 once sent with two decimals
            ("10000000000.00", "IDR"),  // thirteen digits
            ("92233720368547758.07", "EUR"),
            ("9223372036854775807", "ISK"),  // overflows when scaled by 100
        ]
        for (value, code) in cases {
            let error = assertCheckoutError(
                try money(value, code).stripeAmount(),
                code: .unsupportedStripeAmount,
                field: "amount",
                "\(value) \(code)"
            )
            XCTAssertEqual(error?.value, money(value, code).amountString)
        }
    }

    func testInverseRefusals() {
        let cases: [(stripe: Int64, currency: String)] = [
            (-1, "USD"),
            (-500, "JPY"),
            (50050, "ISK"),  // not a whole krona
            (1, "ISK"),
            (.max, "MGA"),  // overflows when scaled to ISO minor units
        ]
        for (stripe, code) in cases {
            let error = assertCheckoutError(
                try Money(stripeAmount: stripe, currency: currency(code)),
                code: .unsupportedStripeAmount,
                field: "amount",
                "\(stripe) \(code)"
            )
            XCTAssertEqual(error?.value, String(stripe))
        }
    }

    func testInverseScalesMGAAndISK() throws {
        XCTAssertEqual(try Money(stripeAmount: 12, currency: currency("MGA")).minorUnits, 1200)
        XCTAssertEqual(try Money(stripeAmount: 50000, currency: currency("ISK")).minorUnits, 500)
        XCTAssertEqual(try Money(stripeAmount: 1250, currency: .kwd).amountString, "1.250")
    }
}
