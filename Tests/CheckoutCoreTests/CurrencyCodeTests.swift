import CheckoutCore
import XCTest

final class CurrencyCodeTests: XCTestCase {
    // spec M: minor units come from the full ISO 4217 table, not from Foundation.
    private static let nonTwoDecimal: [(code: String, digits: Int)] = [
        ("BIF", 0), ("CLP", 0), ("DJF", 0), ("GNF", 0), ("ISK", 0), ("JPY", 0), ("KMF", 0),
        ("KRW", 0), ("PYG", 0), ("RWF", 0), ("UGX", 0), ("UYI", 0), ("VND", 0), ("VUV", 0),
        ("XAF", 0), ("XOF", 0), ("XPF", 0),
        ("BHD", 3), ("IQD", 3), ("JOD", 3), ("KWD", 3), ("LYD", 3), ("OMR", 3), ("TND", 3),
        ("CLF", 4), ("UYW", 4),
    ]

    func testEveryNonTwoDecimalCurrencyHasItsISODigits() throws {
        // spec M
        for (code, digits) in Self.nonTwoDecimal {
            let currency = try CurrencyCode(code)
            XCTAssertEqual(currency.code, code)
            XCTAssertEqual(currency.minorUnitDigits, digits, code)
        }
    }

    func testEveryOtherCurrencyHasTwoDigits() {
        // spec M: the table's only exceptions to two digits are the ISO ones above.
        let exceptions = Dictionary(uniqueKeysWithValues: Self.nonTwoDecimal.map { ($0.code, $0.digits) })
        let all = CurrencyCode.allCodes
        for currency in all {
            XCTAssertEqual(currency.minorUnitDigits, exceptions[currency.code] ?? 2, currency.code)
        }
        let codes = Set(all.map(\.code))
        for code in exceptions.keys {
            XCTAssertTrue(codes.contains(code), "\(code) is missing from allCodes")
        }
    }

    func testCommonTwoDecimalCurrencies() throws {
        for code in ["USD", "EUR", "GBP", "CAD", "CHF", "HUF", "IDR", "MGA", "MRU", "INR", "TWD"] {
            XCTAssertEqual(try CurrencyCode(code).minorUnitDigits, 2, code)
        }
    }

    func testNewCodesArePresent() throws {
        // XCG (Caribbean guilder, 2025) and ZWG (Zimbabwe gold, 2024) replaced ANG and ZWL.
        for code in ["XCG", "ZWG", "SLE", "VED"] {
            let currency = try CurrencyCode(code)
            XCTAssertEqual(currency.code, code)
            XCTAssertEqual(currency.minorUnitDigits, 2, code)
        }
    }

    func testWithdrawnAndJunkCodesAreRefused() {
        // spec A1: the currency must be an active ISO 4217 code.
        let refused = [
            "HRK", "ZWL", "SLL", "ANG",  // withdrawn
            "XAU", "xau", "XDR", "XTS", "XXX",  // no minor unit: not payable
            "US", "USDD", "", " USD", "USD ", "U$D", "123", "EURO",
        ]
        for code in refused {
            let error = assertCheckoutError(
                try CurrencyCode(code), code: .unknownCurrency, field: "currency", code)
            XCTAssertEqual(error?.value, code, "the error names the offending input")
        }
    }

    func testLookupIsCaseInsensitiveAndCanonical() throws {
        XCTAssertEqual(try CurrencyCode("usd").code, "USD")
        XCTAssertEqual(try CurrencyCode("Jpy").code, "JPY")
        XCTAssertEqual(try CurrencyCode("kWd").minorUnitDigits, 3)
        XCTAssertEqual(try CurrencyCode("usd"), CurrencyCode.usd)
        XCTAssertEqual(try CurrencyCode("usd").hashValue, CurrencyCode.usd.hashValue)
    }

    func testNonASCIILettersThatUppercaseToACodeAreRefused() {
        // "ı" (dotless i) and "ſ" (long s) upper-case to "I" and "S"; they are not a spelling of
        // an ISO code.
        for code in ["ınr", "ſek", "ſgd", "ıls"] {
            assertCheckoutError(try CurrencyCode(code), code: .unknownCurrency, code)
        }
    }

