import CheckoutCore
import Foundation
import XCTest

/// The bad-input catalogue of RELIABILITY.md, one test per row: what every public initializer and
/// decoder does with hostile input. Each gets a typed error naming the field, or is accepted
/// because it is valid; none crashes or hangs.
final class BadInputCatalogueTests: XCTestCase {
    static let tenMegabytes = String(repeating: "9", count: 10_000_000)
    static let hugeText = String(repeating: "x", count: 10_000_000)

    func code(_ body: () throws -> Any) -> CheckoutError.Code? {
        do {
            _ = try body()
            return nil
        } catch let error as CheckoutError {
            return error.code
        } catch {
            return CheckoutError.Code(rawValue: "unexpected \(type(of: error))")
        }
    }

    // Row M1: an empty amount string.
    func testEmptyAmount() {
        XCTAssertEqual(code { try Money("", currency: .usd) }, .malformedAmount)
    }

    // Row M2: a 10 MB string of digits is out of range; the error keeps at most 257 characters.
    func testTenMegabyteAmount() {
        do {
            _ = try Money(Self.tenMegabytes, currency: .usd)
            XCTFail("accepted")
        } catch let error as CheckoutError {
            XCTAssertEqual(error.code, .amountOutOfRange)
            XCTAssertEqual(error.field, "amount")
            XCTAssertLessThanOrEqual(error.value?.count ?? 0, 257)
            XCTAssertLessThan(error.message.count, 300)
        } catch {
            XCTFail("\(error)")
        }
    }

    // Row M3: NUL bytes inside an amount.
    func testNULInAmount() {
        XCTAssertEqual(code { try Money("1\u{0}0", currency: .usd) }, .malformedAmount)
        XCTAssertEqual(code { try Money("\u{0}", currency: .usd) }, .malformedAmount)
    }

    // Row M4: look-alike digits (Arabic-Indic, full-width, superscript) are not digits.
    func testLookAlikeDigits() {
        for text in ["١٢٣", "１２", "²", "1.５"] {
            XCTAssertEqual(code { try Money(text, currency: .usd) }, .malformedAmount, text)
        }
    }

    // Row M5: "-0" and "-0.00" are zero.
    func testNegativeZero() throws {
        XCTAssertEqual(try Money("-0", currency: .usd).minorUnits, 0)
        XCTAssertEqual(try Money("-0.00", currency: .usd).amountString, "0.00")
    }

    // Row M6: amounts beyond 64-bit minor units.
    func testBeyondSixtyFourBits() {
        XCTAssertEqual(code { try Money("92233720368547758.08", currency: .usd) }, .amountOutOfRange)
        XCTAssertEqual(code { try Money("-9223372036854775809", currency: .jpy) }, .amountOutOfRange)
        XCTAssertEqual(try? Money("-9223372036854775808", currency: .jpy).minorUnits, Int64.min)
    }

    // Row M7: 40-digit decimals.
    func testFortyDigitDecimals() {
        let fortyDigits = String(repeating: "1", count: 40)
        XCTAssertEqual(code { try Money(fortyDigits, currency: .usd) }, .amountOutOfRange)
        XCTAssertEqual(
            code { try Money("0." + String(repeating: "0", count: 39) + "1", currency: .usd) }, .amountTooPrecise)
        XCTAssertEqual(try? Money("1." + String(repeating: "0", count: 40), currency: .usd).minorUnits, 100)
    }

    // Row M8: a NaN Decimal.
    func testNaNDecimal() {
        XCTAssertEqual(code { try Money(Decimal.nan, currency: .usd) }, .malformedAmount)
    }

    // Row C1: lower-case currencies are valid; the test codes XTS and XXX are not currencies.
    func testCurrencyCodes() throws {
        XCTAssertEqual(try CurrencyCode("usd").code, "USD")
        for text in ["XTS", "XXX", "xts", "", "US", "USDD", "U\u{0}D", "ＵＳＤ"] {
            XCTAssertEqual(code { try CurrencyCode(text) }, .unknownCurrency, text)
        }
    }

