import CheckoutCore
import CheckoutWeb
import XCTest

/// Today's Apple Pay members of `ApplePayPaymentRequest` as WebKit and the PassKit validation
/// behind it judge them (spec W8). Each case names its source.
final class TodaysApplePayWireCasesTests: XCTestCase {
    private let request = """
        {"version": 14, "countryCode": "US", "currencyCode": "USD", "supportedNetworks": ["visa"],
         "merchantCapabilities": ["supports3DS"], "total": {"label": "Shop", "amount": "25.00"}}
        """
    private let recurring =
        #"{"paymentDescription": "Tea club", "managementURL": "https://shop.example/manage", "#
        + #""regularBilling": {"label": "Monthly", "amount": "9.99", "paymentTiming": "recurring", "#
        + #""recurringPaymentIntervalUnit": "month", "recurringPaymentIntervalCount": 1}}"#
    private let reload =
        #"{"paymentDescription": "Top-up", "managementURL": "https://shop.example/manage", "#
        + #""automaticReloadBilling": {"label": "Top-up", "amount": "20.00", "#
        + #""automaticReloadPaymentThresholdAmount": "5.00"}}"#

    private func contexts(_ amounts: String...) -> String {
        "["
            + amounts.enumerated().map { index, amount in
                #"{"merchantIdentifier": "merchant.com.example.m\#(index)", "externalIdentifier": "m\#(index)", "#
                    + #""merchantName": "M\#(index)", "amount": "\#(amount)"}"#
            }.joined(separator: ", ") + "]"
    }

    private func check(_ cases: [BrowserCase], file: StaticString = #filePath, line: UInt = #line) {
        assertCases(ApplePayPaymentRequest.self, cases, file: file, line: line) { try $0.validate() }
    }

    // WebKit/WebKit Source/WebCore/Modules/applepay/ApplePayLaterAvailability.idl and
    // ApplePayShippingContactEditingMode.idl: IDL enums, so another string is a TypeError.
    func testEnumeratedMembersTakeOnlyTheirValues() {
        check([
            BrowserCase(
                name: "storePickup", json: setting(request, "shippingContactEditingMode", #""storePickup""#),
                verdict: .accepted),
            BrowserCase(
                name: "editing mode enabled", json: setting(request, "shippingContactEditingMode", #""enabled""#),
                verdict: .refused(.invalidField, field: "shippingContactEditingMode")),
            BrowserCase(
                name: "unavailableItemIneligible",
                json: setting(request, "applePayLaterAvailability", #""unavailableItemIneligible""#),
                verdict: .accepted),
            BrowserCase(
                name: "availability unknown", json: setting(request, "applePayLaterAvailability", #""later""#),
                verdict: .refused(.invalidField, field: "applePayLaterAvailability")),
            // Apple's ApplePayPaymentRequest.merchantCategoryCode: a four-digit ISO 18245 code.
            BrowserCase(
                name: "category 5499", json: setting(request, "merchantCategoryCode", #""5499""#), verdict: .accepted),
            BrowserCase(
                name: "category 54", json: setting(request, "merchantCategoryCode", #""54""#),
                verdict: .refused(.invalidField, field: "merchantCategoryCode")),
        ])
    }

    // Apple's ApplePayPaymentRequest.multiTokenContexts: the amounts add up to at most the grand
    // total, and not with recurringPaymentRequest or automaticReloadPaymentRequest. PassKit's
    // PKPaymentRequestValidator: one of recurring, automatic reload or deferred.
    func testTermsExcludeEachOtherAndContextsFitTheTotal() {
        check([
            BrowserCase(
                name: "contexts equal to the total",
                json: setting(request, "multiTokenContexts", contexts("15.00", "10.00")), verdict: .accepted),
            BrowserCase(
                name: "contexts over the total",
                json: setting(request, "multiTokenContexts", contexts("15.00", "10.01")),
                verdict: .refused(.amountOutOfRange, field: "multiTokenContexts")),
            BrowserCase(
                name: "context amount not an amount",
                json: setting(request, "multiTokenContexts", contexts("15.00", "ten")),
                verdict: .refused(.malformedAmount, field: "multiTokenContexts[1].amount")),
            BrowserCase(
                name: "contexts with recurring",
                json: setting(
                    setting(request, "multiTokenContexts", contexts("1.00")), "recurringPaymentRequest", recurring),
                verdict: .refused(.conflictingFields, field: "multiTokenContexts")),
            BrowserCase(
                name: "recurring and reload",
                json: setting(
                    setting(request, "recurringPaymentRequest", recurring), "automaticReloadPaymentRequest", reload),
                verdict: .refused(.conflictingFields, field: "automaticReloadPaymentRequest")),
            BrowserCase(
                name: "recurring at 13",
                json: setting(setting(request, "version", "13"), "recurringPaymentRequest", recurring),
                verdict: .refused(.memberNotInVersion, field: "recurringPaymentRequest")),
        ])
    }

    // WebKit/WebKit Source/WebCore/Modules/applepay/cocoa/PaymentSummaryItemsCocoa.mm: a recurring
    // item's count is its interval count; the package refuses one below 1 and an end before the
    // start, naming the wire member.
    func testARecurringItemsIntervalAndDates() {
        let zero = recurring.replacingOccurrences(
            of: #""recurringPaymentIntervalCount": 1"#, with: #""recurringPaymentIntervalCount": 0"#)
        let backwards = recurring.replacingOccurrences(
            of: #""recurringPaymentIntervalCount": 1"#,
            with: #""recurringPaymentStartDate": "2025-02-01T00:00:00.000Z", "#
                + #""recurringPaymentEndDate": "2025-01-01T00:00:00.000Z""#)
        check([
            BrowserCase(
                name: "monthly", json: setting(request, "recurringPaymentRequest", recurring), verdict: .accepted),
            BrowserCase(
                name: "interval count 0", json: setting(request, "recurringPaymentRequest", zero),
                verdict: .refused(
                    .invalidField, field: "recurringPaymentRequest.regularBilling.recurringPaymentIntervalCount")),
            BrowserCase(
                name: "end before start", json: setting(request, "recurringPaymentRequest", backwards),
                verdict: .refused(
                    .invalidField, field: "recurringPaymentRequest.regularBilling.recurringPaymentEndDate")),
            BrowserCase(
                name: "threshold not an amount",
                json: setting(
                    request, "automaticReloadPaymentRequest",
                    reload.replacingOccurrences(of: #""5.00""#, with: #""5.001""#)),
                verdict: .refused(
                    .malformedAmount,
                    field: "automaticReloadPaymentRequest.automaticReloadBilling.automaticReloadPaymentThresholdAmount")
            ),
        ])
    }
}
