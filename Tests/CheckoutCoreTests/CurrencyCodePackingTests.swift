import CheckoutCore
import XCTest

/// A currency code is one packed word (issue 16: flat data on the hot path): what it answers must
/// be what the table says, for every code, and its order and equality the code's.
final class CurrencyCodePackingTests: XCTestCase {
    func testEveryCodeGivesBackItsLettersAndDigits() throws {
        let codes = CurrencyCode.allCodes
        XCTAssertGreaterThan(codes.count, 150)
        for currency in codes {
            XCTAssertEqual(currency.code.utf8.count, 3, "\(currency)")
            XCTAssertTrue(currency.code.utf8.allSatisfy { (0x41...0x5A).contains($0) }, currency.code)
            let again = try CurrencyCode(currency.code.lowercased())
            XCTAssertEqual(again, currency)
            XCTAssertEqual(again.hashValue, currency.hashValue)
            XCTAssertEqual(again.minorUnitDigits, currency.minorUnitDigits)
        }
        XCTAssertEqual(CurrencyCode.jpy.minorUnitDigits, 0)
        XCTAssertEqual(CurrencyCode.usd.minorUnitDigits, 2)
        XCTAssertEqual(CurrencyCode.kwd.minorUnitDigits, 3)
        XCTAssertEqual(try CurrencyCode("CLF").minorUnitDigits, 4)
        XCTAssertEqual(CurrencyCode.eur.code, "EUR")
    }

    func testCodesOrderAndDifferAsTheirLettersDo() {
        let codes = CurrencyCode.allCodes
        // Ordered by `<` exactly as by the letters, whatever the digits.
        XCTAssertEqual(codes.shuffled().sorted().map(\.code), codes.map(\.code).sorted())
        for (a, b) in zip(codes, codes.dropFirst()) {
            XCTAssertLessThan(a, b)
            XCTAssertFalse(b < a)
            XCTAssertNotEqual(a, b)
        }
        XCTAssertEqual(Set(codes).count, codes.count)
        // Digits do not decide: CLF (4) sorts after CAD (2) and before JPY (0).
        XCTAssertLessThan(CurrencyCode.cad, try CurrencyCode("CLF"))
        XCTAssertLessThan(try CurrencyCode("CLF"), CurrencyCode.jpy)
    }

    func testAmountsAreFlatAndCompareByCurrency() throws {
        // 16 bytes with no reference: minor units and the packed code.
        XCTAssertEqual(MemoryLayout<Money>.size, 12)
        XCTAssertTrue(_isPOD(Money.self))
        let usd = Money(minorUnits: 100, currency: .usd)
        XCTAssertNotEqual(usd, Money(minorUnits: 100, currency: .cad))
        XCTAssertEqual(usd, Money(minorUnits: 100, currency: try CurrencyCode("usd")))
        XCTAssertThrowsError(try usd + Money(minorUnits: 1, currency: .eur))
    }
}
