import CheckoutCore
import CheckoutSimulator
import XCTest

/// `Money.amountString` is written digit by digit into a string of its exact length; it must say
/// what the amount's decimal digits say, with exactly the currency's minor digits.
final class AmountStringTests: XCTestCase {
    /// The amount's text built another way: the magnitude's decimal digits, padded with zeros to
    /// one more than the minor digits, the point before the last `digits` of them.
    private func expected(_ minorUnits: Int64, digits: Int) -> String {
        let magnitude = String(minorUnits.magnitude)
        let sign = minorUnits < 0 ? "-" : ""
        guard digits > 0 else { return sign + magnitude }
        let padded = String(repeating: "0", count: max(0, digits + 1 - magnitude.count)) + magnitude
        return sign + padded.dropLast(digits) + "." + padded.suffix(digits)
    }

    func testSeededAmountsOfEveryMinorUnitCountReadAsTheirDigits() throws {
        var random = SeededGenerator(seed: 4217)
        let currencies = try ["JPY", "USD", "KWD", "CLF"].map { try CurrencyCode($0) }
        XCTAssertEqual(currencies.map(\.minorUnitDigits), [0, 2, 3, 4])
        var amounts: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 999, 1000, 10_000, .max, .min, .min + 1]
        for _ in 0..<4_000 {
            // Every size, from one digit to nineteen.
            let bits = Int.random(in: 0...63, using: &random)
            let value = Int64.random(in: 0...(Int64.max >> (63 - bits)), using: &random)
            amounts.append(Bool.random(using: &random) ? value : -value)
        }
        for currency in currencies {
            for minorUnits in amounts {
                let money = Money(minorUnits: minorUnits, currency: currency)
                XCTAssertEqual(
                    money.amountString, expected(minorUnits, digits: currency.minorUnitDigits), "\(minorUnits)")
                XCTAssertEqual(try Money(money.amountString, currency: currency), money, "\(minorUnits)")
            }
        }
    }
}
