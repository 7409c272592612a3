import CheckoutCore
import CheckoutSimulator
import Foundation
import XCTest

/// Scenario files a new user gets wrong, or a hostile one writes: each is refused at load with
/// exit 2 and one to three lines naming the file and the key or value, and none crashes.
final class HostileScenarioTests: XCTestCase {
    let cli = SimHarness()

    static let item = #"{"label": "Tea", "amount": {"currency": "USD", "value": "24.00"}}"#
    static let request =
        #"{"merchantIdentifier": "merchant.com.example", "countryCode": "US", "currencyCode": "USD", "#
        + #""summaryItems": [\#(item)]}"#

    /// A payment-authorization scenario with these parts (JSON text).
    static func authorization(
        request: String = request, merchant: String = "{}", steps: String = "[]", expect: String? = nil,
        extra: String = ""
    ) -> String {
        #"{"flow": "paymentAuthorization", "request": \#(request), "merchant": \#(merchant), "steps": \#(steps)"#
            + (expect.map { #", "expect": \#($0)"# } ?? "") + extra + "}"
    }

    static func shipping(merchant: String = "{}", steps: String = "[]", expect: String? = nil) -> String {
        #"{"flow": "shippingAddress", "request": {"requiredShippingAddressFields": ["postalAddress"], "#
            + #""shippingType": "shipping"}, "merchant": \#(merchant), "steps": \#(steps)"#
            + (expect.map { #", "expect": \#($0)"# } ?? "") + "}"
    }

    static func payContext(merchant: String = "{}", steps: String = "[]") -> String {
        authorization(merchant: merchant, steps: steps).replacingOccurrences(
            of: "\"paymentAuthorization\"", with: "\"payContext\"")
    }

    /// Each file is refused with exit 2, in one to three lines that name the file and contain `message`.
    func assertRefused(
        _ cases: [(String, String)], file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        for (text, message) in cases {
            let path = try cli.file(text)
            for command in [["run", path], ["test", path], ["explore", path, "--sessions", "1"]] {
                let run = await cli.sim(command)
                let lines = run.err.split(separator: "\n")
                XCTAssertEqual(run.code, 2, "\(command[0]) \(message): \(run.err)\(run.out)", file: file, line: line)
                if command[0] == "test" {
                    // test reports the file as one failure and says why.
                    XCTAssertTrue(
                        run.out.contains(message), "test: expected '\(message)' in: \(run.out)", file: file, line: line)
                    continue
                }
                XCTAssertTrue((1...3).contains(lines.count), "1-3 lines: \(run.err)", file: file, line: line)
                XCTAssertTrue(run.err.contains(message), "expected '\(message)' in: \(run.err)", file: file, line: line)
                XCTAssertTrue(run.err.contains(path), "names the file: \(run.err)", file: file, line: line)
            }
        }
    }

    func testTheBaseScenariosLoad() throws {
        for text in [Self.authorization(), Self.shipping(), Self.payContext()] {
            XCTAssertNoThrow(try Scenario.load(json: Array(text.utf8)), text)
        }
    }

    func testUnknownKeysAreRefusedWithTheirPathAndTheNearestKey() async throws {
        let contact = #"{"address": {"city": "Austin", "state": "TX", "postal_code": "78701", "country": "US"}}"#
        try await assertRefused([
            (
                Self.shipping(merchant: #"{"unservicable": [{"country": "US", "state": "AK"}]}"#),
                "unknown key `merchant.unservicable`; did you mean `unserviceable`?"
            ),
            (
                Self.authorization(merchant: #"{"coupon": [{"code": "TEN", "percentOff": "10"}]}"#),
                "unknown key `merchant.coupon`; did you mean `coupons`?"
            ),
            (Self.authorization(extra: #", "stric": true"#), "unknown key `stric`; did you mean `strict`?"),
            (
                Self.authorization(request: Self.request.replacingOccurrences(of: "countryCode", with: "country_code")),
                "unknown key `request.country_code`; did you mean `countryCode`?"
            ),
            (
                Self.authorization(merchant: #"{"coupons": [{"code": "TEN", "precentOff": "10"}]}"#),
                "unknown key `merchant.coupons[0].precentOff`; did you mean `percentOff`?"
            ),
            (
                Self.payContext(merchant: #"{"intent": {"knd": "setupIntent"}}"#),
                "unknown key `merchant.intent.knd`; did you mean `kind`?"
            ),
            (
                Self.authorization(
                    merchant:
                        #"{"misbehaviour": [{"callback": "didSelectShippingMethod", "kind": "late", "second": 3}]}"#),
                "unknown key `merchant.misbehaviour[0].second`; did you mean `seconds`?"
            ),
            (
                Self.authorization(steps: #"[{"action": "authorize", "crd": "4242"}]"#),
                "unknown key `steps[0].crd`; did you mean `card`?"
            ),
            (
                Self.authorization(steps: #"[{"action": "selectShippingContact", "contact": {"adress": {}}}]"#),
                "unknown key `steps[0].contact.adress`; did you mean `address`?"
            ),
            (
                Self.authorization(
                    steps: #"[{"action": "selectShippingContact", "contact": {"address": {"zip": "1"}}}]"#),
                "unknown key `steps[0].contact.address.zip`"
            ),
            (
                Self.authorization(steps: #"[{"action": "cancel", "seconds": 1}]"#),
                "unknown key `steps[0].seconds`"
            ),
            (
                Self.authorization(expect: #"{"outcomes": "success"}"#),
                "unknown key `expect.outcomes`; did you mean `outcome`?"
            ),
            (
                Self.authorization(request: Self.request.replacingOccurrences(of: "\"value\"", with: "\"amount\"")),
                "unknown key `request.summaryItems[0].amount.amount`"
            ),
            (
                Self.authorization(
                    steps: "[{\"action\": \"selectShippingContact\", \"contact\": \(contact), \"x\": 1}]"),
                "unknown key `steps[0].x`"
            ),
        ])
    }

    func testEnumeratedValuesAreCheckedAgainstTheirSet() async throws {
        try await assertRefused([
            (#"{"flow": "payContxt", "steps": []}"#, "unknown value `payContxt` at `flow`; did you mean `payContext`?"),
            (#"{"steps": []}"#, "missing key `flow`"),
            (Self.authorization(steps: #"[{"action": "authorise", "card": "4242"}]"#), "did you mean `authorize`?"),
            (
                Self.authorization(steps: #"[{"action": "enterAddress", "contact": {}}]"#),
                "`enterAddress` at `steps[0].action` is not a step of the paymentAuthorization flow"
            ),
            (
                Self.shipping(steps: #"[{"action": "authorize", "card": "4242"}]"#),
                "is not a step of the shippingAddress flow"
            ),
            (
                Self.authorization(expect: #"{"outcome": "authorised"}"#),
                "`authorised` is not an outcome of the paymentAuthorization flow"
            ),
            (
                Self.shipping(expect: #"{"outcome": "success"}"#),
                "`success` is not an outcome of the shippingAddress flow"
            ),
            (
                Self.authorization(expect: #"{"violations": ["completionCalledTwise"]}"#),
                "unknown value `completionCalledTwise` at `expect.violations[0]`; did you mean `completionCalledTwice`?"
            ),
            (
                Self.authorization(expect: #"{"delegateCalls": ["didSelectShippingContacts"]}"#),
                "did you mean `didSelectShippingContact`?"
            ),
            (
                Self.authorization(expect: #"{"delegateCalls": ["didEnterAddress"]}"#),
                "`didEnterAddress` at `expect.delegateCalls[0]` is not a delegate method of the paymentAuthorization flow"
            ),
            (
                Self.authorization(
                    merchant: #"{"misbehaviour": [{"callback": "didCreatePaymentMethod", "kind": "twice"}]}"#),
                "`didCreatePaymentMethod` at `merchant.misbehaviour[0].callback` is not a callback of the paymentAuthorization flow"
            ),
            (
                Self.authorization(
                    merchant: #"{"misbehaviour": [{"callback": "didSelectShippingMethod", "kind": "twise"}]}"#),
                "did you mean `twice`?"
            ),
            (
                Self.authorization(
                    request: Self.request.replacingOccurrences(
                        of: "\"summaryItems\"", with: "\"supportedNetworks\": [\"vsa\"], \"summaryItems\"")),
                "unknown value `vsa` at `request.supportedNetworks[0]`; did you mean `visa`?"
            ),
            (
                Self.authorization(
                    request: Self.request.replacingOccurrences(
                        of: "\"summaryItems\"", with: "\"merchantCapabilities\": [\"3DS\"], \"summaryItems\"")),
                "unknown value `3DS` at `request.merchantCapabilities[0]`"
            ),
            (
                Self.authorization(merchant: #"{"requiredContactFields": ["email"]}"#),
                "unknown value `email` at `merchant.requiredContactFields[0]`"
            ),
            (
                Self.payContext(merchant: #"{"intent": {"captureMethod": "later"}}"#),
                "unknown value `later` at `merchant.intent.captureMethod`"
            ),
            (
                Self.shipping(merchant: #"{"intent": {"kind": "setupIntent"}}"#),
                "`merchant.intent` has no effect in the shippingAddress flow"
            ),
        ])
    }

    func testNumbersAreCheckedForTypeAndRange() async throws {
        try await assertRefused([
            (
                Self.authorization(extra: #", "deadlineSeconds": 2.5"#),
                "expected a whole number at `deadlineSeconds`, found 2.5"
            ),
            (
                Self.authorization(extra: #", "deadlineSeconds": 1e+30"#),
                "expected a whole number at `deadlineSeconds`, found 1e+30"
            ),
            (
                Self.authorization(extra: #", "deadlineSeconds": 9223372036854776000"#),
                "9223372036854776000 at `deadlineSeconds` is out of range: expected 0 to 1000000000"
            ),
            (Self.authorization(extra: #", "deadlineSeconds": "30""#), "at `deadlineSeconds`: expected a whole number"),
            (Self.authorization(extra: #", "deadlineSeconds": -1"#), "-1 at `deadlineSeconds` is out of range"),
            (
                Self.authorization(steps: #"[{"action": "wait", "seconds": 1.0}]"#),
                "expected a whole number at `steps[0].seconds`"
            ),
            (
                Self.authorization(
                    merchant:
                        #"{"misbehaviour": [{"callback": "didSelectShippingMethod", "kind": "twice", "times": 0}]}"#),
                "0 at `merchant.misbehaviour[0].times` is out of range"
            ),
            (Self.authorization(extra: #", "strict": 1"#), "at `strict`: expected true or false, found a number"),
            (
                Self.authorization(request: Self.request.replacingOccurrences(of: "\"24.00\"", with: "24.00")),
                "at `request.summaryItems[0].amount.value`: expected a string, found a number"
            ),
        ])
    }

    func testArraysForObjectsAndObjectsForArrays() async throws {
        try await assertRefused([
            ("[]", "expected a scenario (a JSON object), found an array"),
            ("\"scenario\"", "expected a scenario (a JSON object), found a string"),
            (Self.authorization(merchant: "[]"), "at `merchant`: expected the merchant (an object), found an array"),
            (Self.authorization(steps: "{}"), "at `steps`: expected an array, found an object"),
            (
                Self.authorization(steps: "[[]]"),
                "at `steps[0]`: expected a step of the paymentAuthorization flow, found an array"
            ),
            (Self.authorization(request: "[]"), "at `request`: expected a payment request (an object), found an array"),
            (Self.authorization(expect: "[]"), "at `expect`: expected an expectation (an object), found an array"),
            (
                Self.authorization(merchant: #"{"coupons": {"code": "TEN"}}"#),
                "at `merchant.coupons`: expected an array"
            ),
            (Self.authorization(steps: #"[{"card": "4242"}]"#), "missing key `steps[0].action`"),
            (Self.authorization(steps: #"[{"action": "authorize"}]"#), "missing key `steps[0].card`"),
            (Self.authorization(steps: "null"), "at `steps`: expected an array, found null"),
        ])
    }

    func testRequestsThatCannotBePresentedAreRefusedWithEveryProblem() async throws {
        let other = #"{"label": "Tea", "amount": {"currency": "EUR", "value": "24.00"}}"#
        try await assertRefused([
            (
                Self.authorization(
                    request: Self.request.replacingOccurrences(
                        of: "\"currencyCode\": \"USD\"", with: "\"currencyCode\": \"XYZ\""
                    )
                    .replacingOccurrences(of: "\"countryCode\": \"US\"", with: "\"countryCode\": \"ZZ\"")),
                "the payment request cannot be presented: country \"ZZ\" is not an ISO 3166-1 alpha-2 code; currency \"XYZ\""
            ),
            (
                Self.authorization(request: Self.request.replacingOccurrences(of: "[\(Self.item)]", with: "[]")),
                "summaryItems is empty"
            ),
            (
                Self.authorization(
                    request: Self.request.replacingOccurrences(of: "[\(Self.item)]", with: "[\(Self.item), \(other)]")),
                "the request in USD"
            ),
            (
                Self.authorization(
                    request: Self.request.replacingOccurrences(
                        of: "\"summaryItems\"", with: "\"supportedNetworks\": [], \"summaryItems\"")),
                "supportedNetworks is empty"
            ),
            (
                Self.authorization(
                    request: Self.request.replacingOccurrences(
                        of: "\"summaryItems\"", with: "\"merchantCapabilities\": [\"credit\"], \"summaryItems\"")),
                "merchantCapabilities must include threeDSecure or emv"
            ),
            (
                Self.authorization(
                    request: #"{"merchantIdentifier": "m", "countryCode": "US", "currencyCode": "USD"}"#),
                "missing key `request.summaryItems`"
            ),
            (
                #"{"flow": "shippingAddress", "request": {"requiredShippingAddressFields": [], "shippingType": "storePickup"}, "steps": []}"#,
                "the shipping configuration cannot be presented: requiredShippingAddressFields must not be empty; "
            ),
            (#"{"flow": "payContext", "steps": []}"#, "missing key `request`"),
        ])
    }

    /// Absent `supportedNetworks` and `merchantCapabilities` mean what the Swift initializer's
    /// defaults mean, so a request that leaves them out can be presented.
    func testTheJSONDefaultsAreTheSwiftDefaults() throws {
        let scenario = try Scenario.load(json: Array(Self.authorization().utf8))
        let swift = PaymentRequest(
            merchantIdentifier: "merchant.com.example", countryCode: "US", currencyCode: "USD",
            summaryItems: [SummaryItem(label: "Tea", amount: try Money("24.00", currency: CurrencyCode("USD")))])
        XCTAssertEqual(scenario.paymentRequest, swift)
        XCTAssertEqual(scenario.paymentRequest?.problems, [])
    }

    func testMerchantRulesAreValidatedAtLoad() async throws {
        try await assertRefused([
            (
                Self.authorization(merchant: #"{"coupons": [{"code": "BIG", "percentOff": "150"}]}"#),
                "`merchant.coupons[0].percentOff` is 150; a percentage is at most 100"
            ),
            (
                Self.authorization(merchant: #"{"coupons": [{"code": "BIG", "percentOff": "ten"}]}"#),
                "`merchant.coupons[0].percentOff`"
            ),
            (
                Self.authorization(
                    merchant: #"{"coupons": [{"code": "X", "amountOff": {"currency": "EUR", "value": "1.00"}}]}"#),
                "`merchant.coupons[0].amountOff` is in EUR, the request in USD"
            ),
            (Self.authorization(merchant: #"{"coupons": [{"code": "X"}]}"#), "the coupon `X` takes nothing off"),
            (
                Self.authorization(
                    merchant: #"{"coupons": [{"code": "X", "expired": true}, {"code": "X", "expired": true}]}"#),
                "the coupon code `X` is declared twice"
            ),
            (
                Self.authorization(merchant: #"{"surcharges": [{"percent": "2"}]}"#),
                "a surcharge needs `network` or `cardType`"
            ),
            (
                Self.authorization(merchant: #"{"surcharges": [{"network": "amex"}]}"#),
                "a surcharge needs `amount` or `percent`"
            ),
            (Self.authorization(merchant: #"{"surcharges": [{"network": "amex", "percent": "200"}]}"#), "at most 100"),
            (Self.authorization(merchant: #"{"taxRate": "8%"}"#), "at `merchant.taxRate`: expected a decimal rate"),
            (
                Self.authorization(
                    merchant: #"{"misbehaviour": [{"callback": "didSelectShippingMethod", "kind": "late"}]}"#),
                "a `late` misbehaviour needs `seconds`"
            ),
            (
                Self.authorization(
                    merchant:
                        #"{"shippingRates": [{"country": "US", "methods": [{"identifier": "a", "label": "A", "amount": {"currency": "EUR", "value": "1.00"}}]}]}"#
                ),
                "`merchant.shippingRates[0].methods[0].amount` is in EUR, the request in USD"
            ),
            (
                Self.authorization(merchant: #"{"unserviceable": [{"country": "USA"}]}"#),
                "is not an ISO 3166-1 alpha-2 code"
            ),
        ])
    }

    // spec W2: a merchant rule that means nothing is refused with the JSON path of the rule, as
    // an unknown key is, not only with the name of its key.
    func testMerchantRuleRefusalsNameTheirPath() async throws {
        try await assertRefused([
            (
                Self.authorization(merchant: #"{"surcharges": [{"percent": "2"}]}"#),
                "at `merchant.surcharges[0]`: a surcharge needs `network` or `cardType`"
            ),
            (
                Self.authorization(
                    merchant: #"{"coupons": [{"code": "TEN", "percentOff": "10"}, {"code": "X"}]}"#),
                "at `merchant.coupons[1]`: the coupon `X` takes nothing off"
            ),
            (
                Self.authorization(
                    merchant: #"{"misbehaviour": [{"callback": "didSelectShippingMethod", "kind": "late"}]}"#),
                "at `merchant.misbehaviour[0]`: a `late` misbehaviour needs `seconds`"
            ),
            (
                Self.authorization(
                    merchant:
                        #"{"misbehaviour": [{"callback": "didSelectShippingMethod", "kind": "twice", "seconds": 3}]}"#),
                "at `merchant.misbehaviour[0].seconds`: `seconds` applies to `late` only, not `twice`"
            ),
            (
                Self.payContext(
                    merchant: #"{"misbehaviour": [{"callback": "willComplete", "kind": "malformedSecret"}]}"#),
                "at `merchant.misbehaviour[0].kind`: `malformedSecret` applies to `didCreatePaymentMethod` only"
            ),
            (
                Self.shipping(
                    merchant:
                        #"{"shippingRates": [{"country": "US", "methods": [{"identifier": "a", "label": "A", "amount": {"currency": "USD", "value": "1.00"}}, {"identifier": "a", "label": "B", "amount": {"currency": "USD", "value": "2.00"}}]}]}"#
                ),
                "at `merchant.shippingRates[0].methods"
            ),
            (
                Self.authorization(
                    merchant: #"{"surcharges": [{"network": "amex", "amount": {"currency": "USD", "value": "-1.00"}}]}"#
                ),
                "`merchant.surcharges[0].amount` must not be negative"
            ),
        ])
    }

    // spec W2: Radar rules are the pay context's Stripe backend's; in another flow the key would
    // be read by nothing, so it is refused like `intent`.
    func testRadarOutsideThePayContextIsRefused() async throws {
        try await assertRefused([
            (
                Self.authorization(merchant: #"{"radar": {"blocksFailedPostalCodeCheck": true}}"#),
                "`merchant.radar` has no effect in the paymentAuthorization flow; remove it"
            ),
            (Self.shipping(merchant: #"{"radar": {}}"#), "`merchant.radar` has no effect in the shippingAddress flow"),
        ])
        XCTAssertNoThrow(
            try Scenario.load(json: Array(Self.payContext(merchant: #"{"radar": {"blocksHighestRisk": false}}"#).utf8)))
    }

    // spec W2: the pay context answers the sheet's card selection itself and authorizes with
    // Stripe, so the authorization merchant's surcharges and required contact fields would be read
    // by nothing there.
    func testAuthorizationOnlyMerchantKeysAreRefusedInThePayContext() async throws {
        try await assertRefused([
            (
                Self.payContext(
                    merchant: #"{"surcharges": [{"network": "amex", "amount": {"currency": "USD", "value": "1.00"}}]}"#),
                "`merchant.surcharges` has no effect in the payContext flow; remove it"
            ),
            (
                Self.payContext(merchant: #"{"requiredContactFields": ["name"]}"#),
                "`merchant.requiredContactFields` has no effect in the payContext flow; remove it"
            ),
        ])
        XCTAssertNoThrow(
            try Scenario.load(
                json: Array(
                    Self.authorization(
                        merchant:
                            #"{"requiredContactFields": ["name"], "surcharges": [{"cardType": "credit", "percent": "2"}]}"#
                    ).utf8)))
    }

    // spec W2: a card that is no card number (a typo, an empty string) is refused at load instead
    // of becoming an "Unknown card" at run time; a number that is no test card stays a test of
    // Stripe's `incorrect_number`.
    func testACardThatIsNoCardNumberIsRefused() async throws {
        func authorize(_ card: String) -> String {
            Self.authorization(steps: #"[{"action": "cancel"}, {"action": "authorize", "card": "\#(card)"}]"#)
        }
        try await assertRefused([
            (authorize(""), #""" at `steps[1].card` is not a card number"#),
            (authorize("hello"), #""hello" at `steps[1].card` is not a card number"#),
            (authorize("4242"), #""4242" at `steps[1].card` is not a card number"#),
            (authorize("4242 4242 4242 424x"), "at `steps[1].card` is not a card number"),
            (authorize("tok_"), "at `steps[1].card` is not a card number"),
            (authorize("tok_visa!"), "at `steps[1].card` is not a card number"),
            (authorize("4242 4242 4242 4242 4242"), "at `steps[1].card` is not a card number"),
        ])
        for card in [
            "4242 4242 4242 4242", "4242-4242-4242-4242", "4242  4242 4242 4242", "4242424242424241", "tok_visa",
            "tok_mastercard",
        ] {
            XCTAssertNoThrow(try Scenario.load(json: Array(authorize(card).utf8)), card)
        }
    }

    func testFilesThatAreNoScenarioAtAll() async throws {
        var binary = [UInt8](repeating: 0, count: 64)
        for index in binary.indices { binary[index] = UInt8((index * 37 + 11) % 256) }
        let binaryPath = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID()).json").path
        XCTAssertTrue(FileManager.default.createFile(atPath: binaryPath, contents: Data(binary)))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let empty = try cli.file("")
        let cases: [([String], String)] = [
            (["run", empty], "the file is empty"),
            (["run", try cli.file("  \n ")], "the file is empty"),
            (["run", binaryPath], "not UTF-8 text"),
            (["run", try cli.file("{\"flow\": \"payContext\",\n  \"steps\": [,]}")], ":2:13: not valid JSON"),
            (
                ["run", try cli.file("{\"flow\": \"payContext\", \"flow\": \"payContext\"}")],
                "the key \"flow\" appears twice"
            ),
            // A key with escaped line feeds is quoted with its escapes: the error stays one line
            // (found by the scenario fuzzer).
            (["run", try cli.file("{\"a\\nb\\nc\\nd\" 1}")], #"after the key "a\nb\nc\nd""#),
            (["run", try cli.file(String(repeating: "[", count: 100_000))], "nested more than 256 deep"),
            (
                ["run", try cli.file("{\"flow\": \"shippingAddress\", \"steps\": []} x")],
                "unexpected text after the JSON value"
            ),
            (["run", folder.path], "is a directory, not a scenario file"),
            (["explore", folder.path, "--sessions", "1"], "is a directory, not a scenario file"),
            (["run", CommandLineTests.examples], "is a directory, not a scenario file"),
            (["test", folder.path], "no scenario file (*.json) in this directory"),
        ]
        for (arguments, message) in cases {
            let run = await cli.sim(arguments)
            XCTAssertEqual(run.code, 2, "\(arguments): \(run.err)")
            XCTAssertTrue(run.err.contains(message), "expected '\(message)' in: \(run.err)")
            XCTAssertTrue((1...3).contains(run.err.split(separator: "\n").count), run.err)
        }
    }
}
