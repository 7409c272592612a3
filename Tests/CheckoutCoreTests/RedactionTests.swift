import CheckoutCore
import Foundation
import XCTest

final class RedactionTests: XCTestCase {
    private func contact(postalCode: String?, country code: String?, state: String? = "State") -> Contact {
        Contact(
            name: "Jane Appleseed",
            emailAddress: "jane@example.com",
            phoneNumber: "+1 415 555 0100",
            postalAddress: Address(
                line1: "1 Secret Street",
                line2: "Apt 9",
                city: "Springfield",
                state: state,
                postalCode: postalCode,
                country: code.map { try! CountryCode($0) }
            )
        )
    }

    func testPostalCodeTruncation() {
        // spec A2: US first 5 digits; CA and GB without the last three characters, spaces
        // trimmed; elsewhere unchanged.
        let cases: [(country: String?, postalCode: String?, redacted: String?)] = [
            ("US", "12345-6789", "12345"),
            ("US", "12345 6789", "12345"),
            ("US", "123456789", "12345"),
            ("US", "12345", "12345"),
            ("GB", "SW1A 1AA", "SW1A"),
            ("GB", "SW1A1AA", "SW1A"),
            ("GB", " SW1A  1AA ", "SW1A"),
            ("GB", "M1 1AE", "M1"),
            ("CA", "K1A 0B1", "K1A"),
            ("CA", "K1A0B1", "K1A"),
            ("DE", "10115", "10115"),
            ("FR", "75001", "75001"),
            ("JP", "100-0001", "100-0001"),
            ("NL", "1012 AB", "1012 AB"),
            ("AE", nil, nil),  // no postal codes
            ("IE", nil, nil),
            (nil, "12345-6789", "12345-6789"),
        ]
        for (country, postalCode, redacted) in cases {
            let result = contact(postalCode: postalCode, country: country).redactedForShipping()
            XCTAssertEqual(
                result.postalAddress?.postalCode, redacted, "\(country ?? "nil") \(postalCode ?? "nil")")
        }
    }

    func testPersonalDataIsRemoved() throws {
        // spec A2: city, state, country and the truncated postal code stay; nothing else.
        let redacted = contact(postalCode: "12345-6789", country: "US").redactedForShipping()
        XCTAssertTrue(redacted.isRedacted)
        XCTAssertNil(redacted.name)
        XCTAssertNil(redacted.emailAddress)
        XCTAssertNil(redacted.phoneNumber)
        let address = try XCTUnwrap(redacted.postalAddress)
        XCTAssertNil(address.line1)
        XCTAssertNil(address.line2)
        XCTAssertEqual(address.city, "Springfield")
        XCTAssertEqual(address.state, "State")
        XCTAssertEqual(address.country?.code, "US")
        XCTAssertEqual(
            redacted,
            Contact(
                postalAddress: Address(
                    city: "Springfield", state: "State", postalCode: "12345", country: try CountryCode("US")),
                isRedacted: true
            )
        )
        XCTAssertTrue(
            redacted.unmaskedDescription.hasPrefix("RedactedContact("), redacted.unmaskedDescription)
        for secret in ["Jane", "jane@", "415", "Secret Street", "Apt 9", "6789"] {
            XCTAssertFalse(redacted.unmaskedDescription.contains(secret), secret)
        }
    }

