import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// A merchant for the W3C response: its verdict on an authorization is named by the response's
/// `requestId` (the token's transaction identifier), so each test says what the merchant answers.
final class ResponseMerchant: PaymentAuthorizationDelegate {
    private struct State {
        var payments: [Payment] = []
        var contacts: [Contact] = []
    }
    private let state = LockedValue(State())

    var payments: [Payment] { state.withLock { $0.payments } }
    var contacts: [Contact] { state.withLock { $0.contacts } }

    static func result(for payment: Payment) -> PaymentAuthorizationResult {
        switch payment.token.transactionIdentifier {
        case "address":
            PaymentAuthorizationResult(
                status: .failure,
                errors: [
                    .shippingContactInvalid(.postalCode, "Unknown ZIP code"),
                    .shippingContactInvalid(.street, "No such street"),
                ])
        case "payer":
            PaymentAuthorizationResult(
                status: .failure,
                errors: [
                    .shippingContactInvalid(.emailAddress, "Email bounced"),
                    .shippingContactInvalid(.name, "Give your full name"),
                    .shippingContactInvalid(.phoneNumber, "No such number"),
                ])
        case "general":
            PaymentAuthorizationResult(
                status: .failure, errors: [.unknown("Card declined"), .billingContactInvalid(.postalAddress, "Bad")])
        case "status": PaymentAuthorizationResult(status: .invalidShippingPostalAddress)
        case "decline": PaymentAuthorizationResult(status: .failure)
        case "lockout": PaymentAuthorizationResult(status: .pinLockout)
        default: .success
        }
    }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        state.withLock { $0.payments.append(payment) }
        handler(Self.result(for: payment))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        state.withLock { $0.contacts.append(contact) }
        handler(Shop.answer(contact: contact))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) { handler(Shop.answer(method: method)) }
}

final class PaymentResponseTests: XCTestCase {
    /// The shop's request asking for the shipping address and the payer's name, email and phone
    /// (`requestShipping`, `requestPayerName`, `requestPayerEmail`, `requestPayerPhone`).
    static var request: PaymentRequest {
        var request = Shop.request
        request.requiredShippingContactFields = [.name, .emailAddress, .phoneNumber, .postalAddress]
        return request
    }

    private func relay() -> WebRelay {
        WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
    }

    private func open(_ relay: WebRelay, _ id: String = "w7", request: PaymentRequest = request) throws
        -> ResponseMerchant
    {
        let merchant = ResponseMerchant()
        try relay.open(id, request: request, merchant: .authorization(delegate: merchant))
        return merchant
    }

    static let fullAddress =
        #"{"country": "US", "addressLine": ["1 Main St", "Apt 4"], "region": "TX", "city": "Austin", "dependentLocality": "", "postalCode": "78701", "sortingCode": "", "organization": "", "recipient": "Ravi Patel", "phone": "+15125550100"}"#

    static func response(
        _ session: String = "w7", requestId: String = "ok", address: String = fullAddress, option: String = "standard",
        name: String = "Ravi Patel", email: String = "ravi@example.com", phone: String = "+15125550199"
    ) throws -> RelayEvent {
        try Page.event(
            #"{"session": "\#(session)", "type": "paymentresponse", "response": {"requestId": "\#(requestId)", "methodName": "https://example.com/pay", "details": {"cardNumber": "4242424242424242"}, "shippingAddress": \#(address), "shippingOption": "\#(option)", "payerName": "\#(name)", "payerEmail": "\#(email)", "payerPhone": "\#(phone)"}}"#
        )
    }

