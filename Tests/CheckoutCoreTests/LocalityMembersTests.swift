import CheckoutCore
import Foundation
import XCTest

/// The address members beyond Stripe's six (`CNPostalAddress.subLocality`,
/// `subAdministrativeArea`, the W3C `sortingCode`) and the contact's organisation
/// (`CNContact.organizationName`): in the model, in its JSON, in descriptions and in redaction.
final class LocalityMembersTests: XCTestCase {
    private let paris = Address(
        line1: "8 rue de l'Elysée", city: "Paris", postalCode: "75008", country: .fr, subLocality: "8e Arrondissement",
        subAdministrativeArea: "Paris", sortingCode: "CEDEX 08")

    // spec W2: the package's own JSON carries every member under a Stripe-style snake_case key,
    // and reads back the same address.
    func testTheMembersRoundTripThroughTheModelJSON() throws {
        let (decoded, json) = try JSON.roundTrip(paris)
        XCTAssertEqual(decoded, paris)
        XCTAssertEqual(decoded.subLocality, "8e Arrondissement")
        XCTAssertEqual(decoded.subAdministrativeArea, "Paris")
        XCTAssertEqual(decoded.sortingCode, "CEDEX 08")
        XCTAssertTrue(json.contains(#""sub_locality":"8e Arrondissement""#), json)
        XCTAssertTrue(json.contains(#""sub_administrative_area":"Paris""#), json)
        XCTAssertTrue(json.contains(#""sorting_code":"CEDEX 08""#), json)
        let plain = try JSON.encode(Address(city: "Austin", country: .us))
        XCTAssertEqual(plain, #"{"city":"Austin","country":"US"}"#, "absent members are left out")

        let contact = Contact(name: "Ravi Patel", organizationName: "Tea & Co", postalAddress: paris)
        let (back, contactJSON) = try JSON.roundTrip(contact)
        XCTAssertEqual(back, contact)
        XCTAssertEqual(back.organizationName, "Tea & Co")
        XCTAssertTrue(contactJSON.contains(#""organization_name":"Tea & Co""#), contactJSON)
    }

    // spec E8: a transcript's JSON (ModelJSON) writes the new members byte for byte as
    // Foundation's encoder does, and the text transcript's description masks them.
    func testTranscriptsRenderTheNewMembers() throws {
        let contact = Contact(name: "Ravi Patel", organizationName: "Tea & Co", postalAddress: paris)
        let text = try XCTUnwrap(ModelJSON.text(contact))
        XCTAssertEqual(text, ModelJSON.foundationText(contact))
        XCTAssertTrue(text.contains(#""organization_name":"Tea & Co""#), text)
        XCTAssertTrue(text.contains(#""sub_locality":"8e Arrondissement""#), text)
        XCTAssertTrue(text.contains(#""sorting_code":"CEDEX 08""#), text)
        XCTAssertTrue(text.contains(#""sub_administrative_area":"Paris""#), text)
    }

    // spec W2: an unknown key is still refused with its path, W3C's and Apple's spellings among
    // them (the model's keys are its own).
    func testUnknownKeysAreStillRefusedWithTheirPath() {
        for (json, path) in [
            (#"{"city": "Paris", "dependentLocality": "8e"}"#, ["dependentLocality"]),
            (#"{"city": "Paris", "subLocality": "8e"}"#, ["subLocality"]),
            (#"{"city": "Paris", "sortingcode": "CEDEX"}"#, ["sortingcode"]),
        ] {
            let error = assertDecodingError(try JSON.decode(Address.self, json), json)
            guard case .dataCorrupted(let context) = error else {
                return XCTFail("\(json): \(String(describing: error))")
            }
            XCTAssertEqual(pathDescription(context.codingPath), path, json)
        }
        let error = assertDecodingError(
            try JSON.decode(Contact.self, #"{"name": "A", "organization": "Tea & Co"}"#))
        guard case .dataCorrupted(let context) = error else { return XCTFail(String(describing: error)) }
        XCTAssertEqual(pathDescription(context.codingPath), ["organization"])
        let nested = assertDecodingError(
            try JSON.decode(Contact.self, #"{"address": {"city": "Paris", "sub_locallity": "8e"}}"#))
        guard case .dataCorrupted(let nestedContext) = nested else { return XCTFail(String(describing: nested)) }
        XCTAssertEqual(pathDescription(nestedContext.codingPath), ["address", "sub_locallity"])
    }

    // Setting a member and clearing it again gives the plain address back: equality and hashing
    // see values, not whether a member was ever set.
    func testClearingTheMembersGivesThePlainAddress() {
        var address = Address(city: "Paris", country: .fr)
        address.subLocality = "8e Arrondissement"
        XCTAssertNotEqual(address, Address(city: "Paris", country: .fr))
        address.sortingCode = "CEDEX 08"
        address.subLocality = nil
        XCTAssertEqual(address, Address(city: "Paris", country: .fr, sortingCode: "CEDEX 08"))
        address.sortingCode = nil
        XCTAssertEqual(address, Address(city: "Paris", country: .fr))
        XCTAssertEqual(Set([address, Address(city: "Paris", country: .fr)]).count, 1)
        // A copy is independent of the original once written.
        var copy = paris
        copy.subAdministrativeArea = "Île-de-France"
        XCTAssertEqual(paris.subAdministrativeArea, "Paris")
        XCTAssertEqual(copy.subAdministrativeArea, "Île-de-France")
    }

    // spec A2: a redacted contact keeps none of the new members. Apple's redacted contact has
    // none of them (developer.apple.com, ApplePayPayment.shippingContact: the redacted example
    // holds locality, administrativeArea, postalCode, country and countryCode; PassKit's
    // didSelectShippingContact: city, state, 5-digit ZIP and country in the US).
    func testRedactionKeepsNoneOfTheNewMembers() {
        let contact = Contact(name: "Ravi Patel", organizationName: "Tea & Co", postalAddress: paris)
        let redacted = contact.redactedForShipping()
        XCTAssertNil(redacted.organizationName)
        XCTAssertNil(redacted.postalAddress?.subLocality)
        XCTAssertNil(redacted.postalAddress?.subAdministrativeArea)
        XCTAssertNil(redacted.postalAddress?.sortingCode)
        XCTAssertEqual(redacted.postalAddress, Address(city: "Paris", postalCode: "75008", country: .fr))
        XCTAssertEqual(redacted.redactedForShipping(), redacted, "redacting twice changes nothing")
    }

    // The organisation goes with the postal address (the W3C PaymentAddress carries it): a
    // merchant that asked for the address gets it, one that asked for the name alone does not.
    func testTheOrganizationGoesWithThePostalAddress() {
        let contact = Contact(name: "Ravi Patel", organizationName: "Tea & Co", postalAddress: paris)
        XCTAssertEqual(contact.limited(to: [.postalAddress])?.organizationName, "Tea & Co")
        XCTAssertNil(contact.limited(to: [.name])?.organizationName)
    }

    // spec E8: descriptions mask the organisation and the street-level members; the unmasked
    // description shows them in a label's order.
    func testDescriptionsMaskTheNewMembers() {
        let contact = Contact(name: "Ravi Patel", organizationName: "Tea & Co", postalAddress: paris)
        XCTAssertEqual(
            contact.description, "Contact(name: •••, organization: •••, address: •••, Paris, 75008, FR)")
        XCTAssertFalse(contact.description.contains("Arrondissement"))
        XCTAssertFalse(contact.description.contains("CEDEX"))
        XCTAssertEqual(
            paris.unmaskedDescription,
            "8 rue de l'Elysée, 8e Arrondissement, Paris, Paris, 75008, CEDEX 08, FR")
        let onlyCounty = Address(city: "Cupertino", state: "CA", country: .us, subAdministrativeArea: "Santa Clara")
        XCTAssertEqual(onlyCounty.description, "•••, Cupertino, CA, US")
    }
}
