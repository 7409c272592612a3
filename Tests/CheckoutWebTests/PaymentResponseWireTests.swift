import CheckoutCore
import CheckoutWeb
import XCTest

/// The W3C `PaymentResponse.toJSON()`, `PaymentComplete` and `PaymentValidationErrors` (spec W7)
/// read and written as the wire rules say (spec W2).
final class PaymentResponseWireTests: XCTestCase {
    static let response = """
        {"requestId": "r-1", "methodName": "https://example.com/pay", "details": {"cardNumber": "4242"},
         "shippingAddress": {"country": "US", "addressLine": ["1 Main St"], "region": "TX", "city": "Austin",
          "postalCode": "78701", "recipient": "Jane Doe"},
         "shippingOption": "ground", "payerName": "Jane Doe", "payerEmail": "jane@example.com",
         "payerPhone": "+15125550100"}
        """

    // spec W7, W1: every member of toJSON() round-trips; the payer and the token convert.
    func testAResponseRoundTripsAndGivesItsPayerAndToken() throws {
        let response = try assertWireRoundTrip(PaymentResponse.self, Self.response)
        XCTAssertEqual(response.shippingAddress?.city, "Austin")
        XCTAssertEqual(
            response.payer,
            Contact(name: "Jane Doe", emailAddress: "jane@example.com", phoneNumber: "+15125550100"))
        let token = try response.token()
        XCTAssertEqual(token.transactionIdentifier, "r-1")
        XCTAssertEqual(token.paymentData, #"{"cardNumber":"4242"}"#)
        XCTAssertEqual(token.paymentMethod.displayName, "https://example.com/pay")
        // A string's details are the payment data as they are.
        XCTAssertEqual(
            try PaymentResponse(requestId: "r", methodName: "m", details: .string("tok_visa")).token().paymentData,
            "tok_visa")
        assertCheckoutError(
            try PaymentResponse(requestId: "", methodName: "m", details: .null).token(), code: .missingField,
            field: "requestId")
    }

    // spec W7, W2: null members are absent, unknown ones tolerated, empty payer strings absent;
    // a known member that cannot be read is refused with its path.
    func testNullsUnknownKeysAndUnreadableMembers() throws {
        let sparse = try decode(
            PaymentResponse.self,
            #"{"requestId": "r", "methodName": "m", "details": {}, "shippingAddress": null, "payerName": "", "shippingOption": null, "extra": [1]}"#
        )
        XCTAssertNil(sparse.shippingAddress)
        XCTAssertNil(sparse.payer.name)
        assertDecodingFails(
            try decode(PaymentResponse.self, #"{"requestId": "r", "methodName": "m", "details": {}, "payerPhone": 5}"#),
            path: "payerPhone")
        assertDecodingFails(try decode(PaymentResponse.self, #"{"methodName": "m", "details": {}}"#), path: "requestId")
        assertDecodingFails(
            try decode(
                PaymentResponse.self,
                #"{"requestId": "r", "methodName": "m", "details": {}, "shippingAddress": {"city": ["Austin"]}}"#),
            path: "shippingAddress.city")
    }

    // spec W7: the merchant's errors under the W3C members: payer fields (shipping or billing)
    // under payer, shipping-address fields under shippingAddress, the rest joined into error.
    func testValidationErrorsFromTheCoreErrors() throws {
        let errors = PaymentValidationErrors([
            .shippingContactInvalid(.postalCode, "Unknown ZIP"),
            .shippingContactInvalid(.state, "No such state"),
            .shippingContactInvalid(.emailAddress, "Bounced"),
            .billingContactInvalid(.name, "Name as on the card"),
            .billingContactInvalid(.postalCode, "ZIP does not match"),
            .shippingAddressUnserviceable("We do not ship there"),
            .unknown("Declined"),
        ])
        XCTAssertEqual(errors.payer, PayerErrors(email: "Bounced", name: "Name as on the card"))
        XCTAssertEqual(errors.shippingAddress, AddressErrors(postalCode: "Unknown ZIP", region: "No such state"))
        XCTAssertEqual(errors.error, "ZIP does not match\nWe do not ship there\nDeclined")
        XCTAssertFalse(errors.isEmpty)
        XCTAssertTrue(PaymentValidationErrors([]).isEmpty)
        let json = String(decoding: try encode(errors), as: UTF8.self)
        XCTAssertEqual(try decode(PaymentValidationErrors.self, json), errors)
    }

    // spec W7: the locality fields have W3C members of their own (a sub-administrative area, which
    // has none, is shown on the region).
    func testValidationErrorsCarryTheLocalityFields() {
        let errors = PaymentValidationErrors([
            .shippingContactInvalid(.subLocality, "Which district?"),
            .shippingContactInvalid(.subAdministrativeArea, "Which county?"),
            .shippingContactInvalid(.sortingCode, "CEDEX unknown"),
            .shippingContactInvalid(.organizationName, "Company required"),
            .billingContactInvalid(.sortingCode, "Billing CEDEX"),
        ])
        XCTAssertEqual(
            errors.shippingAddress,
            AddressErrors(
                dependentLocality: "Which district?", organization: "Company required", region: "Which county?",
                sortingCode: "CEDEX unknown"))
        XCTAssertEqual(errors.error, "Billing CEDEX")
    }

    // spec W2: a PaymentValidationErrors of another shape is refused, not read as empty.
    func testAForeignValidationErrorsPayloadIsRefused() throws {
        assertDecodingFails(try decode(PaymentValidationErrors.self, #"{"messages": ["x"]}"#))
        assertDecodingFails(try decode(PaymentValidationErrors.self, #"{"payer": {"email": 1}}"#), path: "payer.email")
        XCTAssertEqual(try decode(PaymentComplete.self, #""fail""#), .fail)
        assertDecodingFails(try decode(PaymentComplete.self, #""failure""#))
    }
}
