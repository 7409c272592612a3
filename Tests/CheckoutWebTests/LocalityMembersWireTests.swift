import CheckoutCore
import CheckoutWeb
import Foundation
import XCTest

/// Spec W1, W2: Apple Pay's `subLocality` and `subAdministrativeArea`, the W3C
/// `dependentLocality`, `sortingCode` and `organization`, and Google Pay's `sortingCode` have their
/// place in the core and come back from it; what a wire has no member for is named.
final class LocalityMembersWireTests: XCTestCase {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    // spec W1: Apple Pay's two members reach Address.subLocality and subAdministrativeArea and
    // are written back; only the phonetic names and the country's display name stay behind.
    func testApplePayContactCarriesSubLocalityAndSubAdministrativeArea() throws {
        let wire = try decode(
            ApplePayPaymentContact.self,
            #"{"givenName": "Aiko", "familyName": "Sato", "addressLines": ["1-1 Marunouchi"], "subLocality": "Chiyoda", "locality": "Tokyo", "subAdministrativeArea": "Chiyoda City", "administrativeArea": "Tokyo", "postalCode": "100-0001", "countryCode": "JP", "country": "Japan", "phoneticGivenName": "アイコ"}"#
        )
        let core = try wire.core()
        XCTAssertEqual(core.postalAddress?.subLocality, "Chiyoda")
        XCTAssertEqual(core.postalAddress?.subAdministrativeArea, "Chiyoda City")
        XCTAssertEqual(wire.membersWithoutCoreCounterpart, ["phoneticGivenName", "country"])
        let back = ApplePayPaymentContact(core)
        XCTAssertEqual(back.subLocality, "Chiyoda")
        XCTAssertEqual(back.subAdministrativeArea, "Chiyoda City")
        XCTAssertEqual(try back.core(), core)
        // The browser's "" is absent, as for every other member.
        let empty = try decode(
            ApplePayPaymentContact.self, #"{"locality": "Austin", "subLocality": "", "subAdministrativeArea": ""}"#)
        XCTAssertNil(try empty.core().postalAddress?.subLocality)
        XCTAssertNil(try empty.core().postalAddress?.subAdministrativeArea)
        XCTAssertEqual(empty.membersWithoutCoreCounterpart, [])
    }

    // spec W1: dependentLocality is the core's subLocality (WebKit fills it from Apple Pay's
    // subLocality, ApplePayPaymentHandler.cpp), sortingCode the address's, organization the
    // contact's organizationName; nothing is left without a counterpart.
    func testPaymentAddressCarriesDependentLocalitySortingCodeAndOrganization() throws {
        let wire = try decode(
            PaymentAddress.self,
            #"{"country": "FR", "addressLine": ["8 rue de l'Elysée"], "region": "", "city": "Paris", "dependentLocality": "8e Arrondissement", "postalCode": "75008", "sortingCode": "CEDEX 08", "organization": "Tea & Co", "recipient": "Ravi Patel", "phone": "+33 1 23 45 67 89"}"#
        )
        let core = try wire.core()
        XCTAssertEqual(core.organizationName, "Tea & Co")
        XCTAssertEqual(core.postalAddress?.subLocality, "8e Arrondissement")
        XCTAssertEqual(core.postalAddress?.sortingCode, "CEDEX 08")
        XCTAssertEqual(wire.membersWithoutCoreCounterpart, [])
        let back = PaymentAddress(core)
        XCTAssertEqual(back.dependentLocality, "8e Arrondissement")
        XCTAssertEqual(back.sortingCode, "CEDEX 08")
        XCTAssertEqual(back.organization, "Tea & Co")
        XCTAssertEqual(try back.core(), core)
    }

    // spec W1: Google's Address has sortingCode (developers.google.com/pay/api/web/reference/
    // response-objects#Address); it is the core address's.
    func testGooglePayAddressCarriesSortingCode() throws {
        let wire = try decode(
            GooglePayAddress.self,
            #"{"name": "Ravi Patel", "address1": "8 rue de l'Elysée", "address2": "", "address3": "", "locality": "Paris", "administrativeArea": "", "countryCode": "FR", "postalCode": "75008", "sortingCode": "CEDEX 08"}"#
        )
        let core = try wire.core()
        XCTAssertEqual(core.postalAddress?.sortingCode, "CEDEX 08")
        XCTAssertEqual(wire.membersWithoutCoreCounterpart, [])
        XCTAssertEqual(GooglePayAddress(core).sortingCode, "CEDEX 08")
        XCTAssertEqual(try GooglePayAddress(core).core(), core)
    }

    // spec W2: what a wire dictionary has no member for is named by its core path, so a caller
    // writing the core to the page can refuse or keep it rather than lose it.
    func testWhatAWireHasNoMemberForIsNamed() {
        let contact = Contact(
            name: "Ravi Patel", organizationName: "Tea & Co", emailAddress: "ravi@example.com",
            postalAddress: Address(
                city: "Paris", country: .fr, subLocality: "8e", subAdministrativeArea: "Paris", sortingCode: "CEDEX 08")
        )
        XCTAssertEqual(
            ApplePayPaymentContact.coreMembersWithoutCounterpart(contact),
            ["organization_name", "address.sorting_code"])
        XCTAssertEqual(
            PaymentAddress.coreMembersWithoutCounterpart(contact), ["email", "address.sub_administrative_area"])
        XCTAssertEqual(
            GooglePayAddress.coreMembersWithoutCounterpart(contact),
            ["organization_name", "address.sub_locality", "address.sub_administrative_area"])
        let plain = Contact(name: "Ravi Patel", postalAddress: Address(city: "Paris", country: .fr))
        XCTAssertEqual(ApplePayPaymentContact.coreMembersWithoutCounterpart(plain), [])
        XCTAssertEqual(PaymentAddress.coreMembersWithoutCounterpart(plain), [])
        XCTAssertEqual(GooglePayAddress.coreMembersWithoutCounterpart(plain), [])
    }

    // spec W2: the Express Checkout Element's address is Stripe's six fields; the members it has
    // no field for are folded in as Stripe's conversion folds them, never dropped.
    func testTheExpressCheckoutAddressFoldsWhatItHasNoFieldFor() throws {
        let core = Address(
            line1: "8 rue de l'Elysée", line2: "Bât. B", city: "Paris", postalCode: "75008", country: .fr,
            subLocality: "8e Arrondissement", subAdministrativeArea: "Paris", sortingCode: "CEDEX 08")
        let element = try ExpressCheckoutAddress(core)
        XCTAssertEqual(element.line1, "8 rue de l'Elysée")
        XCTAssertEqual(element.line2, "Bât. B, 8e Arrondissement, Paris")
        XCTAssertEqual(element.city, "Paris CEDEX 08")
        XCTAssertEqual(element.postalCode, "75008")
        let billing = try ExpressCheckoutBillingDetails(
            Contact(name: "Ravi Patel", organizationName: "Tea & Co", postalAddress: core))
        XCTAssertEqual(billing.name, "Ravi Patel, Tea & Co")
        XCTAssertEqual(billing.address?.line2, "Bât. B, 8e Arrondissement, Paris")
    }
}
