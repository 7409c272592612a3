import CheckoutCore
import XCTest

private let goodItems = [
    SummaryItem(label: "Widget", amount: money("20.00")),
    SummaryItem(label: "Shipping", amount: money("5.00")),
    SummaryItem(label: "Example Inc.", amount: money("25.00")),
]

private let goodMethods = [
    ShippingMethod(identifier: "ground", label: "Ground", amount: money("5.00")),
    ShippingMethod(identifier: "express", label: "Express", amount: money("15.00")),
]

/// Summary-item lists that break spec E7, with the problems expected.
private let badItemLists: [(name: String, items: [SummaryItem], expected: [String])] = [
    ("empty", [], ["emptyList @ summaryItems"]),
    (
        "negative total",
        [SummaryItem(label: "Refund", amount: money("-1.00"))],
        ["negativeAmount @ summaryItems[0].amount"]
    ),
    (
        "other currency",
        [SummaryItem(label: "Widget", amount: money("20.00", "EUR")), goodItems[2]],
        ["currencyMismatch @ summaryItems[0].amount"]
    ),
    (
        "other currency, negative total",
        [goodItems[0], SummaryItem(label: "Total", amount: money("-20", "JPY"))],
        ["currencyMismatch @ summaryItems[1].amount", "negativeAmount @ summaryItems[1].amount"]
    ),
]

/// Shipping-method lists that break spec E7, with the problems expected.
private let badMethodLists: [(name: String, methods: [ShippingMethod], expected: [String])] = [
    (
        "duplicate identifiers",
        [
            goodMethods[0], goodMethods[1],
            ShippingMethod(identifier: "ground", label: "Ground 2", amount: money("1")),
        ],
        ["duplicateIdentifier @ shippingMethods[2].identifier"]
    ),
    (
        "negative amount",
        [ShippingMethod(identifier: "refund", label: "Refund", amount: money("-0.01"))],
        ["negativeAmount @ shippingMethods[0].amount"]
    ),
    (
        "other currency",
        [goodMethods[0], ShippingMethod(identifier: "x", label: "X", amount: money("1.000", "KWD"))],
        ["currencyMismatch @ shippingMethods[1].amount"]
    ),
]

final class UpdateValidationTests: XCTestCase {
    private let request = validRequest()

    /// Checks `update` against the request: its problems and what `validate(_:)` throws.
    private func check(
        _ update: some PaymentRequestUpdate,
        expected: [String],
        _ name: String,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let problems = request.problems(in: update)
        XCTAssertEqual(Set(codesAndFields(problems)), Set(expected), name, file: file, line: line)
        XCTAssertEqual(problems.count, expected.count, name, file: file, line: line)
        if expected.isEmpty {
            XCTAssertNoThrow(try request.validate(update), name, file: file, line: line)
        } else {
            let error = assertCheckoutError(
                try request.validate(update), code: .invalidUpdate, name, file: file, line: line)
            XCTAssertEqual(error?.problems, problems, name, file: file, line: line)
        }
    }

    func testValidUpdatesOfEveryType() {
        // spec E7
        check(ShippingContactUpdate(summaryItems: goodItems), expected: [], "contact, methods unchanged")
        check(
            ShippingContactUpdate(summaryItems: goodItems, shippingMethods: []), expected: [],
            "contact, no methods")
        check(
            ShippingContactUpdate(summaryItems: goodItems, shippingMethods: goodMethods), expected: [],
            "contact")
        check(ShippingMethodUpdate(summaryItems: goodItems), expected: [], "method")
        check(PaymentMethodUpdate(summaryItems: goodItems), expected: [], "payment method")
        check(CouponCodeUpdate(summaryItems: goodItems, shippingMethods: goodMethods), expected: [], "coupon")
        check(
            CouponCodeUpdate(errors: [.couponCodeInvalid("no such coupon")], summaryItems: goodItems),
            expected: [],
            "coupon with an error"
        )
        check(
            ShippingContactUpdate(
                errors: [.shippingAddressUnserviceable("we do not ship there")],
                summaryItems: [SummaryItem(label: "Total", amount: money("0"))]
            ),
            expected: [],
            "contact with an error, zero total"
        )
    }

    func testSummaryItemRulesForEveryType() {
        // spec E7: non-empty, the request's currency, grand total >= 0.
        for (name, items, expected) in badItemLists {
            check(ShippingContactUpdate(summaryItems: items), expected: expected, "contact: \(name)")
            check(ShippingMethodUpdate(summaryItems: items), expected: expected, "method: \(name)")
            check(PaymentMethodUpdate(summaryItems: items), expected: expected, "payment method: \(name)")
            check(CouponCodeUpdate(summaryItems: items), expected: expected, "coupon: \(name)")
        }
    }

    func testShippingMethodRulesForUpdatesThatCarryMethods() {
        // spec E7: identifiers unique, amounts >= 0, in the request's currency.
        for (name, methods, expected) in badMethodLists {
            check(
                ShippingContactUpdate(summaryItems: goodItems, shippingMethods: methods),
                expected: expected,
                "contact: \(name)"
            )
            check(
                CouponCodeUpdate(summaryItems: goodItems, shippingMethods: methods),
                expected: expected,
                "coupon: \(name)"
            )
        }
    }

    func testShippingMethodProblemsDirectly() {
        // spec A1 and E7: the one check shared by requests, updates and the shipping flow.
        XCTAssertEqual(ShippingMethod.problems(in: goodMethods, currency: .usd), [])
        XCTAssertEqual(ShippingMethod.problems(in: [], currency: .usd), [])
        for (name, methods, expected) in badMethodLists {
            let problems = ShippingMethod.problems(in: methods, currency: .usd)
            XCTAssertEqual(codesAndFields(problems), expected, name)
        }
        // Without a currency to compare with, only identifiers and signs are judged.
        XCTAssertEqual(ShippingMethod.problems(in: badMethodLists[2].methods, currency: nil), [])
        XCTAssertEqual(
            codesAndFields(ShippingMethod.problems(in: goodMethods, currency: .eur)),
            ["currencyMismatch @ shippingMethods[0].amount", "currencyMismatch @ shippingMethods[1].amount"]
        )
    }

    func testSummaryAndMethodProblemsTogether() {
        let update = ShippingContactUpdate(
            summaryItems: badItemLists[3].items, shippingMethods: badMethodLists[0].methods)
        check(update, expected: badItemLists[3].expected + badMethodLists[0].expected, "both")
    }

    func testMethodAndPaymentMethodUpdatesCarryNoMethods() {
        XCTAssertNil(ShippingMethodUpdate(summaryItems: goodItems).shippingMethods)
        XCTAssertEqual(ShippingMethodUpdate(summaryItems: goodItems).errors, [])
        XCTAssertNil(PaymentMethodUpdate(summaryItems: goodItems).shippingMethods)
    }

    func testUpdatesAreJudgedByTheRequestsCurrency() {
        // spec E7: "one currency (the request's)": an all-euro update does not fit a dollar request.
        let euros = [SummaryItem(label: "Total", amount: money("5.00", "EUR"))]
        check(
            PaymentMethodUpdate(summaryItems: euros), expected: ["currencyMismatch @ summaryItems[0].amount"],
            "euros")
        var euroRequest = validRequest()
        euroRequest.currencyCode = "eur"
        XCTAssertEqual(euroRequest.problems(in: PaymentMethodUpdate(summaryItems: euros)), [])
    }
}
