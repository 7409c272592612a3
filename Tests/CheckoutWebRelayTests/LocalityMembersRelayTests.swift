import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// Spec W1, W2: the address members beyond Stripe's six and the organisation go from the page
/// through the relay to the merchant, who can write them back in the page's own dictionary;
/// before authorization the merchant sees the redacted contact, which keeps none of them (A2).
final class LocalityMembersRelayTests: XCTestCase {
    private func relay() -> WebRelay {
        WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
    }

    private func notPassedOn(_ relay: WebRelay, _ id: String) throws -> String {
        let text = try XCTUnwrap(relay.session(id)).transcript.text()
        return text.components(separatedBy: "\n").filter { $0.contains("relay.notPassedOn") }.joined(separator: "\n")
    }

    // spec W1, A2: Apple Pay's subLocality and subAdministrativeArea reach the merchant with the
    // authorized payment and come back in an ApplePayPaymentContact; the selection before it
    // is redacted and has neither.
    func testApplePayMembersGoPageToMerchantAndBack() async throws {
        let relay = relay()
        let merchant = ResponseMerchant()
        var request = Shop.request
        request.requiredShippingContactFields = [.name, .postalAddress]
        try relay.open("a33", request: request, merchant: .authorization(delegate: merchant))
        let selected = await relay.handle(
            try Page.event(
                #"{"session": "a33", "type": "shippingcontactselected", "shippingContact": {"locality": "Paris", "subLocality": "8e Arrondissement", "subAdministrativeArea": "Paris", "postalCode": "75008", "countryCode": "FR"}}"#
            ))
        XCTAssertNotNil(selected.completion, "\(selected)")
        let seen = try XCTUnwrap(merchant.contacts.first)
        XCTAssertTrue(seen.isRedacted)
        XCTAssertNil(seen.postalAddress?.subLocality, "A2: the redacted contact keeps no sub-locality")
        XCTAssertNil(seen.postalAddress?.subAdministrativeArea)

        let page = ApplePayPaymentContact(
            givenName: "Ravi", familyName: "Patel", addressLines: ["8 rue de l'Elysée"],
            subLocality: "8e Arrondissement", locality: "Paris", postalCode: "75008", subAdministrativeArea: "Paris",
            countryCode: "FR")
        let contactJSON = String(decoding: try JSONEncoder().encode(page), as: UTF8.self)
        let paid = await relay.handle(
            try Page.event(
                #"{"session": "a33", "type": "paymentauthorized", "payment": {"token": {"paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "credit"}, "transactionIdentifier": "ok", "paymentData": {"version": "EC_v1", "data": "abc"}}, "shippingContact": \#(contactJSON)}}"#
            ))
        XCTAssertEqual(relay.session("a33")?.outcome, "success", "\(paid)")
        let contact = try XCTUnwrap(merchant.payments.first?.shippingContact)
        XCTAssertEqual(contact.postalAddress?.subLocality, "8e Arrondissement")
        XCTAssertEqual(contact.postalAddress?.subAdministrativeArea, "Paris")
        let back = ApplePayPaymentContact(contact)
        XCTAssertEqual(back.subLocality, page.subLocality)
        XCTAssertEqual(back.subAdministrativeArea, page.subAdministrativeArea)
        XCTAssertEqual(back, page, "every member the page sent comes back")
        let notes = try notPassedOn(relay, "a33")
        XCTAssertFalse(notes.contains("subLocality"), notes)
        XCTAssertFalse(notes.contains("subAdministrativeArea"), notes)
    }