    func testStaticConstants() {
        XCTAssertEqual(CurrencyCode.usd.code, "USD")
        XCTAssertEqual(CurrencyCode.eur.code, "EUR")
        XCTAssertEqual(CurrencyCode.gbp.code, "GBP")
        XCTAssertEqual(CurrencyCode.cad.code, "CAD")
        XCTAssertEqual(CurrencyCode.jpy.minorUnitDigits, 0)
        XCTAssertEqual(CurrencyCode.kwd.minorUnitDigits, 3)
    }

    func testAllCodesIsSortedUniqueAndValid() throws {
        let codes = CurrencyCode.allCodes.map(\.code)
        XCTAssertEqual(codes, codes.sorted())
        XCTAssertEqual(Set(codes).count, codes.count)
        XCTAssertGreaterThan(codes.count, 150)
        for code in codes {
            XCTAssertEqual(code.count, 3)
            XCTAssertEqual(try CurrencyCode(code).code, code)
        }
        for withdrawn in ["HRK", "ZWL", "SLL", "ANG", "XAU"] {
            XCTAssertFalse(codes.contains(withdrawn), withdrawn)
        }
    }

    func testOrderingAndDescription() throws {
        XCTAssertLessThan(CurrencyCode.eur, CurrencyCode.usd)
        XCTAssertFalse(CurrencyCode.usd < CurrencyCode.usd)
        XCTAssertEqual(CurrencyCode.kwd.description, "KWD")
        XCTAssertEqual("\(try CurrencyCode("jpy"))", "JPY")
    }

    func testErrorMessageQuotesTheInputAndClipsLongInput() {
        let long = String(repeating: "Q", count: 10_000)
        let error = assertCheckoutError(try CurrencyCode(long), code: .unknownCurrency)
        XCTAssertLessThanOrEqual(error?.value?.count ?? .max, 257)
        XCTAssertLessThan(error?.message.count ?? .max, 200)
        let quoted = assertCheckoutError(try CurrencyCode("ABC\n"), code: .unknownCurrency)
        XCTAssertTrue(quoted?.message.contains("\"ABC\\n\"") ?? false, quoted?.message ?? "")
    }
}

final class CountryCodeTests: XCTestCase {
    func testValidCodesAreCaseInsensitiveAndCanonical() throws {
        // spec A1: ISO 3166-1 alpha-2, case-insensitive, canonical upper case.
        let cases: [(input: String, code: String)] = [
            ("US", "US"), ("us", "US"), ("gB", "GB"), ("de", "DE"), ("AE", "AE"), ("ss", "SS"),
        ]
        for (input, code) in cases {
            XCTAssertEqual(try CountryCode(input).code, code, input)
        }
    }

    func testInvalidCodesAreRefused() {
        // spec A1
        for code in ["USA", "zz", "ZZ", "UK", "EU", "", "U", " US", "U1", "ıe", "ß", "ſe"] {
            let error = assertCheckoutError(
                try CountryCode(code), code: .unknownCountry, field: "country", code)
            XCTAssertEqual(error?.value, code)
        }
    }

    func testPostalCodeRequirement() throws {
        // spec S1: countries without postal codes need none.
        for code in ["AE", "HK", "IE", "QA", "ZW", "JM"] {
            XCTAssertFalse(try CountryCode(code).requiresPostalCode, code)
        }
        for code in ["US", "GB", "CA", "DE", "FR", "JP", "NL", "AU"] {
            XCTAssertTrue(try CountryCode(code).requiresPostalCode, code)
        }
    }

    func testAllCodes() {
        let codes = CountryCode.allCodes.map(\.code)
        // The 249 assigned codes and AC, TA, XK (the issue "Addresses, postal codes and currencies").
        XCTAssertEqual(codes.count, 252)
        XCTAssertTrue(codes.contains("XK"))
        XCTAssertEqual(codes, codes.sorted())
        XCTAssertTrue(codes.contains("SS"))
        XCTAssertFalse(codes.contains("UK"))
        XCTAssertFalse(codes.contains("AN"))
    }
}