    // spec W7, A6: the merchant gets the response's full address, the selected option, the
    // payer's details as the contact's, and the token from methodName and details; its success
    // is answered complete("success").
    func testASuccessIsCompletedWithTheFullAddressOptionPayerAndToken() async throws {
        let relay = relay()
        let merchant = try open(relay)
        _ = await relay.handle(try Page.address("w7"))
        let reply = await relay.handle(try Self.response())
        XCTAssertEqual(reply.completion, .paymentComplete(.success), "\(reply)")
        XCTAssertEqual(reply.completion?.method, "complete")
        XCTAssertEqual(relay.session("w7")?.outcome, "success")
        let payment = try XCTUnwrap(merchant.payments.first)
        let contact = try XCTUnwrap(payment.shippingContact)
        XCTAssertEqual(contact.postalAddress?.line1, "1 Main St")
        XCTAssertEqual(contact.postalAddress?.line2, "Apt 4")
        XCTAssertEqual(contact.postalAddress?.postalCode, "78701")
        // The payer's name and phone, not the recipient's: WebKit fills the payer from this contact.
        XCTAssertEqual(contact.name, "Ravi Patel")
        XCTAssertEqual(contact.emailAddress, "ravi@example.com")
        XCTAssertEqual(contact.phoneNumber, "+15125550199")
        XCTAssertEqual(payment.shippingMethod?.identifier, "standard")
        XCTAssertEqual(payment.token.transactionIdentifier, "ok")
        XCTAssertEqual(payment.token.paymentMethod.displayName, "https://example.com/pay")
        XCTAssertEqual(payment.token.paymentData, #"{"cardNumber":"4242424242424242"}"#)
        XCTAssertNil(payment.billingContact)
    }

    // spec W7, A7: shipping-address errors are answered retry with AddressErrors under
    // shippingAddress; they block until the address changes, and then a success completes.
    func testAddressErrorsAreRetriedUnderShippingAddressThenASuccessCompletes() async throws {
        let relay = relay()
        _ = try open(relay)
        _ = await relay.handle(try Page.address("w7"))
        let retry = await relay.handle(try Self.response(requestId: "address"))
        XCTAssertEqual(retry.completion?.method, "retry")
        XCTAssertEqual(
            retry.completion,
            .retry(
                PaymentValidationErrors(
                    shippingAddress: AddressErrors(addressLine: "No such street", postalCode: "Unknown ZIP code"))))
        XCTAssertNil(relay.session("w7")?.outcome, "the sheet stays open (A7)")
        // Blocked until another address is selected (A7).
        let blocked = await relay.handle(try Self.response(requestId: "ok"))
        XCTAssertEqual(blocked.refusal?.reason, "blockedByError")
        _ = await relay.handle(try Page.address("w7"))
        let done = await relay.handle(try Self.response(requestId: "ok"))
        XCTAssertEqual(done.completion, .paymentComplete(.success))
    }

    // spec W7, A7: contact errors (name, email, phone) are answered retry with PayerErrors under
    // payer; payerdetailchange then reaches the merchant as a contact selection, answered
    // updateWith, and the next response completes.
    func testPayerErrorsAreRetriedUnderPayerAndPayerDetailChangeReachesTheMerchant() async throws {
        let relay = relay()
        let merchant = try open(relay)
        _ = await relay.handle(try Page.address("w7"))
        let retry = await relay.handle(try Self.response(requestId: "payer"))
        XCTAssertEqual(
            retry.completion,
            .retry(
                PaymentValidationErrors(
                    payer: PayerErrors(email: "Email bounced", name: "Give your full name", phone: "No such number"))))
        let change = await relay.handle(
            try Page.event(
                #"{"session": "w7", "type": "payerdetailchange", "payerName": "Ravi K. Patel", "payerEmail": "ravi@example.org", "payerPhone": "+15125550188"}"#
            ))
        guard case .updateWith(let update) = change.completion else { return XCTFail("\(change)") }
        XCTAssertEqual(update.total?.amount.value, "30.00")
        XCTAssertEqual(merchant.contacts.count, 2, "the address, then the payer's change")
        // The merchant sees the selection as every selection: redacted (A2), the address kept.
        XCTAssertEqual(merchant.contacts.last?.postalAddress?.city, "Austin")
        XCTAssertEqual(
            relay.session("w7")?.authorizationFlow.sheet?.shippingContact?.emailAddress, "ravi@example.org")
        let done = await relay.handle(
            try Self.response(name: "Ravi K. Patel", email: "ravi@example.org", phone: "+15125550188"))
        XCTAssertEqual(done.completion, .paymentComplete(.success), "\(done)")
        XCTAssertEqual(merchant.payments.last?.shippingContact?.emailAddress, "ravi@example.org")
    }

    // spec W7: errors without a W3C field (a decline, a billing address) are joined into error;
    // a status's own error (invalidShippingPostalAddress) is retried as the sheet shows it.
    func testOtherErrorsAreJoinedIntoErrorAndAStatusGivesItsOwn() async throws {
        let relay = relay()
        _ = try open(relay)
        _ = await relay.handle(try Page.address("w7"))
        let general = await relay.handle(try Self.response(requestId: "general"))
        XCTAssertEqual(general.completion, .retry(PaymentValidationErrors(error: "Card declined\nBad")))
        let status = await relay.handle(try Self.response(requestId: "status"))
        XCTAssertEqual(status.completion, .retry(PaymentValidationErrors(error: "Invalid shipping address")))
    }

    // spec W7: a failure with nothing to fix is complete("fail"), and the relay ends the flow;
    // a PIN lockout ends the flow itself and is complete("fail") too.
    func testAFailureWithNothingToFixIsCompletedAsFail() async throws {
        let relay = relay()
        _ = try open(relay)
        _ = await relay.handle(try Page.address("w7"))
        let fail = await relay.handle(try Self.response(requestId: "decline"))
        XCTAssertEqual(fail.completion, .paymentComplete(.fail))
        let session = try XCTUnwrap(relay.session("w7"))
        XCTAssertTrue(session.isEnded)
        XCTAssertTrue(session.transcript.text().contains("paymentDeclined"), session.transcript.text())
        let late = await relay.handle(try Self.response(requestId: "ok"))
        XCTAssertEqual(late.refusal?.reason, "finished")

        _ = try open(relay, "lock")
        _ = await relay.handle(try Page.address("lock"))
        let lockout = await relay.handle(try Self.response("lock", requestId: "lockout"))
        XCTAssertEqual(lockout.completion, .paymentComplete(.fail))
        XCTAssertEqual(relay.session("lock")?.isEnded, true)
    }

    // spec W7, A6: the response's address must be the one the last shippingaddresschange
    // selected; another is refused with its field, and nothing reaches the merchant.
    func testAnAddressThatIsNotTheSelectedOneIsRefused() async throws {
        let relay = relay()
        let merchant = try open(relay)
        _ = await relay.handle(try Page.address("w7"))
        let elsewhere = Self.fullAddress.replacingOccurrences(of: "78701", with: "73301")
        let reply = await relay.handle(try Self.response(address: elsewhere))
        XCTAssertEqual(reply.refusal?.reason, "invalidField", "\(reply)")
        XCTAssertEqual(reply.refusal?.fields, ["shippingContact"])
        XCTAssertTrue(merchant.payments.isEmpty)
        XCTAssertNil(relay.session("w7")?.outcome)
        // An option other than the one selected is refused too, naming response.shippingOption.
        let option = await relay.handle(try Self.response(option: "express"))
        XCTAssertEqual(option.refusal?.reason, "invalidEvent")
        XCTAssertEqual(option.refusal?.fields, ["response.shippingOption"])
    }

    // spec W7, A6: a response without a payer field the request asks for is refused, listing it.
    func testMissingRequiredPayerFieldsAreRefused() async throws {
        let relay = relay()
        let merchant = try open(relay)
        _ = await relay.handle(try Page.address("w7"))
        let reply = await relay.handle(try Self.response(email: "", phone: ""))
        XCTAssertEqual(reply.refusal?.reason, "missingRequiredFields", "\(reply)")
        XCTAssertEqual(reply.refusal?.fields, ["shippingContact.emailAddress"])
        XCTAssertTrue(merchant.payments.isEmpty)
    }

    // spec W7: a request asking only for the payer (no shipping) authorizes with the payer's
    // details, with no address to have been selected; billing fields take the payer's too.
    func testAPayerOnlyRequestAuthorizesWithThePayersDetails() async throws {
        var request = Shop.request
        request.shippingMethods = []
        request.requiredShippingContactFields = [.emailAddress]
        request.requiredBillingContactFields = [.name]
        let relay = relay()
        let merchant = try open(relay, request: request)
        let reply = await relay.handle(
            try Page.event(
                #"{"session": "w7", "type": "paymentresponse", "response": {"requestId": "ok", "methodName": "https://example.com/pay", "details": {}, "shippingAddress": null, "shippingOption": null, "payerName": "Ravi Patel", "payerEmail": "ravi@example.com", "payerPhone": null}}"#
            ))
        XCTAssertEqual(reply.completion, .paymentComplete(.success), "\(reply)")
        XCTAssertEqual(merchant.payments.first?.shippingContact?.emailAddress, "ravi@example.com")
        XCTAssertNil(merchant.payments.first?.shippingContact?.name, "limited to the requested fields (A6)")
        XCTAssertEqual(merchant.payments.first?.billingContact?.name, "Ravi Patel")
    }

    // spec W7, W2: a response whose known member cannot be read is refused with its path and
    // value; unknown members are tolerated; a payerdetailchange with no member is refused.
    func testUnreadableMembersAreRefusedWithTheirPath() async throws {
        let relay = relay()
        _ = try open(relay)
        func refusal(_ json: String) async -> RelayRefusal? {
            await relay.reply(toJSON: Data(json.utf8)).refusal
        }
        let badEmail = await refusal(
            #"{"session": "w7", "type": "paymentresponse", "response": {"requestId": "ok", "methodName": "m", "details": {}, "payerEmail": 42}}"#
        )
        XCTAssertEqual(badEmail?.reason, "malformedEvent")
        XCTAssertEqual(badEmail?.fields, ["response.payerEmail"])
        let badLines = await refusal(
            #"{"session": "w7", "type": "paymentresponse", "response": {"requestId": "ok", "methodName": "m", "details": {}, "shippingAddress": {"addressLine": "1 Main St"}}}"#
        )
        XCTAssertEqual(badLines?.fields, ["response.shippingAddress.addressLine"])
        let noMethod = await refusal(
            #"{"session": "w7", "type": "paymentresponse", "response": {"requestId": "ok", "details": {}}}"#)
        XCTAssertEqual(noMethod?.fields, ["response.methodName"])
        let badCountry = await relay.handle(
            try Page.event(
                #"{"session": "w7", "type": "paymentresponse", "response": {"requestId": "ok", "methodName": "m", "details": {}, "shippingAddress": {"country": "XX"}, "futureMember": true}}"#
            ))
        XCTAssertEqual(badCountry.refusal?.reason, "invalidEvent")
        XCTAssertEqual(badCountry.refusal?.fields, ["response.shippingAddress.country"])
        XCTAssertTrue(badCountry.refusal?.message.contains("XX") ?? false, "\(badCountry)")
        let empty = await refusal(#"{"session": "w7", "type": "payerdetailchange"}"#)
        XCTAssertEqual(empty?.fields, ["payerName"])
    }

    // spec W7, W6: a session that was retried is written out and resumed; the resumed flow has
    // the same transcript and still blocks on the address error, and then completes.
    func testARetriedSessionResumesFromItsSnapshot() async throws {
        let first = relay()
        _ = try open(first)
        _ = await first.handle(try Page.address("w7"))
        _ = await first.handle(try Self.response(requestId: "payer"))
        _ = await first.handle(
            try Page.event(#"{"session": "w7", "type": "payerdetailchange", "payerEmail": "ravi@example.org"}"#))
        let before = try XCTUnwrap(first.session("w7")).flowTranscript
        let sealed = try first.snapshot("w7")
        let second = relay()
        let resumed = try await second.resume(sealed, merchant: .authorization(delegate: ResponseMerchant()))
        XCTAssertEqual(eventsWithoutTimes(resumed.flowTranscript), eventsWithoutTimes(before))
        let done = await second.handle(try Self.response(email: "ravi@example.org"))
        XCTAssertEqual(done.completion, .paymentComplete(.success), "\(done)")
    }

    // spec W7: a W3C session end to end as bytes through handle(json:): an address, an option,
    // a response retried for the payer's email, the payer's change, then the completion.
    func testAW3CSessionEndToEndThroughHandleJSON() async throws {
        let relay = relay()
        let merchant = try open(relay)
        func send(_ json: String) async throws -> [String: JSONValue] {
            let bytes = await relay.handle(json: Data(json.utf8))
            guard case .object(let members)? = JSONValue(jsonText: String(decoding: bytes, as: UTF8.self)) else {
                throw CheckoutError(code: .invalidField, message: "not an object", field: nil)
            }
            return members
        }
        let address = try await send(
            #"{"session": "w7", "type": "shippingaddresschange", "shippingAddress": {"country": "US", "addressLine": [], "region": "TX", "city": "Austin", "dependentLocality": "", "postalCode": "78701", "sortingCode": "", "organization": "", "recipient": "", "phone": ""}}"#
        )
        XCTAssertEqual(address["complete"], .string("updateWith"))
        let option = try await send(#"{"session": "w7", "type": "shippingoptionchange", "shippingOption": "express"}"#)
        XCTAssertEqual(option["complete"], .string("updateWith"))
        func response(_ id: String, _ email: String) -> String {
            #"{"session": "w7", "type": "paymentresponse", "response": {"requestId": "\#(id)", "methodName": "https://example.com/pay", "details": {"token": "tok"}, "shippingAddress": \#(Self.fullAddress), "shippingOption": "express", "payerName": "Ravi Patel", "payerEmail": "\#(email)", "payerPhone": "+15125550199", "newMember": 1}}"#
        }
        let retry = try await send(response("payer", "ravi@example.com"))
        XCTAssertEqual(retry["complete"], .string("retry"))
        XCTAssertEqual(
            retry["argument"],
            .object([
                "payer": .object([
                    "email": .string("Email bounced"), "name": .string("Give your full name"),
                    "phone": .string("No such number"),
                ])
            ]))
        let change = try await send(
            #"{"session": "w7", "type": "payerdetailchange", "payerEmail": "ravi@example.org"}"#)
        XCTAssertEqual(change["complete"], .string("updateWith"))
        let done = try await send(response("ok", "ravi@example.org"))
        XCTAssertEqual(done["complete"], .string("complete"))
        XCTAssertEqual(done["argument"], .string("success"))
        XCTAssertEqual(merchant.payments.last?.shippingMethod?.identifier, "express")
        XCTAssertEqual(merchant.payments.last?.token.paymentData, #"{"token":"tok"}"#)
        XCTAssertEqual(relay.session("w7")?.outcome, "success")
    }

    // spec W7: the reply forms round-trip through the relay's JSON: the page's method and its
    // argument.
    func testTheReplyFormsAreThePagesMethodAndArgument() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let fail = RelayReply(session: "w7", type: "paymentresponse", .complete(.paymentComplete(.fail)))
        XCTAssertEqual(
            String(decoding: try encoder.encode(fail), as: UTF8.self),
            #"{"argument":"fail","complete":"complete","session":"w7","type":"paymentresponse"}"#)
        let retry = RelayReply(
            session: "w7", type: "paymentresponse",
            .complete(.retry(PaymentValidationErrors(error: "x", payer: PayerErrors(email: "y")))))
        let json = try encoder.encode(retry)
        XCTAssertEqual(
            String(decoding: json, as: UTF8.self),
            #"{"argument":{"error":"x","payer":{"email":"y"}},"complete":"retry","session":"w7","type":"paymentresponse"}"#
        )
        XCTAssertEqual(try JSONDecoder().decode(RelayReply.self, from: json), retry)
        XCTAssertEqual(
            try JSONDecoder().decode(RelayReply.self, from: try encoder.encode(fail)), fail)
    }
}
