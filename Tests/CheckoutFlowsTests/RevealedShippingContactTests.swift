import CheckoutCore
import CheckoutTesting
import XCTest

@testable import CheckoutFlows

/// Apple Pay on the web reveals the shipping contact only at authorization: the
/// `shippingcontactselected` event carries it redacted, the `paymentauthorized` payment carries it
/// whole. `authorize(_:billingContact:shippingContact:)` takes that full contact (spec A2, A6, W1).
final class RevealedShippingContactTests: XCTestCase {
    private typealias F = FlowsFixture

    private func flowWithRedactedContact() throws -> (PaymentAuthorizationFlow, RecordingPaymentAuthorizationDelegate) {
        let delegate = RecordingPaymentAuthorizationDelegate()
        delegate.didAuthorizePayment.script(.answer(.success))
        let flow = try PaymentAuthorizationFlow(
            request: F.request(requiredShipping: [.name, .postalAddress]), delegate: delegate,
            options: FlowOptions(callbackTimeout: nil))
        flow.present()
        return (flow, delegate)
    }

    // spec A6: the payment's shipping contact is the full one revealed at authorization, limited
    // to the fields the request asked for; the merchant saw only the redacted one before.
    func testTheRevealedContactIsThePaymentsShippingContact() async throws {
        let (flow, delegate) = try flowWithRedactedContact()
        _ = try await flow.selectShippingContactAndWait(F.jane().redactedForShipping())
        XCTAssertEqual(
            flow.authorize(F.token()).refusal?.code, .missingRequiredFields, "the redacted contact lacks the name")
        let result = try await flow.authorizeAndWait(F.token(), shippingContact: F.jane())
        XCTAssertEqual(result.status, .success)
        let payment = try XCTUnwrap(delegate.didAuthorizePayment.arguments.first)
        XCTAssertEqual(payment.shippingContact?.name, "Jane Appleseed")
        XCTAssertEqual(payment.shippingContact?.postalAddress?.line1, "1 Infinite Loop")
        XCTAssertNil(payment.shippingContact?.emailAddress, "limited to the requested fields")
        XCTAssertEqual(delegate.didSelectShippingContact.arguments.first?.name, nil, "spec A2")
    }

    // spec A6: a revealed contact that is not the one selected is refused with its field, and the
    // flow keeps its sheet.
    func testAContactOtherThanTheOneSelectedIsRefused() async throws {
        let (flow, delegate) = try flowWithRedactedContact()
        _ = try await flow.selectShippingContactAndWait(F.jane().redactedForShipping())
        var elsewhere = F.jane()
        elsewhere.postalAddress?.city = "Palo Alto"
        let refusal = try XCTUnwrap(flow.authorize(F.token(), shippingContact: elsewhere).refusal)
        XCTAssertEqual(refusal.code, .invalidField)
        XCTAssertEqual(refusal.fields, ["shippingContact"])
        XCTAssertTrue(refusal.message.contains("Palo Alto"), refusal.message)
        XCTAssertEqual(flow.step, .sheet)
        XCTAssertEqual(delegate.didAuthorizePayment.callCount, 0)
        // An invalid revealed contact is refused with the field's path.
        var broken = F.jane()
        broken.postalAddress?.postalCode = "ABCDE"
        let invalid = try XCTUnwrap(flow.authorize(F.token(), shippingContact: broken).refusal)
        XCTAssertEqual(invalid.code, .invalidField)
        XCTAssertTrue(invalid.fields.contains { $0.hasPrefix("shippingContact.") }, "\(invalid.fields)")
    }

    // spec A6: with no contact selected before, the revealed contact is the payment's own; nil
    // keeps the selected contact, as PassKit reveals it.
    func testWithoutASelectionTheRevealedContactStandsAlone() async throws {
        let (flow, delegate) = try flowWithRedactedContact()
        let result = try await flow.authorizeAndWait(F.token(), shippingContact: F.john())
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(delegate.didAuthorizePayment.arguments.first?.shippingContact?.name, F.john().name)
    }
}
