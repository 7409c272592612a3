import CheckoutCore
import XCTest

/// Spec A1: every problem of a request names its field path and its value, empty lists too, so
/// that a caller can show every problem the same way.
final class ProblemValueTests: XCTestCase {
    func testEmptyListsCarryTheirValue() {
        // spec A1: `supportedNetworks` and `summaryItems` empty give the value `[]`.
        var request = validRequest()
        request.supportedNetworks = []
        request.summaryItems = []
        let problems = request.problems
        XCTAssertEqual(codesAndFields(problems), ["emptyList @ supportedNetworks", "emptyList @ summaryItems"])
        XCTAssertEqual(problems.map(\.value), ["[]", "[]"])
    }

    func testEveryRequestProblemHasAFieldAndAValue() {
        // spec A1: one request with every kind of problem; none lacks its field or its value.
        let request = PaymentRequest(
            merchantIdentifier: "",
            countryCode: "USA",
            currencyCode: "XYZ",
            supportedNetworks: [],
            merchantCapabilities: [.credit],
            shippingMethods: [
                ShippingMethod(identifier: "a", label: "A", amount: money("1")),
                ShippingMethod(identifier: "a", label: "A again", amount: money("-1")),
            ],
            summaryItems: []
        )
        let problems = request.problems
        XCTAssertEqual(problems.count, 8)
        for problem in problems {
            XCTAssertNotNil(problem.field, "\(problem)")
            XCTAssertNotNil(problem.value, "\(problem)")
        }
    }

    func testAnUpdateWithoutSummaryItemsCarriesItsValue() {
        // spec E7 shares the summary check with A1: the empty list's value is `[]` there too.
        let problems = validRequest().problems(in: ShippingMethodUpdate(summaryItems: []))
        XCTAssertEqual(codesAndFields(problems), ["emptyList @ summaryItems"])
        XCTAssertEqual(problems.first?.value, "[]")
    }
}