    // Row C2: a 10 MB currency or country code.
    func testHugeCodes() {
        XCTAssertEqual(code { try CurrencyCode(Self.hugeText) }, .unknownCurrency)
        XCTAssertEqual(code { try CountryCode(Self.hugeText) }, .unknownCountry)
        do {
            _ = try CurrencyCode(Self.hugeText)
        } catch let error as CheckoutError {
            XCTAssertLessThanOrEqual(error.value?.count ?? 0, 257)
            XCTAssertLessThan(error.message.count, 300)
        } catch {
            XCTFail("\(error)")
        }
    }

    // Row C3: country codes with NUL, look-alikes, empty.
    func testCountryCodes() throws {
        XCTAssertEqual(try CountryCode("gb").code, "GB")
        for text in ["", "G\u{0}", "ＧＢ", "GBR", "ZZ"] {
            XCTAssertEqual(code { try CountryCode(text) }, .unknownCountry, text)
        }
    }

    // Row S1: client secrets that are empty, huge, with NUL bytes or unicode.
    func testHostileClientSecrets() {
        for text in ["", Self.hugeText, "pi__secret_x\u{0}", "pi_١_secret_x\u{0}_y", "pi_123_secret_abc_def"] {
            XCTAssertEqual(code { try IntentClientSecret(text) }, .invalidClientSecret)
        }
        // Anything that fits P7's grammar `[^_]+` is well formed, NUL and unicode included: the
        // backend decides; the secret part stays masked.
        let odd = try? IntentClientSecret("pi_é_secret_ü\u{0}z")
        XCTAssertEqual(odd?.intentID, "pi_é")
        XCTAssertEqual(odd?.description, "pi_é_secret_•••")
    }

