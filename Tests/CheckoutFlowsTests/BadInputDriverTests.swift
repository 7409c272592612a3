import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import XCTest

/// The driver-action rows of RELIABILITY.md's bad-input catalogue: hostile input is refused with
/// a typed reason naming the field, or accepted because it is valid, and a refusal changes
/// nothing (spec E9).
final class BadInputDriverTests: XCTestCase {
    static let huge = String(repeating: "x", count: 10_000_000)

    func shippingFlow() throws -> (ShippingAddressFlow, RecordingShippingAddressDelegate) {
        let delegate = RecordingShippingAddressDelegate()
        let flow = try ShippingAddressFlow(
            configuration: ShippingAddressConfiguration(),
            delegate: delegate,
            options: FlowOptions(clock: ManualClock())
        )
        flow.present()
        return (flow, delegate)
    }

    func authorizationFlow(items: Int = 1) throws -> (PaymentAuthorizationFlow, RecordingPaymentAuthorizationDelegate) {
        let delegate = RecordingPaymentAuthorizationDelegate()
        let request = PaymentRequest(
            merchantIdentifier: "m",
            countryCode: "US",
            currencyCode: "USD",
            requiredBillingContactFields: [.phoneNumber],
            summaryItems: (0..<items).map { SummaryItem(label: "\($0)", amount: Money(minorUnits: 1, currency: .usd)) }
        )
        let flow = try PaymentAuthorizationFlow(
            request: request, delegate: delegate, options: FlowOptions(clock: ManualClock()))
        return (flow, delegate)
    }

    // Row D1 (spec S1, E9): a ZIP code with a NUL byte is refused naming the field.
    func testNULInZIP() throws {
        let (flow, delegate) = try shippingFlow()
        let address = Address(
            line1: "1 Main", city: "Austin", state: "TX", postalCode: "7870\u{0}", country: try CountryCode("US"))
        let refusal = flow.enterAddress(Contact(postalAddress: address)).refusal
        XCTAssertEqual(refusal?.code, .invalidField)
        XCTAssertEqual(refusal?.fields, ["postalAddress.postal_code"])
        XCTAssertEqual(flow.step, .address(error: nil))
        XCTAssertEqual(delegate.calledMethods, [])
    }

    // Row D2 (spec S4, E9): a 10 MB shipping-method identifier is unknown; the message stays short.
    func testHugeShippingMethodIdentifier() throws {
        let (flow, delegate) = try authorizationFlow()
        flow.present()
        let refusal = flow.selectShippingMethod(Self.huge).refusal
        XCTAssertEqual(refusal?.code, .unknownShippingMethod)
        XCTAssertLessThan(refusal?.message.count ?? .max, 200)
        XCTAssertEqual(delegate.calledMethods, [])
    }

    // Row D3 (spec A2, E9): a shipping contact with a malformed email is refused naming it.
    func testMalformedEmailInShippingContact() throws {
        let (flow, delegate) = try authorizationFlow()
        flow.present()
        let refusal = flow.selectShippingContact(Contact(emailAddress: "not an email")).refusal
        XCTAssertEqual(refusal?.code, .invalidField)
        XCTAssertEqual(refusal?.fields, ["shippingContact.emailAddress"])
        XCTAssertFalse(refusal?.message.contains("not an email") ?? true, "the message quotes no personal data")
        XCTAssertFalse(flow.transcript.text().contains("not an email"), "nor does the masked transcript")
        XCTAssertEqual(flow.step, .sheet)
        XCTAssertEqual(delegate.calledMethods, [])
    }

    // Row D4 (spec A6): a billing contact with a phone of letters is refused naming it.
    func testMalformedBillingPhone() throws {
        let (flow, delegate) = try authorizationFlow()
        flow.present()
        let token = PaymentToken(paymentMethod: PaymentMethod(), transactionIdentifier: "t", paymentData: "x")
        let refusal = flow.authorize(token, billingContact: Contact(phoneNumber: "call me")).refusal
        XCTAssertEqual(refusal?.code, .invalidField)
        XCTAssertEqual(refusal?.fields, ["billingContact.phoneNumber"])
        XCTAssertEqual(delegate.calledMethods, [])
    }

    // Row D5 (spec A5): a 10 MB coupon code is valid input and reaches the merchant once.
    func testHugeCouponCode() throws {
        let (flow, delegate) = try authorizationFlow()
        var request = flow.request
        request.supportsCouponCode = true
        let couponFlow = try PaymentAuthorizationFlow(
            request: request, delegate: delegate, options: FlowOptions(clock: ManualClock()))
        couponFlow.present()
        XCTAssertTrue(couponFlow.changeCouponCode(Self.huge).isAccepted)
        XCTAssertEqual(delegate.didChangeCouponCode.arguments.first?.count, 10_000_000)
    }

    // Row D6 (spec A1): a request with 100,000 summary items is presented.
    func testHundredThousandSummaryItemsPresented() throws {
        let (flow, _) = try authorizationFlow(items: 100_000)
        XCTAssertTrue(flow.present().isAccepted)
        XCTAssertEqual(flow.sheet?.summaryItems.count, 100_000)
    }
}
