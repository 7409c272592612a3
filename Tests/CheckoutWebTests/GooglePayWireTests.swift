import CheckoutCore
import CheckoutWeb
import XCTest

/// Google Pay's dictionaries read and written with Google's key names (spec W1, W2, W9); the
/// fixtures follow Google's reference (``GooglePayFixtures`` names the page of each).
final class GooglePayWireTests: XCTestCase {
    func testIntermediatePaymentDataReadsEveryDocumentedMember() throws {
        let data = try assertWireRoundTrip(GooglePayIntermediatePaymentData.self, GooglePayFixtures.initialize)
        XCTAssertEqual(data.callbackTrigger, .initialize)
        XCTAssertEqual(
            data.shippingAddress,
            GooglePayIntermediateAddress(
                administrativeArea: "CA", countryCode: "US", locality: "Mountain View", postalCode: "94043"))
        XCTAssertEqual(data.shippingOptionData?.id, "shipping-001")
        XCTAssertEqual(data.offerData?.redemptionCodes, ["exampleCode"])
        let method = try assertWireRoundTrip(GooglePayIntermediatePaymentData.self, GooglePayFixtures.paymentMethod)
        XCTAssertEqual(method.paymentMethodData?.core(), PaymentMethod(network: .visa, type: .unknown))
    }

    func testEveryDictionaryRoundTrips() throws {
        try assertWireRoundTrip(GooglePayTransactionInfo.self, GooglePayFixtures.transactionInfo)
        try assertWireRoundTrip(GooglePayShippingOptionParameters.self, GooglePayFixtures.shippingOptionParameters)
        try assertWireRoundTrip(GooglePayPaymentDataRequestUpdate.self, GooglePayFixtures.offerUpdate)
        try assertWireRoundTrip(GooglePayPaymentData.self, GooglePayFixtures.paymentData)
        try assertWireRoundTrip(GooglePayPaymentAuthorizationResult.self, GooglePayFixtures.authorizationError)
    }

    // spec W2: members Google adds are tolerated; a known member that cannot be read is refused
    // with its path, never read as empty.
    func testUnknownKeysAreToleratedAndUnreadableMembersRefusedWithTheirPath() throws {
        let added = try decode(
            GooglePayIntermediatePaymentData.self,
            #"{"callbackTrigger": "SHIPPING_OPTION", "shippingOptionData": {"id": "a"}, "addedByGoogle": 1}"#)
        XCTAssertEqual(added.shippingOptionData?.id, "a")
        assertDecodingFails(
            try decode(GooglePayIntermediatePaymentData.self, #"{"callbackTrigger": "SHIPPING_ADRESS"}"#),
            path: "callbackTrigger")
        assertDecodingFails(
            try decode(GooglePayIntermediatePaymentData.self, #"{"shippingAddress": {"locality": "X"}}"#),
            path: "callbackTrigger")
        assertDecodingFails(
            try decode(
                GooglePayIntermediatePaymentData.self,
                #"{"callbackTrigger": "OFFER", "offerData": {"redemptionCodes": "TEN"}}"#),
            path: "offerData.redemptionCodes")
        assertDecodingFails(
            try decode(
                GooglePayIntermediatePaymentData.self,
                #"{"callbackTrigger": "SHIPPING_ADDRESS", "shippingAddress": {"city": "Paris"}}"#),
            path: "shippingAddress")
        assertDecodingFails(
            try decode(GooglePayPaymentDataRequestUpdate.self, #"{"newTransactionInfos": {}}"#), path: nil)
        assertDecodingFails(
            try decode(
                GooglePayPaymentData.self,
                #"{"paymentMethodData": {"type": "CARD", "tokenizationData": {"type": "PAYMENT_GATEWAY"}}}"#),
            path: "paymentMethodData.tokenizationData.token")
        assertDecodingFails(
            try decode(
                GooglePayPaymentAuthorizationResult.self,
                #"{"transactionState": "ERROR", "error": {"reason": "DECLINED", "message": "m", "intent": "OFFER"}}"#),
            path: "error.reason")
        XCTAssertEqual(try decode(GooglePayPaymentDataRequestUpdate.self, "{}"), GooglePayPaymentDataRequestUpdate())
    }

    func testEnumerationsSpellGooglesValues() {
        XCTAssertEqual(
            GooglePayCallbackTrigger.allCases.map(\.rawValue),
            ["INITIALIZE", "SHIPPING_ADDRESS", "SHIPPING_OPTION", "OFFER", "PAYMENT_METHOD"])
        XCTAssertEqual(
            GooglePayErrorReason.allCases.map(\.rawValue),
            [
                "SHIPPING_ADDRESS_INVALID", "SHIPPING_ADDRESS_UNSERVICEABLE", "SHIPPING_OPTION_INVALID",
                "OFFER_INVALID", "PAYMENT_DATA_INVALID", "OTHER_ERROR",
            ])
        XCTAssertEqual(
            GooglePayDisplayItemType.allCases.map(\.rawValue),
            ["LINE_ITEM", "SUBTOTAL", "TAX", "DISCOUNT", "SHIPPING_OPTION"])
        XCTAssertEqual(GooglePayDisplayItemStatus.allCases.map(\.rawValue), ["FINAL", "PENDING"])
        XCTAssertEqual(GooglePayTransactionState.allCases.map(\.rawValue), ["SUCCESS", "ERROR"])
        XCTAssertEqual(
            GooglePayTotalPriceStatus.allCases.map(\.rawValue), ["NOT_CURRENTLY_KNOWN", "ESTIMATED", "FINAL"])
    }
}
