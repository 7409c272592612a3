import CheckoutCore
import CheckoutWeb
import XCTest

/// The data cases of web-platform-tests' `payment-request/`, run through
/// ``PaymentDetailsUpdate/validate()`` (the members an update shares with the constructor's
/// `PaymentDetailsInit`), and the W3C update's errors as the conversions read them.
final class WPTPaymentRequestCasesTests: XCTestCase {
    private let base = #"{"total": {"label": "", "amount": {"currency": "USD", "value": "1.00"}}}"#

    private func check(_ cases: [BrowserCase], file: StaticString = #filePath, line: UInt = #line) {
        assertCases(PaymentDetailsUpdate.self, cases, file: file, line: line) { try $0.validate() }
    }

    private func amount(_ value: String, _ currency: String = "USD") -> String {
        #"{"label": "", "amount": {"currency": "\#(currency)", "value": \#(JSONValue.string(value).jsonText)}}"#
    }

    // web-platform-tests/wpt payment-request/payment-request-ctor-pmi-handling.https.html

    func testPaymentMethodIdentifiers() {
        let valid = [
            "https://wpt", "https://wpt.fyi/", "https://wpt.fyi/payment", "https://wpt.fyi/payment-request",
            "https://wpt.fyi/payment-request?", "https://wpt.fyi/payment-request?this=is",
            "https://wpt.fyi/payment-request?this=is&totally", "https://wpt.fyi:443/payment-request?this=is&totally",
            "https://wpt.fyi:443/payment-request?this=is&totally#fine",
            "https://:@wpt.fyi:443/payment-request?this=is&totally#👍", " \thttps://wpt\n ", "https://xn--c1yn36f",
            "https://點看", "e", "n6jzof05mk2g4lhxr-u-q-w1-c-i-pa-ty-bdvs9-ho-ae7-p-md8-s-wq3-h-qd-e-q-sa",
            "a-b-q-n-s-pw0", "m-u", "s-l5", "k9-f", "m-l", "u4-n-t", "i488jh6-g18-fck-yb-v7-i", "x-x-t-t-c34-o",
            "basic-card",
        ]
        let invalid = [
            "basic-💳", "¡basic-*-card!", "Basic-Card", "0", "-", "--", "a--b", "-a--b", "a-b-", "0-", "0-a", "a0--",
            "A-", "A-B", "A-b", "a-0", "a-0b", " a-b", "\t\na-b", "a-b ", "a-b\n\t", "basic-card?not-really",
            "basic-card://not-ok", "basic card", "/basic card/", "BaSicCarD", "BASIC-CARD", " basic-card ",
            "this is not supported", " ", "foo,var", "foo,bar,bas", "https://username@example.com/pay",
            "https://:password@example.com/pay", "https://username:password@example.com/pay",
            "http://username:password@example.com/pay", "http://foo.com:100000000/pay",
            "not-https://wpt.fyi/payment-request", "../realitive/url", "/absolute/../path?", "https://",
        ]
        func modifier(_ pmi: String) -> String { #"[{"supportedMethods": \#(JSONValue.string(pmi).jsonText)}]"# }
        check(valid.map { BrowserCase(name: $0, json: setting(base, "modifiers", modifier($0)), verdict: .accepted) })
        check(
            invalid.map {
                BrowserCase(
                    name: $0, json: setting(base, "modifiers", modifier($0)),
                    verdict: .refused(.invalidField, field: "modifiers[0].supportedMethods"))
            })
    }

    // web-platform-tests/wpt payment-request/payment-request-constructor.https.html

    private let invalidAmounts = [
        "-", "notdigits", "ALSONOTDIGITS", "10.", ".99", "-10.", "-.99", "10-", "1-0", "1.0.0", "1/3", "", " 1.0  ",
        " 1.0 ", "1.0 ", "USD$1.0", "$1.0",
    ]
    private let negativeTotals = ["-1", "-1.0", "-1.00", "-1000.000"]

    func testTotalAmounts() {
        check(
            invalidAmounts.map {
                BrowserCase(
                    name: "total \($0)", json: setting(base, "total", amount($0)),
                    verdict: .refused(.malformedAmount, field: "total.amount.value"))
            }
                + negativeTotals.map {
                    BrowserCase(
                        name: "total \($0)", json: setting(base, "total", amount($0)),
                        verdict: .refused(.negativeAmount, field: "total.amount.value"))
                })
    }

    func testDisplayItemsShippingOptionsAndModifierAmounts() {
        for amountText in invalidAmounts {
            let option =
                #"[{"id": "default", "label": "", "amount": {"currency": "USD", "value": \#(JSONValue.string(amountText).jsonText)}, "selected": false}]"#
            let modifierTotal = #"[{"supportedMethods": "basic-card", "total": \#(amount(amountText))}]"#
            let additional =
                #"[{"supportedMethods": "basic-card", "total": \#(amount("1.0")), "additionalDisplayItems": [\#(amount(amountText))]}]"#
            check([
                BrowserCase(
                    name: "displayItems \(amountText)", json: setting(base, "displayItems", "[\(amount(amountText))]"),
                    verdict: .refused(.malformedAmount, field: "displayItems[0].amount.value")),
                BrowserCase(
                    name: "shippingOptions \(amountText)", json: setting(base, "shippingOptions", option),
                    verdict: .refused(.malformedAmount, field: "shippingOptions[0].amount.value")),
                BrowserCase(
                    name: "modifier total \(amountText)", json: setting(base, "modifiers", modifierTotal),
                    verdict: .refused(.malformedAmount, field: "modifiers[0].total.amount.value")),
                BrowserCase(
                    name: "additionalDisplayItems \(amountText)", json: setting(base, "modifiers", additional),
                    verdict: .refused(.malformedAmount, field: "modifiers[0].additionalDisplayItems[0].amount.value")),
            ])
        }
        check(
            negativeTotals.map {
                BrowserCase(
                    name: "modifier total \($0)",
                    json: setting(base, "modifiers", #"[{"supportedMethods": "basic-card", "total": \#(amount($0))}]"#),
                    verdict: .refused(.negativeAmount, field: "modifiers[0].total.amount.value"))
            })
    }

    func testWhatTheConstructorAcceptsAndThePackageRefusesOnPurpose() {
        check([
            // Negative display items are allowed, whatever the total.
            BrowserCase(name: "-1000", json: setting(base, "displayItems", "[\(amount("-1000"))]"), verdict: .accepted),
            // ... in another currency too: the package keeps one currency per order.
            BrowserCase(
                name: "AUD item", json: setting(base, "displayItems", "[\(amount("-2000.00", "AUD"))]"),
                verdict: .refused(.currencyMismatch, field: "displayItems[0].amount.currency")),
            // Absurd precision: the package keeps amounts in the currency's minor units.
            BrowserCase(
                name: "510 digits",
                json: setting(base, "total", amount(String(repeating: "1", count: 510) + ".11")),
                verdict: .refused(.amountOutOfRange, field: "total.amount.value")),
            // Zero-length lists are fine.
            BrowserCase(name: "empty displayItems", json: setting(base, "displayItems", "[]"), verdict: .accepted),
            BrowserCase(
                name: "empty shippingOptions", json: setting(base, "shippingOptions", "[]"), verdict: .accepted),
            BrowserCase(name: "empty modifiers", json: setting(base, "modifiers", "[]"), verdict: .accepted),
            // Modifier data: a list or an object; a string is refused.
            BrowserCase(
                name: "data list",
                json: setting(base, "modifiers", #"[{"supportedMethods": "basic-card", "data": ["some-data"]}]"#),
                verdict: .accepted),
            BrowserCase(
                name: "data object",
                json: setting(base, "modifiers", #"[{"supportedMethods": "basic-card", "data": {"some": "data"}}]"#),
                verdict: .accepted),
            BrowserCase(
                name: "data string",
                json: setting(base, "modifiers", #"[{"supportedMethods": "basic-card", "data": "a string"}]"#),
                verdict: .refused(.invalidField, field: "modifiers[0].data")),
            // Duplicate shipping option ids: the constructor drops every option, updateWith throws;
            // the package refuses them (unique identifiers).
            BrowserCase(
                name: "duplicate ids",
                json: setting(
                    base, "shippingOptions",
                    #"[{"id": "default", "label": "", "amount": {"currency": "USD", "value": "0.0"}, "selected": true},"#
                        + #"{"id": "default", "label": "", "amount": {"currency": "USD", "value": "0.0"}}]"#),
                verdict: .refused(.duplicateIdentifier, field: "shippingOptions[1].id")),
        ])
    }

    // WebKit/WebKit LayoutTests/http/tests/ssl/applepay/PaymentRequest.https.html (PaymentDetails.total).

    func testWebKitPaymentRequestTotals() {
        check([
            BrowserCase(
                name: "currency ''", json: setting(base, "total", amount("0", "")),
                verdict: .refused(.unknownCurrency, field: "total.amount.currency")),
            BrowserCase(
                name: "-10.00", json: setting(base, "total", amount("-10.00")),
                verdict: .refused(.negativeAmount, field: "total.amount.value")),
            BrowserCase(
                name: "label only", json: setting(base, "total", #"{"label": "label"}"#), verdict: .undecodable),
        ])
    }

    // web-platform-tests/wpt payment-request/PaymentRequestUpdateEvent/
    // updateWith-PaymentDetailsUpdate-error-member-manual.https.html: `error` on a shipping-address
    // change says why the goods cannot be shipped there; the browser shows it when no shipping
    // option is offered.

    func testTheErrorMemberBlocksOnlyWithoutShippingOptions() throws {
        let option = #"[{"id": "std", "label": "Standard", "amount": {"currency": "USD", "value": "5.00"}}]"#
        let withError = setting(base, "error", #""We cannot ship there""#)
        let blocked = try decode(PaymentDetailsUpdate.self, withError).shippingContactUpdate()
        XCTAssertEqual(blocked.errors, [.shippingAddressUnserviceable("We cannot ship there")])
        let offered = try decode(PaymentDetailsUpdate.self, setting(withError, "shippingOptions", option))
        XCTAssertEqual(try offered.shippingContactUpdate().errors, [])
        XCTAssertEqual(try offered.shippingContactUpdate().shippingMethods?.map(\.identifier), ["std"])
        // An empty error is an error still, not an absent one.
        let empty = try decode(PaymentDetailsUpdate.self, setting(base, "error", #""""#))
        XCTAssertEqual(try empty.shippingContactUpdate().errors, [.shippingAddressUnserviceable("")])
        XCTAssertEqual(try empty.paymentMethodUpdate().errors, [PaymentError(code: .unknown, message: "")])
    }

    // WebKit/WebKit Source/WebCore/Modules/applepay/paymentrequest/ApplePayPaymentHandler.cpp reads
    // an Apple Pay update's paymentMethodErrors as ApplePayError values.

    func testApplePayErrorsInPaymentMethodErrorsReachTheCore() throws {
        let errors = #"[{"code": "billingContactInvalid", "contactField": "postalCode", "message": "Check the ZIP"}]"#
        let update = try decode(PaymentDetailsUpdate.self, setting(base, "paymentMethodErrors", errors))
        XCTAssertEqual(update.membersWithoutCoreCounterpart, [])
        XCTAssertEqual(
            try update.paymentMethodUpdate().errors,
            [PaymentError(code: .billingContactInvalid, field: .postalCode, message: "Check the ZIP")])
        let bad = try decode(PaymentDetailsUpdate.self, setting(base, "paymentMethodErrors", #"[{"code": "nope"}]"#))
        assertCheckoutError(try bad.paymentMethodUpdate(), code: .invalidField, field: "paymentMethodErrors[0]")
        let opaque = try decode(
            PaymentDetailsUpdate.self, setting(base, "paymentMethodErrors", #"{"cardNumber": "x"}"#))
        XCTAssertEqual(opaque.membersWithoutCoreCounterpart, ["paymentMethodErrors"])
    }
}