    // spec A2: a contact that claims to be redacted still loses its street, name, email and phone;
    // its postal code is kept as it is (truncating "SW1A" again would give "S"). Found by the
    // json-contact fuzz target: `{"address": {"line1": "ON", ...}, "redacted": true}` kept "ON".
    func testAContactThatClaimsToBeRedactedIsRedactedAgain() throws {
        let json = Data(
            """
            {"name": "Jane", "email": "jane@example.com", "phone": "+44 20 7946 0000", "redacted": true,
             "address": {"line1": "ON", "line2": "Flat 2", "city": "London", "postal_code": "SW1A",
                         "country": "GB"}}
            """.utf8)
        let claimed = try JSONDecoder().decode(Contact.self, from: json)
        XCTAssertTrue(claimed.isRedacted)
        let redacted = claimed.redactedForShipping()
        XCTAssertEqual(
            redacted,
            Contact(
                postalAddress: Address(city: "London", postalCode: "SW1A", country: try CountryCode("GB")),
                isRedacted: true))
        XCTAssertEqual(redacted.redactedForShipping(), redacted, "idempotent")
        let properlyRedacted = contact(postalCode: "SW1A 1AA", country: "GB").redactedForShipping()
        XCTAssertEqual(properlyRedacted.redactedForShipping(), properlyRedacted)
        XCTAssertEqual(properlyRedacted.postalAddress?.postalCode, "SW1A")
    }

    func testCountryWithoutPostalCodes() throws {
        // spec A2 and S1: AE has no postal codes; the redacted address keeps city and country.
        let redacted = contact(postalCode: nil, country: "AE", state: nil).redactedForShipping()
        let address = try XCTUnwrap(redacted.postalAddress)
        XCTAssertEqual(address, Address(city: "Springfield", country: try CountryCode("AE")))
        // AE requires its emirate (Google's metadata), which this contact never had.
        XCTAssertEqual(address.missingFields, [.line1, .state], "only the street is gone")
    }

    func testContactWithoutAddress() {
        let redacted = Contact(name: "Jane", emailAddress: "jane@example.com").redactedForShipping()
        XCTAssertEqual(redacted, Contact(isRedacted: true))
    }

    func testLimitedKeepsTheRedactionFlag() {
        let redacted = contact(postalCode: "12345", country: "US").redactedForShipping()
        XCTAssertEqual(redacted.limited(to: [.postalAddress])?.isRedacted, true)
        XCTAssertEqual(redacted.limited(to: [.postalAddress])?.postalAddress?.postalCode, "12345")
        XCTAssertNil(redacted.limited(to: []))
    }
}

final class RedactionFollowUpTests: XCTestCase {
    private let london = Contact(
        name: "Ada Lovelace",
        emailAddress: "ada@example.com",
        phoneNumber: "+44 20 7946 0000",
        postalAddress: Address(
            line1: "10 Downing St",
            city: "London",
            postalCode: "SW1A 2AA",
            country: try? CountryCode("GB")
        )
    )

    // spec A2: redacting twice does not shorten the outward code again.
    func testRedactionIsIdempotent() {
        let once = london.redactedForShipping()
        XCTAssertEqual(once.postalAddress?.postalCode, "SW1A")
        XCTAssertEqual(once.redactedForShipping(), once)
    }

    // spec E8: dump and mirrors see masked personal data only.
    func testDumpMasksPersonalData() {
        var dumped = ""
        dump(london, to: &dumped)
        XCTAssertTrue(dumped.contains("London"))
        for secret in ["Ada", "ada@example.com", "7946", "Downing"] {
            XCTAssertFalse(dumped.contains(secret), "dump shows \(secret): \(dumped)")
        }
    }

    func testUpdatesDecodeWithoutErrorsKey() throws {
        let json = #"{"summaryItems": [{"label": "Total", "amount": {"currency": "USD", "value": "1.00"}}]}"#
        let contact = try JSON.decode(ShippingContactUpdate.self, json)
        XCTAssertEqual(contact.errors, [])
        XCTAssertNil(contact.shippingMethods)
        XCTAssertEqual(contact.summaryItems.last?.amount.minorUnits, 100)
        XCTAssertEqual(try JSON.decode(PaymentMethodUpdate.self, json).errors, [])
        XCTAssertEqual(try JSON.decode(CouponCodeUpdate.self, json).errors, [])
        XCTAssertThrowsError(try JSON.decode(CouponCodeUpdate.self, "{}"))
    }
}
