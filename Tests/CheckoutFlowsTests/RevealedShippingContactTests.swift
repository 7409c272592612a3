import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import XCTest

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

    // spec A6: a revealed contact with no contact selected before is refused: the merchant never
    // priced it; nil keeps the selected contact, as PassKit reveals it.
    func testARevealedContactNeedsASelection() async throws {
        let (flow, delegate) = try flowWithRedactedContact()
        let refusal = try XCTUnwrap(flow.authorize(F.token(), shippingContact: F.john()).refusal)
        XCTAssertEqual(refusal.code, .invalidField)
        XCTAssertEqual(refusal.fields, ["shippingContact"])
        XCTAssertEqual(delegate.didAuthorizePayment.callCount, 0)
        _ = try await flow.selectShippingContactAndWait(F.john())
        let result = try await flow.authorizeAndWait(F.token())
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(delegate.didAuthorizePayment.arguments.first?.shippingContact?.name, F.john().name)
    }

    // spec A2, A6: Apple's redacted British and Canadian postal codes (the outward code) are
    // selected as they are, not checked as full codes, and match the full contact revealed.
    func testRedactedOutwardCodesAreSelectedAndMatchTheFullContact() async throws {
        let (flow, delegate) = try flowWithRedactedContact()
        let full = F.sherlock()
        var redacted = full.redactedForShipping()
        XCTAssertEqual(redacted.postalAddress?.postalCode, "NW1")
        _ = try await flow.selectShippingContactAndWait(redacted)
        XCTAssertEqual(delegate.didSelectShippingContact.arguments.first?.postalAddress?.postalCode, "NW1")
        let result = try await flow.authorizeAndWait(F.token(), shippingContact: full)
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(
            delegate.didAuthorizePayment.arguments.first?.shippingContact?.postalAddress?.postalCode, "NW1 6XE")
        // The same outward code, not marked redacted, is a full code that does not fit GB.
        redacted.isRedacted = false
        let (other, _) = try flowWithRedactedContact()
        XCTAssertEqual(other.selectShippingContact(redacted).refusal?.code, .invalidField)
    }
}
