import CheckoutCore
import XCTest

/// A request that passes every check of spec A1, with a discount line and two shipping methods.
func validRequest() -> PaymentRequest {
    PaymentRequest(
        merchantIdentifier: "merchant.com.example",
        countryCode: "US",
        currencyCode: "USD",
        supportedNetworks: [.visa, .masterCard],
        merchantCapabilities: [.threeDSecure, .credit, .debit],
        requiredBillingContactFields: [.postalAddress],
        requiredShippingContactFields: [.name, .postalAddress],
        shippingMethods: [
            ShippingMethod(identifier: "ground", label: "Ground", amount: money("0.00")),
            ShippingMethod(identifier: "express", label: "Express", amount: money("9.99")),
        ],
        summaryItems: [
            SummaryItem(label: "Widget", amount: money("20.00")),
            SummaryItem(label: "Discount", amount: money("-5.00")),
            SummaryItem(label: "Example Inc.", amount: money("15.00")),
        ]
    )
}

/// The (code, field) pairs of a list of problems, for comparison.
func codesAndFields(_ problems: [CheckoutError]) -> [String] {
    problems.map { "\($0.code) @ \($0.field ?? "-")" }
}

/// One invalid variant of ``validRequest()``: how it is changed and the one problem expected.
private typealias ProblemCase = (
    name: String, change: (inout PaymentRequest) -> Void, code: CheckoutError.Code, field: String
)

final class PaymentRequestTests: XCTestCase {
    // The request and the contact keep their fields in a shared box (copy on write): a copy
    // changed in place leaves the original as it was, and both still read as plain values.
    func testCopiesAreValuesThoughTheirFieldsAreShared() {
        let original = validRequest()
        var copy = original
        XCTAssertEqual(copy, original)
        copy.summaryItems[0].label = "Changed"
        copy.currencyCode = "EUR"
        XCTAssertNotEqual(copy, original)
        XCTAssertEqual(original.currencyCode, "USD")
        XCTAssertNotEqual(original.summaryItems[0].label, "Changed")
        XCTAssertEqual(copy.summaryItems[0].label, "Changed")
        var rebuilt = copy
        rebuilt.summaryItems[0].label = original.summaryItems[0].label
        rebuilt.currencyCode = original.currencyCode
        XCTAssertEqual(rebuilt, original, "equal fields, equal requests, whichever box holds them")
        XCTAssertEqual(rebuilt.hashValue, original.hashValue)
        let dumped = String(describing: original)
        XCTAssertTrue(dumped.contains("merchantIdentifier"), dumped)
        XCTAssertFalse(dumped.contains("CopyOnWrite"), dumped)

        let contact = Contact(name: "Jane", emailAddress: "jane@example.com")
        var renamed = contact
        renamed.name = "John"
        XCTAssertEqual(contact.name, "Jane")
        XCTAssertEqual(renamed.name, "John")
        XCTAssertEqual(renamed.emailAddress, contact.emailAddress)
    }

    func testValidRequestHasNoProblems() throws {
        let request = validRequest()
        XCTAssertEqual(request.problems, [])
        XCTAssertNoThrow(try request.validate())
        XCTAssertEqual(request.country?.code, "US")
        XCTAssertEqual(request.currency, .usd)
        XCTAssertEqual(request.grandTotal, money("15.00"))
    }

    func testAcceptedVariants() {
        // spec A1: codes are case-insensitive; EMV alone is enough; a negative line that is not
        // the grand total (a discount) and a zero total are fine.
        let variants: [(name: String, change: (inout PaymentRequest) -> Void)] = [
            ("lower-case country", { $0.countryCode = "us" }),
            ("mixed-case country", { $0.countryCode = "Gb" }),
            ("lower-case currency", { $0.currencyCode = "usd" }),
            ("emv only", { $0.merchantCapabilities = [.emv] }),
            ("3DS only", { $0.merchantCapabilities = .threeDSecure }),
            ("no shipping methods", { $0.shippingMethods = [] }),
            ("zero total", { $0.summaryItems[2].amount = money("0") }),
            ("single item", { $0.summaryItems = [SummaryItem(label: "Example", amount: money("1"))] }),
            ("pending total", { $0.summaryItems[2].type = .pending }),
            ("open network name", { $0.supportedNetworks = [PaymentNetwork(rawValue: "privateLabel")] }),
        ]
        for (name, change) in variants {
            var request = validRequest()
            change(&request)
            XCTAssertEqual(request.problems, [], name)
            XCTAssertNoThrow(try request.validate(), name)
        }
    }

