import CheckoutCore
import CheckoutTestSupport
import Foundation
import XCTest

/// Today's Apple Pay members of a request and its updates: recurring, deferred and
/// automatic-reload payment requests, multi-token contexts, the contact editing mode, Pay Later
/// availability and the merchant category code (issue 33 item 4; spec W8).
final class PaymentTermsTests: XCTestCase {
    /// A valid request with a 25.00 grand total.
    private func request() -> PaymentRequest {
        PaymentRequest(
            merchantIdentifier: "merchant.com.example.tea", countryCode: "US", currencyCode: "USD",
            summaryItems: [
                SummaryItem(label: "Tea", amount: Money(25, .usd)),
                SummaryItem(label: "Tea Shop", amount: Money(25, .usd)),
            ])
    }

    private func fields(_ request: PaymentRequest) -> [String] { codesAndFields(request.problems) }

    func testEachMemberIsAcceptedAloneAndRoundTripsThroughJSON() throws {
        var variants: [PaymentRequest] = []
        for change in [
            { (r: inout PaymentRequest) in r.recurringPaymentRequest = TodaysApplePay.recurring },
            { $0.deferredPaymentRequest = TodaysApplePay.deferred },
            { $0.automaticReloadPaymentRequest = TodaysApplePay.automaticReload },
            { $0.multiTokenContexts = TodaysApplePay.contexts },
            {
                $0.shippingContactEditingMode = .storePickup
                $0.applePayLaterAvailability = .unavailableRecurringTransaction
                $0.merchantCategoryCode = MerchantCategoryCode(rawValue: "5499")
            },
        ] {
            var changed = request()
            change(&changed)
            variants.append(changed)
        }
        for variant in variants {
            XCTAssertEqual(variant.problems, [], "\(variant)")
            XCTAssertTrue(variant.isValid)
            let (decoded, json) = try JSON.roundTrip(variant)
            XCTAssertEqual(decoded, variant, json)
        }
        let json = try JSON.encode(variants[0])
        XCTAssertTrue(json.contains(#""startDate":"2025-01-08T00:00:00.000Z""#), json)
        XCTAssertTrue(json.contains(#""managementURL":"https://shop.example/account/subscriptions""#), json)
        XCTAssertFalse(try JSON.encode(request()).contains("multiTokenContexts"), "absent members are left out")
    }

    // PassKit's PKPaymentRequestValidator: "A payment request can only have one of recurring,
    // automatic reload, or deferred payment request set."
    func testAtMostOneOfRecurringAutomaticReloadAndDeferred() {
        var both = request()
        both.recurringPaymentRequest = TodaysApplePay.recurring
        both.deferredPaymentRequest = TodaysApplePay.deferred
        XCTAssertEqual(fields(both), ["conflictingFields @ deferredPaymentRequest"])
        XCTAssertFalse(both.isValid)
        XCTAssertEqual(both.problems.first?.value, "recurringPaymentRequest, deferredPaymentRequest")
    }

    // Apple's ApplePayPaymentRequest.multiTokenContexts: not with recurringPaymentRequest or
    // automaticReloadPaymentRequest; PassKit's validator refuses a deferred request with them too.
    func testMultiTokenContextsStandAlone() {
        for (name, change) in [
            (
                "recurringPaymentRequest",
                { (r: inout PaymentRequest) in r.recurringPaymentRequest = TodaysApplePay.recurring }
            ),
            ("automaticReloadPaymentRequest", { $0.automaticReloadPaymentRequest = TodaysApplePay.automaticReload }),
            ("deferredPaymentRequest", { $0.deferredPaymentRequest = TodaysApplePay.deferred }),
        ] {
            var mixed = request()
            mixed.multiTokenContexts = TodaysApplePay.contexts
            change(&mixed)
            XCTAssertEqual(fields(mixed), ["conflictingFields @ multiTokenContexts"], name)
            XCTAssertEqual(mixed.problems.first?.value, name)
            XCTAssertFalse(mixed.isValid, name)
        }
    }

    // Apple's ApplePayPaymentTokenContext.amount: "The sum of the amount of all the payment token
    // contexts in a payment request must be less than or equal to the grand total amount".
    func testContextsAddUpToAtMostTheGrandTotal() {
        var exact = request()
        exact.multiTokenContexts = TodaysApplePay.contexts  // 15 + 10 = 25
        XCTAssertTrue(exact.isValid)
        var under = exact
        under.multiTokenContexts[1].amount = Money(9.99, .usd)
        XCTAssertTrue(under.isValid)
        var over = exact
        over.multiTokenContexts[1].amount = Money(10.01, .usd)
        XCTAssertEqual(fields(over), ["amountOutOfRange @ multiTokenContexts"])
        XCTAssertEqual(over.problems.first?.value, "25.01 USD")
        XCTAssertFalse(over.isValid)
    }

    func testEachMembersOwnRulesNameTheFieldAndTheValue() {
        typealias Case = (change: (inout PaymentRequest) -> Void, expected: String, value: String)
        let cases: [Case] = [
            (
                {
                    var recurring = TodaysApplePay.recurring
                    recurring.regularBilling.intervalCount = 0
                    $0.recurringPaymentRequest = recurring
                }, "invalidField @ recurringPaymentRequest.regularBilling.intervalCount", "0"
            ),
            (
                {
                    var recurring = TodaysApplePay.recurring
                    recurring.regularBilling.endDate = TodaysApplePay.start.addingTimeInterval(-86_400)
                    $0.recurringPaymentRequest = recurring
                }, "invalidField @ recurringPaymentRequest.regularBilling.endDate", "2025-01-07T00:00:00.000Z"
            ),
            (
                {
                    var recurring = TodaysApplePay.recurring
                    recurring.trialBilling?.amount = Money(1, .eur)
                    $0.recurringPaymentRequest = recurring
                }, "currencyMismatch @ recurringPaymentRequest.trialBilling.amount", "1.00 EUR"
            ),
            (
                {
                    var deferred = TodaysApplePay.deferred
                    deferred.deferredBilling.amount = Money(-1, .usd)
                    $0.deferredPaymentRequest = deferred
                }, "negativeAmount @ deferredPaymentRequest.deferredBilling.amount", "-1.00 USD"
            ),
            (
                {
                    var reload = TodaysApplePay.automaticReload
                    reload.automaticReloadBilling.thresholdAmount = Money(5, .gbp)
                    $0.automaticReloadPaymentRequest = reload
                }, "currencyMismatch @ automaticReloadPaymentRequest.automaticReloadBilling.thresholdAmount",
                "5.00 GBP"
            ),
            (
                {
                    var contexts = TodaysApplePay.contexts
                    contexts[1].merchantIdentifier = " "
                    $0.multiTokenContexts = contexts
                }, "missingField @ multiTokenContexts[1].merchantIdentifier", " "
            ),
            (
                { $0.merchantCategoryCode = MerchantCategoryCode(rawValue: "54") },
                "invalidField @ merchantCategoryCode", "54"
            ),
        ]
        for (index, testCase) in cases.enumerated() {
            var changed = request()
            testCase.change(&changed)
            XCTAssertEqual(fields(changed), [testCase.expected], "case \(index)")
            XCTAssertEqual(changed.problems.first?.value, testCase.value, "case \(index)")
            XCTAssertFalse(changed.isValid, "case \(index)")
        }
    }

    func testAnUpdatesTermsAreCheckedAgainstTheRequestAndItsOwnTotal() {
        var request = request()
        request.multiTokenContexts = TodaysApplePay.contexts
        // A lower total with the request's contexts (25.00) no longer fits.
        let lower = ShippingMethodUpdate(summaryItems: [SummaryItem(label: "Tea Shop", amount: Money(20, .usd))])
        XCTAssertEqual(codesAndFields(request.problems(in: lower)), ["amountOutOfRange @ multiTokenContexts"])
        // With new contexts that fit it, it does.
        var fitting = lower
        fitting.multiTokenContexts = [TodaysApplePay.contexts[0]]
        XCTAssertEqual(request.problems(in: fitting), [])
        // A recurring request on an update of a multi-token request conflicts with the contexts.
        let recurring = TodaysApplePay.with(PaymentMethodUpdate(summaryItems: request.summaryItems)) {
            $0.recurringPaymentRequest = TodaysApplePay.recurring
        }
        XCTAssertEqual(codesAndFields(request.problems(in: recurring)), ["conflictingFields @ multiTokenContexts"])
        // ...unless it removes them.
        var replacing = recurring
        replacing.multiTokenContexts = []
        XCTAssertEqual(request.problems(in: replacing), [])
        XCTAssertThrowsError(try request.validate(recurring))
    }

    func testUpdatesCarryTheirTermsThroughJSON() throws {
        let updates: [any PaymentRequestUpdate] = [
            TodaysApplePay.with(ShippingContactUpdate(summaryItems: request().summaryItems)) {
                $0.recurringPaymentRequest = TodaysApplePay.recurring
            },
            TodaysApplePay.with(ShippingMethodUpdate(summaryItems: request().summaryItems)) {
                $0.deferredPaymentRequest = TodaysApplePay.deferred
            },
            TodaysApplePay.with(PaymentMethodUpdate(summaryItems: request().summaryItems)) {
                $0.automaticReloadPaymentRequest = TodaysApplePay.automaticReload
            },
            TodaysApplePay.with(CouponCodeUpdate(summaryItems: request().summaryItems)) {
                $0.multiTokenContexts = TodaysApplePay.contexts
            },
        ]
        func roundTrip<U: PaymentRequestUpdate>(_ update: U) throws {
            let (decoded, json) = try JSON.roundTrip(update)
            XCTAssertEqual(decoded, update, json)
        }
        for update in updates { try roundTrip(update) }
        XCTAssertEqual(updates[0].recurringPaymentRequest, TodaysApplePay.recurring)
        XCTAssertNil(updates[0].deferredPaymentRequest)
        XCTAssertEqual(updates[3].multiTokenContexts, TodaysApplePay.contexts)
    }

    private func assertPath<T: Decodable>(
        _ type: T.Type, _ json: String, _ path: [String], file: StaticString = #filePath, line: UInt = #line
    ) {
        let error = assertDecodingError(try JSON.decode(type, json), file: file, line: line)
        XCTAssertEqual(error.map { pathDescription($0.codingPath) }, path, file: file, line: line)
    }

    func testBadJSONNamesItsPath() {
        let recurring =
            #"{"paymentDescription": "Tea", "managementURL": "not a url", "#
            + #""regularBilling": {"label": "Tea", "amount": {"currency": "USD", "value": "1.00"}}}"#
        assertPath(RecurringPaymentRequest.self, recurring, ["managementURL"])
        let deferred =
            #"{"paymentDescription": "Stay", "managementURL": "https://a.example", "#
            + #""deferredBilling": {"label": "Stay", "amount": {"currency": "USD", "value": "1.00"}, "#
            + #""deferredDate": "tomorrow"}}"#
        assertPath(DeferredPaymentRequest.self, deferred, ["deferredBilling", "deferredDate"])
        let zone =
            #"{"paymentDescription": "Stay", "managementURL": "https://a.example", "#
            + #""freeCancellationDateTimeZone": "Mars/Olympus", "#
            + #""deferredBilling": {"label": "Stay", "amount": {"currency": "USD", "value": "1.00"}, "#
            + #""deferredDate": "2025-01-08T00:00:00Z"}}"#
        assertPath(DeferredPaymentRequest.self, zone, ["freeCancellationDateTimeZone"])
        let unknown =
            #"{"merchantIdentifier": "m", "externalIdentifier": "e", "merchantName": "n", "#
            + #""amount": {"currency": "USD", "value": "1.00"}, "merchantDomian": "typo.example"}"#
        assertPath(PaymentTokenContext.self, unknown, ["merchantDomian"])
    }
}