    // spec W1, W7, A2: the W3C dependentLocality, sortingCode and organization reach the
    // merchant with the PaymentResponse's full address and come back in a PaymentAddress; the
    // shippingaddresschange before it is redacted and has none of them.
    func testPaymentRequestMembersGoPageToMerchantAndBack() async throws {
        let relay = relay()
        let merchant = ResponseMerchant()
        try relay.open("w33", request: PaymentResponseTests.request, merchant: .authorization(delegate: merchant))
        let changed = await relay.handle(
            try Page.event(
                #"{"session": "w33", "type": "shippingaddresschange", "shippingAddress": {"country": "FR", "addressLine": [], "region": "", "city": "Paris", "dependentLocality": "8e Arrondissement", "postalCode": "75008", "sortingCode": "CEDEX 08", "organization": "", "recipient": "", "phone": ""}}"#
            ))
        XCTAssertNotNil(changed.completion, "\(changed)")
        let seen = try XCTUnwrap(merchant.contacts.first)
        XCTAssertNil(seen.postalAddress?.subLocality, "A2: the redacted contact keeps no sub-locality")
        XCTAssertNil(seen.postalAddress?.sortingCode, "A2: nor a sorting code")

        let page = PaymentAddress(
            country: "FR", addressLine: ["8 rue de l'Elysée"], city: "Paris", dependentLocality: "8e Arrondissement",
            postalCode: "75008", sortingCode: "CEDEX 08", organization: "Tea & Co", recipient: "Ravi Patel",
            phone: "+33123456789")
        let addressJSON = String(decoding: try JSONEncoder().encode(page), as: UTF8.self)
        let reply = await relay.handle(
            try PaymentResponseTests.response(
                "w33", address: addressJSON, name: "Ravi Patel", email: "ravi@example.com", phone: "+33123456789"))
        XCTAssertEqual(reply.completion, .paymentComplete(.success), "\(reply)")
        let contact = try XCTUnwrap(merchant.payments.first?.shippingContact)
        XCTAssertEqual(contact.organizationName, "Tea & Co")
        XCTAssertEqual(contact.postalAddress?.subLocality, "8e Arrondissement")
        XCTAssertEqual(contact.postalAddress?.sortingCode, "CEDEX 08")
        let back = PaymentAddress(contact)
        XCTAssertEqual(back.dependentLocality, page.dependentLocality)
        XCTAssertEqual(back.sortingCode, page.sortingCode)
        XCTAssertEqual(back.organization, page.organization)
        XCTAssertEqual(back, page, "every member the page sent comes back")
        XCTAssertEqual(try notPassedOn(relay, "w33"), "", "nothing the page sent is left behind")
    }

    // spec W1, W9: Google Pay's sortingCode reaches the merchant with the authorized payment and
    // comes back in a GooglePayAddress.
    func testGooglePaySortingCodeGoesPageToMerchantAndBack() async throws {
        let relay = relay()
        let merchant = ShopMerchant()
        var request = Shop.request
        request.requiredShippingContactFields = [.postalAddress, .name, .emailAddress]
        try relay.open("g33", request: request, merchant: .authorization(delegate: merchant))
        let initialized = await relay.handle(
            try GooglePage.initialize(
                "g33",
                address:
                    #"{"administrativeArea": "", "countryCode": "FR", "locality": "Paris", "postalCode": "75008"}"#,
                option: "standard"))
        XCTAssertNotNil(initialized.completion, "\(initialized)")

        let page = GooglePayAddress(
            name: "Ravi Patel", address1: "8 rue de l'Elysée", locality: "Paris", countryCode: "FR",
            postalCode: "75008",
            sortingCode: "CEDEX 08")
        let addressJSON = String(decoding: try JSONEncoder().encode(page), as: UTF8.self)
        let paid = await relay.handle(
            try Page.event(
                #"{"session": "g33", "type": "googlepay.paymentauthorized", "paymentData": {"paymentMethodData": {"type": "CARD", "description": "Visa •••• 1234", "info": {"cardNetwork": "VISA"}, "tokenizationData": {"type": "PAYMENT_GATEWAY", "token": "tok"}}, "email": "ravi@example.com", "shippingAddress": \#(addressJSON), "shippingOptionData": {"id": "standard"}}}"#
            ))
        XCTAssertEqual(paid.completion, .googlePayPaymentAuthorized(.init(transactionState: .success)), "\(paid)")
        let contact = try XCTUnwrap(merchant.payments.first?.shippingContact)
        XCTAssertEqual(contact.postalAddress?.sortingCode, "CEDEX 08")
        let back = GooglePayAddress(contact)
        XCTAssertEqual(back.sortingCode, page.sortingCode)
        XCTAssertEqual(back, page, "every member the page sent comes back")
        let notes = try notPassedOn(relay, "g33")
        XCTAssertFalse(notes.contains("sortingCode"), notes)
    }
}