    func testEachProblemAlone() {
        // spec A1: each reason on its own, with its field path.
        let cases: [ProblemCase] = [
            ("empty merchant id", { $0.merchantIdentifier = "" }, .missingField, "merchantIdentifier"),
            ("blank merchant id", { $0.merchantIdentifier = "  " }, .missingField, "merchantIdentifier"),
            ("three-letter country", { $0.countryCode = "USA" }, .unknownCountry, "countryCode"),
            ("unassigned country", { $0.countryCode = "zz" }, .unknownCountry, "countryCode"),
            ("empty country", { $0.countryCode = "" }, .unknownCountry, "countryCode"),
            ("withdrawn currency", { $0.currencyCode = "HRK" }, .unknownCurrency, "currencyCode"),
            ("metal", { $0.currencyCode = "XAU" }, .unknownCurrency, "currencyCode"),
            ("junk currency", { $0.currencyCode = "dollars" }, .unknownCurrency, "currencyCode"),
            ("no networks", { $0.supportedNetworks = [] }, .emptyList, "supportedNetworks"),
            ("no 3DS or EMV", { $0.merchantCapabilities = [.credit] }, .invalidField, "merchantCapabilities"),
            ("no capabilities", { $0.merchantCapabilities = [] }, .invalidField, "merchantCapabilities"),
            ("no summary items", { $0.summaryItems = [] }, .emptyList, "summaryItems"),
            (
                "negative total", { $0.summaryItems[2].amount = money("-0.01") }, .negativeAmount,
                "summaryItems[2].amount"
            ),
            (
                "negative shipping", { $0.shippingMethods[1].amount = money("-1") }, .negativeAmount,
                "shippingMethods[1].amount"
            ),
            (
                "duplicate id", { $0.shippingMethods[1].identifier = "ground" }, .duplicateIdentifier,
                "shippingMethods[1].identifier"
            ),
            (
                "item currency", { $0.summaryItems[0].amount = money("20", "EUR") }, .currencyMismatch,
                "summaryItems[0].amount"
            ),
            (
                "method currency", { $0.shippingMethods[0].amount = money("0", "CAD") }, .currencyMismatch,
                "shippingMethods[0].amount"
            ),
        ]
        for (name, change, code, field) in cases {
            var request = validRequest()
            change(&request)
            let problems = request.problems
            XCTAssertEqual(codesAndFields(problems), ["\(code) @ \(field)"], name)
            let error = assertCheckoutError(try request.validate(), code: .invalidRequest, name)
            XCTAssertEqual(error?.problems, problems, name)
            XCTAssertFalse(error?.message.isEmpty ?? true)
        }
    }

    func testProblemsNameTheOffendingValue() {
        var request = validRequest()
        request.countryCode = "USA"
        request.currencyCode = "HRK"
        request.summaryItems[2].amount = money("-3.00")
        request.shippingMethods[1].identifier = "ground"
        let values = Dictionary(uniqueKeysWithValues: request.problems.map { ($0.field ?? "", $0.value) })
        XCTAssertEqual(values["countryCode"], "USA")
        XCTAssertEqual(values["currencyCode"], "HRK")
        XCTAssertEqual(values["summaryItems[2].amount"], "-3.00 USD")
        XCTAssertEqual(values["shippingMethods[1].identifier"], "ground")
    }