    // Row J1: invalid UTF-8 in JSON is a decoding error.
    func testInvalidUTF8InJSON() {
        var bytes = Array(#"{"currency": "USD", "value": "1.00"}"#.utf8)
        bytes[15] = 0xFF
        XCTAssertThrowsError(try JSONDecoder().decode(Money.self, from: Data(bytes))) { error in
            XCTAssertTrue(error is DecodingError, "\(error)")
        }
        XCTAssertThrowsError(try JSONDecoder().decode(PaymentRequest.self, from: Data([0xC3, 0x28])))
    }

    // Row J2: deeply nested JSON is refused, not a stack overflow.
    func testDeeplyNestedJSON() {
        let depth = 100_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        XCTAssertThrowsError(try JSONDecoder().decode(PaymentRequest.self, from: Data(text.utf8)))
        let nestedObject = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        XCTAssertThrowsError(try JSONDecoder().decode(Contact.self, from: Data(nestedObject.utf8)))
    }

    // Row J3: a lower-case currency in JSON is accepted and made canonical; a bad one names its path.
    func testCurrencyInJSON() throws {
        let money = try JSONDecoder().decode(Money.self, from: Data(#"{"currency": "eur", "value": "2.50"}"#.utf8))
        XCTAssertEqual(money.currency.code, "EUR")
        XCTAssertThrowsError(
            try JSONDecoder().decode(Money.self, from: Data(#"{"currency": "XTS", "value": "2.50"}"#.utf8))
        ) { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["currency"])
        }
    }

    // Row R1: a request with 100,000 summary items is validated (every problem found).
    func testHundredThousandSummaryItems() {
        var items = (0..<100_000).map { SummaryItem(label: "item \($0)", amount: Money(minorUnits: 1, currency: .usd)) }
        items[50_000] = SummaryItem(label: "odd", amount: Money(minorUnits: 1, currency: .eur))
        let request = PaymentRequest(
            merchantIdentifier: "m", countryCode: "US", currencyCode: "USD", summaryItems: items)
        let problems = request.problems
        XCTAssertEqual(problems.map(\.code), [.currencyMismatch])
        XCTAssertEqual(problems.first?.field, "summaryItems[50000].amount")
    }

    // Row R2: duplicate shipping method identifiers are named with their paths.
    func testDuplicateIdentifiers() {
        let method = ShippingMethod(identifier: "same", label: "A", amount: .zero(.usd))
        let problems = ShippingMethod.problems(in: [method, method, method], currency: .usd)
        XCTAssertEqual(problems.map(\.field), ["shippingMethods[1].identifier", "shippingMethods[2].identifier"])
        XCTAssertEqual(problems.map(\.code), [.duplicateIdentifier, .duplicateIdentifier])
    }

    // Row R3: a 10 MB merchant identifier or label is valid input; errors about it stay small.
    func testHugeStringsInARequest() {
        let request = PaymentRequest(
            merchantIdentifier: Self.hugeText,
            countryCode: Self.hugeText,
            currencyCode: "USD",
            summaryItems: [SummaryItem(label: Self.hugeText, amount: Money(minorUnits: 1, currency: .usd))]
        )
        let problems = request.problems
        XCTAssertEqual(problems.map(\.code), [.unknownCountry])
        XCTAssertLessThan(problems.first?.description.count ?? 0, 600)
    }

    // Row A1: addresses with NUL bytes and huge fields.
    func testHostileAddresses() throws {
        let us = try CountryCode("US")
        let nul = Address(line1: "1\u{0}", city: "A", state: "TX", postalCode: "1234\u{0}", country: us)
        XCTAssertEqual(nul.validate().map(\.code), [.invalidPostalCode])
        let blank = Address(line1: " \t", city: "\n", state: "TX", postalCode: "12345", country: us)
        XCTAssertEqual(blank.missingFields, [.line1, .city])
        let huge = Address(line1: Self.hugeText, city: "Austin", state: "TX", postalCode: "12345", country: us)
        XCTAssertEqual(huge.validate(), [])
        XCTAssertFalse(huge.description.contains("xxxxxxxx"), "street masked")
    }

    // Row A2: a contact with a 10 MB name is masked and redacted.
    func testHugeContact() {
        let contact = Contact(name: Self.hugeText, emailAddress: "a@b", postalAddress: Address(city: "Paris"))
        XCTAssertFalse(contact.description.contains("xxxx"))
        XCTAssertNil(contact.redactedForShipping().name)
    }

    // Row T1: Stripe amounts beyond Stripe's limits.
    func testStripeLimits() {
        XCTAssertEqual(
            code { try Money(minorUnits: 100_000_000, currency: .usd).stripeAmount() }, .unsupportedStripeAmount)
        XCTAssertEqual(code { try Money(minorUnits: -1, currency: .usd).stripeAmount() }, .unsupportedStripeAmount)
        XCTAssertEqual(
            code { try Money(stripeAmount: Int64.max, currency: CurrencyCode("ISK")) }, .unsupportedStripeAmount)
        XCTAssertEqual(code { try Money(stripeAmount: 9_223_372_036_854_775_800, currency: CurrencyCode("ISK")) }, nil)
        XCTAssertEqual(code { try Money(stripeAmount: Int64.max, currency: CurrencyCode("KWD")) }, nil)
    }
}

final class SecretMaskingEdgeTests: XCTestCase {
    // Row S2 (spec P7): a combining mark right after `_secret_` does not unmask what follows.
    func testCombiningMarkAfterTheSecretMarker() {
        let text = "pi_1_secret_\u{301}hidden_extra"
        do {
            _ = try IntentClientSecret(text)
            XCTFail("accepted")
        } catch let error as CheckoutError {
            XCTAssertFalse(error.message.contains("hidden"), error.message)
            XCTAssertFalse(error.value?.contains("hidden") ?? true)
            XCTAssertEqual(error.value, "pi_1_secret_•••")
        } catch {
            XCTFail("\(error)")
        }
    }

    // Row S2 (spec P7): a secret part that starts with the mask's bullets is masked like any other;
    // its debug rendering, `IntentClientSecret(pi_1_secret_•••)`, shows the mask and the wrapper,
    // not the secret (the `client-secret` fuzz target once took that for a leak).
    func testSecretPartStartingWithTheMask() throws {
        let secret = try IntentClientSecret("pi_1_secret_•••)")
        XCTAssertEqual(secret.description, "pi_1_secret_•••")
        XCTAssertEqual(secret.debugDescription, "IntentClientSecret(pi_1_secret_•••)")
        let marked = try IntentClientSecret("pi_1_secret_•••QZXJ")
        XCTAssertFalse(marked.description.contains("QZXJ"))
        XCTAssertFalse(marked.debugDescription.contains("QZXJ"))
    }
}
