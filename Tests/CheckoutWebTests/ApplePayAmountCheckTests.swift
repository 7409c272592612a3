import CheckoutCore
import CheckoutWeb
import Foundation
import XCTest

/// The amount checks of the merchant's updates read an amount's sign and size from its characters
/// rather than through `Decimal`; these tests hold them to what `Decimal` and WebKit's grammar say,
/// amount by amount.
final class ApplePayAmountCheckTests: XCTestCase {
    /// WebKit's amount grammar, written as a regular expression (the oracle, not the code's scan).
    private func inGrammar(_ amount: String) -> Bool {
        amount.wholeMatch(of: /-?[0-9]+(\.[0-9]{1,2})?/) != nil
    }

    /// What WebKit says of `amount` as a new total for `version`, decided through `Decimal`: the
    /// error's code, or nil when the total is taken.
    private func expectedTotalError(_ amount: String, version: Int) -> CheckoutError.Code? {
        guard inGrammar(amount), let value = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX"))
        else { return .malformedAmount }
        if value < 0 || (value == 0 && version < 4) { return .negativeAmount }
        return value > Decimal(100_000_000) ? .amountOutOfRange : nil
    }

    /// What WebKit says of `amount` as a shipping method's: malformed, negative or taken.
    private func expectedMethodError(_ amount: String) -> CheckoutError.Code? {
        guard inGrammar(amount), let value = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX"))
        else { return .malformedAmount }
        return value < 0 ? .negativeAmount : nil
    }

    private func code(_ body: () throws -> Void) -> CheckoutError.Code? {
        do {
            try body()
            return nil
        } catch let error as CheckoutError {
            return error.code
        } catch {
            XCTFail("not a CheckoutError: \(error)")
            return nil
        }
    }

    /// Edge cases of the grammar and of the comparisons, then seeded random strings.
    private var amounts: [String] {
        var amounts = [
            "", "-", ".", "-.", "0", "-0", "00", "-00.0", "-0.00", "0.0", "0.", ".5", "-.5", "1", "1.5", "1.50",
            "1.505", "1,50", "+1", " 1", "1 ", "1e2", "0x10", "٣", "1.٣", "-1", "-0.01", "0.01", "99999999.99",
            "100000000", "100000000.00", "100000000.01", "0100000000", "0100000000.01", "100000001", "999999999",
            "1000000000", "-1000000000", "0000000000000000000000000000001",
            String(repeating: "9", count: 29), String(repeating: "9", count: 30), String(repeating: "9", count: 31),
            "-" + String(repeating: "9", count: 29), String(repeating: "0", count: 28) + ".0",
            String(repeating: "0", count: 40), String(repeating: "1", count: 45),
        ]
        var seed: UInt64 = 33
        let characters = Array("0123456789001-.,")
        for _ in 0..<2_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(seed >> 59)  // 0 to 31
            var amount = ""
            for position in 0..<length {
                let pick = (seed >> UInt64((position * 2) % 56)) ^ (seed >> 17) &+ UInt64(position)
                amount.append(characters[Int(pick % UInt64(characters.count))])
            }
            amounts.append(amount)
        }
        return amounts
    }

    func testATotalsAmountIsJudgedAsItsDecimal() {
        for amount in amounts {
            for version in [3, 15] {
                let update = ApplePayShippingMethodUpdate(newTotal: ApplePayLineItem(label: "Shop", amount: amount))
                XCTAssertEqual(
                    code { try update.validate(version: version) }, expectedTotalError(amount, version: version),
                    "newTotal \(amount.debugDescription), version \(version)")
            }
        }
    }

    func testLineItemsAndShippingMethodsAreJudgedAsTheirDecimals() {
        let total = ApplePayLineItem(label: "Shop", amount: "10.00")
        for amount in amounts {
            let lines = ApplePayShippingMethodUpdate(
                newTotal: total, newLineItems: [ApplePayLineItem(label: "Tax", amount: amount)])
            XCTAssertEqual(
                code { try lines.validate(version: 15) }, inGrammar(amount) ? nil : .malformedAmount,
                "newLineItems[0] \(amount.debugDescription)")
            let methods = ApplePayShippingMethodUpdate(
                newTotal: total,
                newShippingMethods: [
                    ApplePayShippingMethod(label: "Post", detail: "", amount: amount, identifier: "post")
                ])
            XCTAssertEqual(
                code { try methods.validate(version: 15) }, expectedMethodError(amount),
                "newShippingMethods[0] \(amount.debugDescription)")
        }
    }

    func testErrorsStillNameTheMembersPath() {
        let total = ApplePayLineItem(label: "Shop", amount: "10.00")
        let update = ApplePayShippingMethodUpdate(
            newTotal: total,
            newLineItems: [
                ApplePayLineItem(label: "Tax", amount: "1.00"), ApplePayLineItem(label: "Tip", amount: "1."),
            ],
            newShippingMethods: [ApplePayShippingMethod(label: "Post", detail: "", amount: "-2", identifier: "post")])
        assertCheckoutError(try update.validate(version: 15), code: .malformedAmount, field: "newLineItems[1].amount")
        let methods = ApplePayShippingMethodUpdate(
            newTotal: total,
            newShippingMethods: [
                ApplePayShippingMethod(label: "Post", detail: "", amount: "2", identifier: "post"),
                ApplePayShippingMethod(label: "Fast", detail: "", amount: "-0.01", identifier: "fast"),
            ])
        assertCheckoutError(
            try methods.validate(version: 15), code: .negativeAmount, field: "newShippingMethods[1].amount")
        let twice = ApplePayShippingMethodUpdate(
            newTotal: total,
            newShippingMethods: [
                ApplePayShippingMethod(label: "Post", detail: "", amount: "2", identifier: "post"),
                ApplePayShippingMethod(label: "Post", detail: "", amount: "-0", identifier: "post"),
            ])
        assertCheckoutError(
            try twice.validate(version: 15), code: .duplicateIdentifier, field: "newShippingMethods[1].identifier")
    }
}
