import CheckoutCore
import CheckoutWeb
import XCTest

/// The version a request names, and the members and rules gated by it (``ApplePayVersion``).
final class ApplePayVersionTests: XCTestCase {
    private let request = """
        {"countryCode": "US", "currencyCode": "USD", "supportedNetworks": ["visa"],
         "merchantCapabilities": ["supports3DS"], "total": {"label": "Shop", "amount": "10.00"}}
        """

    private func at(_ version: Int?, _ member: String, _ value: String?) -> String {
        let versioned = version.map { setting(request, "version", String($0)) } ?? request
        return setting(versioned, member, value)
    }

    private func check(_ cases: [BrowserCase], file: StaticString = #filePath, line: UInt = #line) {
        assertCases(ApplePayPaymentRequest.self, cases, file: file, line: line) { try $0.validate() }
    }

    func testTheRequestNamesASupportedVersion() {
        check([
            BrowserCase(name: "absent", json: request, verdict: .refused(.missingField, field: "version")),
            BrowserCase(
                name: "16", json: at(16, "countryCode", #""US""#),
                verdict: .refused(.unsupportedVersion, field: "version")),
            BrowserCase(name: "15", json: at(15, "countryCode", #""US""#), verdict: .accepted),
        ])
    }

    func testNetworksByVersion() {
        check([
            BrowserCase(
                name: "jcb at 1", json: at(1, "supportedNetworks", #"["jcb"]"#),
                verdict: .refused(.memberNotInVersion, field: "supportedNetworks[0]")),
            BrowserCase(name: "jcb at 2", json: at(2, "supportedNetworks", #"["jcb"]"#), verdict: .accepted),
            BrowserCase(
                name: "maestro at 3", json: at(3, "supportedNetworks", #"["visa", "maestro"]"#),
                verdict: .refused(.memberNotInVersion, field: "supportedNetworks[1]")),
            BrowserCase(name: "maestro at 4", json: at(4, "supportedNetworks", #"["maestro"]"#), verdict: .accepted),
            BrowserCase(
                name: "bankAxept at 14", json: at(14, "supportedNetworks", #"["bankAxept"]"#),
                verdict: .refused(.memberNotInVersion, field: "supportedNetworks[0]")),
            BrowserCase(
                name: "bankAxept at 15", json: at(15, "supportedNetworks", #"["bankAxept"]"#), verdict: .accepted),
            BrowserCase(name: "any case", json: at(1, "supportedNetworks", #"["MasterCard"]"#), verdict: .accepted),
        ])
    }

    func testMembersGatedByVersion() {
        let gated: [(String, String, Int)] = [
            ("supportsCouponCode", "true", 12), ("couponCode", #""TEA""#, 12),
            (
                "recurringPaymentRequest",
                #"{"paymentDescription": "Tea", "regularBilling": {"label": "Tea", "amount": "1.00"}, "#
                    + #""managementURL": "https://shop.example/manage"}"#, 14
            ),
            ("multiTokenContexts", "[]", 14),
            (
                "deferredPaymentRequest",
                #"{"paymentDescription": "Stay", "deferredBilling": {"label": "Stay", "amount": "1.00", "#
                    + #""deferredPaymentDate": "2025-01-08T00:00:00Z"}, "managementURL": "https://shop.example/manage"}"#,
                14
            ),
            ("merchantCategoryCode", #""5812""#, 14),
        ]
        for (member, value, since) in gated {
            let refused = at(since - 1, member, value)
            check([
                BrowserCase(
                    name: "\(member) at \(since - 1)", json: refused,
                    verdict: .refused(.memberNotInVersion, field: member)),
                BrowserCase(name: "\(member) at \(since)", json: at(since, member, value), verdict: .accepted),
            ])
        }
        // The error names the path and the version.
        XCTAssertThrowsError(try decode(ApplePayPaymentRequest.self, at(11, "couponCode", #""TEA""#)).validate()) {
            error in
            XCTAssertEqual((error as? CheckoutError)?.value, "11")
        }
    }

    // WebKit/WebKit Source/WebCore/Modules/applepay/ApplePayRequestBase.cpp: from version 8 an
    // installment configuration makes supportedNetworks optional; ApplePayInstallmentConfiguration.idl
    // types its members.

    func testInstallmentConfiguration() {
        let configuration = #"{"featureType": "appleCard", "bindingTotalAmount": "100.00", "currencyCode": "USD"}"#
        let noNetworks = setting(at(8, "installmentConfiguration", configuration), "supportedNetworks", "[]")
        check([
            BrowserCase(name: "v8 without networks", json: noNetworks, verdict: .accepted),
            BrowserCase(
                name: "v7", json: at(7, "installmentConfiguration", configuration),
                verdict: .refused(.memberNotInVersion, field: "installmentConfiguration")),
            BrowserCase(
                name: "bad amount", json: at(8, "installmentConfiguration", #"{"bindingTotalAmount": "1.234"}"#),
                verdict: .refused(.malformedAmount, field: "installmentConfiguration.bindingTotalAmount")),
            BrowserCase(
                name: "bad currency", json: at(8, "installmentConfiguration", #"{"currencyCode": "XYZ"}"#),
                verdict: .refused(.unknownCurrency, field: "installmentConfiguration.currencyCode")),
            BrowserCase(
                name: "bad feature", json: at(8, "installmentConfiguration", #"{"featureType": "card"}"#),
                verdict: .refused(.invalidField, field: "installmentConfiguration.featureType")),
            BrowserCase(
                name: "not an object", json: at(8, "installmentConfiguration", "[]"),
                verdict: .refused(.invalidField, field: "installmentConfiguration")),
        ])
    }

    func testUpdatesFollowTheVersion() throws {
        let total = ApplePayLineItem(label: "Shop", amount: "10.00")
        let withErrors = ApplePayShippingContactUpdate(newTotal: total, errors: [ApplePayError(code: .unknown)])
        assertCheckoutError(try withErrors.validate(version: 2), code: .memberNotInVersion, field: "errors")
        XCTAssertNoThrow(try withErrors.validate(version: 3))
        let recurring = ApplePayPaymentMethodUpdate(
            newTotal: total,
            newRecurringPaymentRequest: ApplePayRecurringPaymentRequest(
                paymentDescription: "Tea", regularBilling: ApplePayLineItem(label: "Tea", amount: "1.00"),
                managementURL: "https://shop.example/manage"))
        assertCheckoutError(
            try recurring.validate(version: 13), code: .memberNotInVersion, field: "newRecurringPaymentRequest")
        assertCheckoutError(
            try ApplePayCouponCodeUpdate(newTotal: total).validate(version: 11), code: .memberNotInVersion,
            field: "version")
        assertCheckoutError(
            try ApplePayShippingMethodUpdate(newTotal: ApplePayLineItem(label: "Shop", amount: "100000000.01"))
                .validate(version: 15),
            code: .amountOutOfRange, field: "newTotal.amount")
        assertCheckoutError(
            try ApplePayPaymentAuthorizationResult(status: 8).validate(version: 3), code: .invalidField, field: "status"
        )
    }
}
