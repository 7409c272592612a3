// libFuzzer target `money`: the input bytes, read as UTF-8, are an amount string.
//
// Each string is parsed with `Money(_:currency:)` in currencies of 0, 2, 3 and 4 minor digits (and
// the ones Stripe treats differently), and compared with an independent reference parser of the
// W3C grammar `^-?[0-9]+(\.[0-9]+)?$`. When it parses: `amountString` parses back to the same
// value, `decimalValue` converts back to the same value, the JSON shape round-trips,
// `stripeAmount()` never crashes and maps back, and the arithmetic never traps.
//
// Built and run by Scripts/fuzz.sh (not by SwiftPM).

import CheckoutCore
import Foundation

private let currencies: [CurrencyCode] = [
    "JPY", "ISK", "USD", "MGA", "HUF", "IDR", "KWD", "BHD", "IQD", "CLF", "UYW",
].map { try! CurrencyCode($0) }

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("money invariant broken: \(message())") }
}

/// What the reference parser expects `Money(string, currency:)` to do.
private enum Expected: Equatable {
    case value(Int64)
    case error(CheckoutError.Code)
}

/// An independent implementation of the documented rules: the grammar first, then precision,
/// then the 64-bit range, judged on the decimal digits as text.
private func reference(_ string: String, digits: Int) -> Expected {
    var bytes = Array(string.utf8)[...]
    let negative = bytes.first == UInt8(ascii: "-")
    if negative { bytes = bytes.dropFirst() }
    let isDigit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    let integer = bytes.prefix(while: isDigit)
    var rest = bytes.dropFirst(integer.count)
    var fraction: ArraySlice<UInt8> = []
    if rest.first == UInt8(ascii: ".") {
        rest = rest.dropFirst()
        fraction = rest.prefix(while: isDigit)
        rest = rest.dropFirst(fraction.count)
        if fraction.isEmpty { return .error(.malformedAmount) }
    }
    guard !integer.isEmpty, rest.isEmpty else { return .error(.malformedAmount) }
    if fraction.dropFirst(digits).contains(where: { $0 != UInt8(ascii: "0") }) {
        return .error(.amountTooPrecise)
    }
    var kept = Array(integer) + Array(fraction.prefix(digits))
    kept += Array(repeating: UInt8(ascii: "0"), count: digits - min(digits, fraction.count))
    let significant = Array(kept.drop { $0 == UInt8(ascii: "0") })
    let limit = Array((negative ? "9223372036854775808" : "9223372036854775807").utf8)
    let tooLarge =
        significant.count > limit.count
        || (significant.count == limit.count && limit.lexicographicallyPrecedes(significant))
    if tooLarge { return .error(.amountOutOfRange) }
    let text = (negative ? "-" : "") + (significant.isEmpty ? "0" : String(decoding: significant, as: UTF8.self))
    guard let value = Int64(text) else { return .error(.amountOutOfRange) }
    return .value(value)
}

private func parse(_ body: () throws -> Money) -> Expected {
    do {
        return .value(try body().minorUnits)
    } catch let error as CheckoutError {
        return .error(error.code)
    } catch {
        fatalError("money: a non-CheckoutError was thrown: \(error)")
    }
}