    func testEveryProblemAtOnce() throws {
        // spec A1: an invalid request is refused with every reason found.
        let request = PaymentRequest(
            merchantIdentifier: "",
            countryCode: "USA",
            currencyCode: "XYZ",
            supportedNetworks: [],
            merchantCapabilities: [.credit],
            shippingMethods: [
                ShippingMethod(identifier: "a", label: "A", amount: money("1")),
                ShippingMethod(identifier: "a", label: "A again", amount: money("-1")),
                ShippingMethod(identifier: "a", label: "A thrice", amount: money("2")),
            ],
            summaryItems: []
        )
        let expected = [
            "missingField @ merchantIdentifier",
            "unknownCountry @ countryCode",
            "unknownCurrency @ currencyCode",
            "emptyList @ supportedNetworks",
            "invalidField @ merchantCapabilities",
            "emptyList @ summaryItems",
            "duplicateIdentifier @ shippingMethods[1].identifier",
            "negativeAmount @ shippingMethods[1].amount",
            "duplicateIdentifier @ shippingMethods[2].identifier",
        ]
        XCTAssertEqual(Set(codesAndFields(request.problems)), Set(expected))
        XCTAssertEqual(request.problems.count, expected.count)
        let error = try XCTUnwrap(assertCheckoutError(try request.validate(), code: .invalidRequest))
        XCTAssertEqual(Set(codesAndFields(error.problems)), Set(expected))
        XCTAssertNil(error.field)
        // The description lists each problem.
        for problem in error.problems {
            XCTAssertTrue(error.description.contains(problem.message), problem.message)
        }
    }

    func testCurrencyProblemsWithAValidRequestCurrency() {
        // spec A1: item currency differing from the request's, and a negative grand total.
        var request = validRequest()
        request.currencyCode = "eur"
        request.summaryItems = [
            SummaryItem(label: "Widget", amount: money("20.00", "EUR")),
            SummaryItem(label: "Fee", amount: money("1.00")),
            SummaryItem(label: "Example", amount: money("-1.00")),
        ]
        request.shippingMethods[0].amount = money("0.00", "EUR")
        let expected = [
            "currencyMismatch @ summaryItems[1].amount",
            "currencyMismatch @ summaryItems[2].amount",
            "negativeAmount @ summaryItems[2].amount",
            "currencyMismatch @ shippingMethods[1].amount",
        ]
        XCTAssertEqual(Set(codesAndFields(request.problems)), Set(expected))
        XCTAssertEqual(request.problems.count, expected.count)
    }

    func testDerivedProperties() {
        var request = validRequest()
        request.countryCode = "gb"
        request.currencyCode = "gbp"
        XCTAssertEqual(request.country?.code, "GB")
        XCTAssertEqual(request.currency, .gbp)
        request.countryCode = "GBR"
        request.currencyCode = "GBPP"
        XCTAssertNil(request.country)
        XCTAssertNil(request.currency)
        request.summaryItems = []
        XCTAssertNil(request.grandTotal)
    }
}

final class CheckoutErrorTests: XCTestCase {
    func testNestedUnder() {
        let leaf = CheckoutError(code: .missingField, message: "m", field: "city")
        XCTAssertEqual(leaf.nested(under: "shippingAddress").field, "shippingAddress.city")
        let indexed = CheckoutError(code: .negativeAmount, message: "m", field: "[1].amount")
        XCTAssertEqual(indexed.nested(under: "summaryItems").field, "summaryItems[1].amount")
        let bare = CheckoutError(code: .emptyList, message: "m")
        XCTAssertEqual(bare.nested(under: "shippingMethods").field, "shippingMethods")
        let parent = CheckoutError(code: .invalidUpdate, message: "m", problems: [leaf, indexed])
        XCTAssertEqual(
            parent.nested(under: "update").problems.map(\.field),
            ["update.city", "update[1].amount"]
        )
    }

    func testDescriptionListsProblems() {
        let error = CheckoutError(
            code: .invalidRequest,
            message: "two problems",
            problems: [
                CheckoutError(code: .emptyList, message: "first"),
                CheckoutError(code: .missingField, message: "second"),
            ]
        )
        XCTAssertEqual(
            error.description, "invalidRequest: two problems\n  - emptyList: first\n  - missingField: second")
    }
}