private func checkArithmetic(_ money: Money) {
    let currency = money.currency
    let pairs: [(Money, Money)] = [
        (money, money), (money, .zero(currency)), (money, Money(minorUnits: 1, currency: currency)),
        (money, Money(minorUnits: -1, currency: currency)), (money, Money(minorUnits: .min, currency: currency)),
        (money, Money(minorUnits: .max, currency: currency)),
    ]
    for (a, b) in pairs {
        let (sum, sumOverflow) = a.minorUnits.addingReportingOverflow(b.minorUnits)
        switch Result(catching: { try a + b }) {
        case .success(let result): require(!sumOverflow && result.minorUnits == sum, "\(a) + \(b) = \(result)")
        case .failure: require(sumOverflow, "\(a) + \(b) threw without overflowing")
        }
        let (difference, differenceOverflow) = a.minorUnits.subtractingReportingOverflow(b.minorUnits)
        switch Result(catching: { try a - b }) {
        case .success(let result):
            require(!differenceOverflow && result.minorUnits == difference, "\(a) - \(b) = \(result)")
        case .failure: require(differenceOverflow, "\(a) - \(b) threw without overflowing")
        }
        require((try? a.isLess(than: b)) == (a.minorUnits < b.minorUnits), "\(a) < \(b)")
    }
    for factor: Int64 in [0, 1, -1, 2, 10, 100, .max, .min] {
        let (product, overflow) = money.minorUnits.multipliedReportingOverflow(by: factor)
        let result = try? money.multiplied(by: factor)
        require(result?.minorUnits == (overflow ? nil : product), "\(money) × \(factor)")
    }
    let negated = try? money.negated()
    require(negated?.minorUnits == (money.minorUnits == .min ? nil : -money.minorUnits), "-(\(money))")
    let other = currency == .usd ? CurrencyCode.eur : CurrencyCode.usd
    require((try? money + Money(minorUnits: 0, currency: other)) == nil, "\(money) + 0 \(other) mixed currencies")
    _ = try? Money.sum([money, money, money], currency: currency)
}

private func checkStripe(_ money: Money) {
    let amount: Int64
    do {
        amount = try money.stripeAmount()
    } catch let error as CheckoutError {
        require(error.code == .unsupportedStripeAmount, "stripeAmount threw \(error.code)")
        return
    } catch {
        fatalError("stripeAmount threw a non-CheckoutError: \(error)")
    }
    require(amount >= 0, "stripeAmount of \(money) is negative: \(amount)")
    let back = try? Money(stripeAmount: amount, currency: money.currency)
    require(back == money, "Money(stripeAmount: \(amount)) is \(String(describing: back)), not \(money)")
}

private func check(_ money: Money, from string: String) {
    let currency = money.currency
    // amountString parses back to the same value, and is in canonical form.
    let text = money.amountString
    require(
        (try? Money(text, currency: currency)) == money,
        "amountString \(text) of \(string) \(currency) does not parse back")
    require(money.description == "\(text) \(currency.code)", "description \(money.description)")
    if currency.minorUnitDigits > 0 {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        require(
            parts.count == 2 && parts[1].count == currency.minorUnitDigits,
            "amountString \(text) does not have \(currency.minorUnitDigits) minor digits")
    } else {
        require(!text.contains("."), "amountString \(text) of a zero-digit currency has a point")
    }
    // Decimal round trip.
    let decimal = money.decimalValue
    let fromDecimal = Result { try Money(decimal, currency: currency) }
    require(
        (try? fromDecimal.get()) == money,
        "Decimal round trip of \(money): \(decimal) gave \(fromDecimal)")
    // The JSON shape round-trips.
    do {
        let data = try JSONEncoder().encode(money)
        let decoded = try JSONDecoder().decode(Money.self, from: data)
        require(decoded == money, "JSON round trip of \(money) gave \(decoded)")
    } catch {
        fatalError("money: JSON round trip of \(money) threw \(error)")
    }
    checkStripe(money)
    checkArithmetic(money)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let string = String(decoding: bytes, as: UTF8.self)
    for currency in currencies {
        let expected = reference(string, digits: currency.minorUnitDigits)
        let actual = parse { try Money(string, currency: currency) }
        require(actual == expected, "Money(\(string.debugDescription), \(currency)): \(actual), expected \(expected)")
        if case .value = actual, let money = try? Money(string, currency: currency) {
            check(money, from: string)
        }
        // Decimal's own parser accepts more forms ("1e3", ".5"); converting whatever it reads
        // must not crash, and for a plain string of few digits it agrees with the string parser.
        if let decimal = Decimal(string: string, locale: Locale(identifier: "en_US_POSIX")) {
            let viaDecimal = parse { try Money(decimal, currency: currency) }
            if string.utf8.count <= 30, case .value = expected, !string.hasPrefix("-0") {
                require(viaDecimal == expected, "Money(Decimal(\(string))) = \(viaDecimal), expected \(expected)")
            }
        }
    }
    return 0
}
