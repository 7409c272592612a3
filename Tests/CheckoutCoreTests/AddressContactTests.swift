import CheckoutCore
import XCTest

private func country(_ code: String) -> CountryCode {
    try! CountryCode(code)
}

private func usAddress(postalCode: String? = "94103", state: String? = "CA") -> Address {
    Address(
        line1: "510 Townsend St",
        city: "San Francisco",
        state: state,
        postalCode: postalCode,
        country: country("US")
    )
}

final class AddressTests: XCTestCase {
    func testMissingFields() {
        // spec S1 as the defaults, the country's AddressRules (Google's metadata) where they say
        // more: AE requires its emirate, HK its area, CA its province (updated for the issue
        // "Addresses, postal codes and currencies as the world has them").
        let cases: [(address: Address, missing: [Address.Field])] = [
            (Address(), [.line1, .city, .postalCode, .country]),
            (usAddress(), []),
            (usAddress(state: nil), [.state]),
            (usAddress(state: "  "), [.state]),
            (usAddress(postalCode: nil), [.postalCode]),
            (usAddress(postalCode: ""), [.postalCode]),
            (Address(line1: "1 Main St", city: "Berlin", postalCode: "10115", country: country("DE")), []),
            (Address(line1: "1 Main St", city: "Berlin", country: country("DE")), [.postalCode]),
            (
                Address(line1: "1 Main St", city: "Berlin", postalCode: " \t", country: country("DE")),
                [.postalCode]
            ),
            (Address(line1: "Sheikh Zayed Rd", city: "Dubai", country: country("AE")), [.state]),
            (Address(line1: "Sheikh Zayed Rd", city: "Dubai", state: "Dubai", country: country("AE")), []),
            (Address(line1: "1 Queen's Rd", city: "Hong Kong", country: country("HK")), [.state]),
            (Address(line1: "1 Queen's Rd", state: "Central", country: country("HK")), []),
            (Address(line1: "1 O'Connell St", city: "Dublin", country: country("IE")), []),
            (Address(line1: "", city: "Dublin", country: country("IE")), [.line1]),
            (Address(line1: "1 Main St", city: " ", country: country("IE")), [.city]),
            (Address(line1: "1 Main St", city: "Paris", postalCode: "75001"), [.country]),
            (Address(line1: "1 Main St", city: "Toronto", postalCode: "M5V 2T6", country: country("CA")), [.state]),
            (
                Address(
                    line1: "1 Main St", city: "Toronto", state: "ON", postalCode: "M5V 2T6", country: country("CA")),
                []
            ),
        ]
        for (address, missing) in cases {
            XCTAssertEqual(address.missingFields, missing, address.unmaskedDescription)
        }
    }

    func testValidateReportsMissingFieldsWithTheirNames() {
        let problems = Address(country: country("US")).validate()
        XCTAssertEqual(problems.map(\.code), [.missingField, .missingField, .missingField, .missingField])
        XCTAssertEqual(problems.map(\.field), ["line1", "city", "state", "postal_code"])
    }

    func testUSZIPCodes() {
        // spec S1: 5 digits or 9 digits with an optional single separator.
        for zip in ["12345", "123456789", "12345-6789", "12345 6789", "00000"] {
            XCTAssertTrue(Address.isUSZIPCode(zip), zip)
            XCTAssertEqual(usAddress(postalCode: zip).validate(), [], zip)
        }
        let invalid = [
            "1234", "12345-", "12345--6789", "1234a", "123456", "1234567890", "12345-678", "12345_6789",
            "12345\t6789", "-12345678", "１２３４５", "١٢٣٤٥", "12 345", "ABCDE",
        ]
        for zip in invalid {
            XCTAssertFalse(Address.isUSZIPCode(zip), zip)
            let problems = usAddress(postalCode: zip).validate()
            XCTAssertEqual(problems.map(\.code), [.invalidPostalCode], zip)
            XCTAssertEqual(problems.first?.field, "postal_code")
            XCTAssertEqual(problems.first?.value, zip)
        }
    }

    func testZIPRulesApplyOnlyToTheUS() {
        // Elsewhere the country's own pattern applies (it used to be any non-empty code: changed
        // for the issue "Addresses, postal codes and currencies as the world has them").
        let gb = Address(
            line1: "10 Downing St", city: "London", postalCode: "SW1A 2AA", country: country("GB"))
        XCTAssertEqual(gb.validate(), [])
        let de = Address(
            line1: "Unter den Linden 1", city: "Berlin", postalCode: "1234", country: country("DE"))
        XCTAssertEqual(de.validate().map(\.code), [.invalidPostalCode])
        var german = de
        german.postalCode = "10117"
        XCTAssertEqual(german.validate(), [])
    }

    func testDescriptionMasksTheStreetOnly() {
        let address = Address(
            line1: "221B Baker Street",
            line2: "Flat 2",
            city: "London",
            state: "Greater London",
            postalCode: "NW1 6XE",
            country: country("GB")
        )
        for text in [address.description, "\(address)", String(reflecting: address)] {
            XCTAssertFalse(text.contains("Baker"), text)
            XCTAssertFalse(text.contains("Flat 2"), text)
        }
        XCTAssertEqual(address.description, "•••, London, Greater London, NW1 6XE, GB")
        XCTAssertEqual(
            address.unmaskedDescription,
            "221B Baker Street, Flat 2, London, Greater London, NW1 6XE, GB"
        )
        XCTAssertEqual(Address(city: "Paris").description, "Paris")
    }

    func testFieldNames() {
        XCTAssertEqual(
            Address.Field.allCases.map(\.rawValue),
            ["line1", "line2", "city", "state", "postal_code", "country"])
        XCTAssertEqual(Address.Field.postalCode.description, "postal_code")
    }
}

final class ContactTests: XCTestCase {
    private let full = Contact(
        name: "Jane Appleseed",
        emailAddress: "jane@example.com",
        phoneNumber: "+1 (415) 555-0100",
        postalAddress: Address(
            line1: "1 Infinite Loop",
            line2: "Building 4",
            city: "Cupertino",
            state: "CA",
            postalCode: "95014-2083",
            country: try! CountryCode("US")
        )
    )

    func testMissingFieldsOrderAndContent() {
        // spec A6: the fields a request requires and the contact lacks, in ContactField order.
        let all = Set(ContactField.allCases)
        let cases: [(contact: Contact, required: Set<ContactField>, missing: [ContactField])] = [
            (Contact(), all, [.name, .emailAddress, .phoneNumber, .postalAddress]),
            (Contact(), [], []),
            (Contact(), [.postalAddress, .name], [.name, .postalAddress]),
            (Contact(), [.phoneNumber, .emailAddress], [.emailAddress, .phoneNumber]),
            (full, all, []),
            (
                Contact(name: " ", emailAddress: "", phoneNumber: "\n"), all,
                [.name, .emailAddress, .phoneNumber, .postalAddress]
            ),
            (Contact(name: "Jane"), [.name, .emailAddress], [.emailAddress]),
            // An incomplete address counts as missing.
            (
                Contact(postalAddress: Address(city: "Cupertino", country: try! CountryCode("US"))),
                [.postalAddress], [.postalAddress]
            ),
            (Contact(postalAddress: usAddress(state: nil)), [.postalAddress], [.postalAddress]),
            (Contact(postalAddress: usAddress()), [.postalAddress], []),
            // Fields not required are not reported.
            (Contact(name: "Jane"), [.name], []),
        ]
        for (contact, required, missing) in cases {
            XCTAssertEqual(
                contact.missingFields(required: required), missing,
                "\(contact.unmaskedDescription) \(required)")
        }
    }

    func testValidateFindsBadEmailAndPhone() {
        let badEmails = [
            "jane", "jane@", "@example.com", "a@b@c", "jane doe@example.com", "jane@exa mple.com",
        ]
        for email in badEmails {
            let problems = Contact(emailAddress: email).validate(required: [.emailAddress])
            XCTAssertEqual(problems.map(\.code), [.invalidField], email)
            XCTAssertEqual(problems.map(\.field), ["emailAddress"], email)
            XCTAssertEqual(problems.first?.value, email)
        }
        for email in ["jane@example.com", "j@x", "first.last+tag@sub.example.co.uk"] {
            XCTAssertEqual(Contact(emailAddress: email).validate(required: [.emailAddress]), [], email)
        }
        let badPhones = ["12", "phone", "555-CALL", "+1 415 555 0100 ext. 5", "1/2/3", "+", "٤١٥٥٥٥٠١٠٠"]
        for phone in badPhones {
            let problems = Contact(phoneNumber: phone).validate(required: [.phoneNumber])
            XCTAssertEqual(problems.map(\.code), [.invalidField], phone)
            XCTAssertEqual(problems.map(\.field), ["phoneNumber"], phone)
        }
        for phone in ["+1 (415) 555-0100", "555.0100", "123"] {
            XCTAssertEqual(Contact(phoneNumber: phone).validate(required: [.phoneNumber]), [], phone)
        }
    }

    func testValidateListsMissingThenInvalid() {
        let contact = Contact(
            emailAddress: "nope",
            phoneNumber: "x",
            postalAddress: usAddress(postalCode: "1234")
        )
        let problems = contact.validate(required: [.name, .postalAddress])
        XCTAssertEqual(
            problems.map(\.code), [.missingField, .invalidField, .invalidField, .invalidPostalCode])
        XCTAssertEqual(
            problems.map(\.field), ["name", "emailAddress", "phoneNumber", "postalAddress.postal_code"])
    }

    func testValidateCompleteContact() {
        XCTAssertEqual(full.validate(required: Set(ContactField.allCases)), [])
    }

    func testDescriptionMasksPersonalData() {
        // spec E8: street, name, email and phone are masked unless asked for.
        let secrets = ["Jane", "Appleseed", "jane@example.com", "415", "Infinite Loop", "Building 4"]
        for text in [full.description, "\(full)", String(reflecting: full)] {
            for secret in secrets {
                XCTAssertFalse(text.contains(secret), "\(secret) leaks in \(text)")
            }
            XCTAssertTrue(text.contains("Cupertino"), text)
        }
        XCTAssertEqual(
            full.description,
            "Contact(name: •••, email: •••, phone: •••, address: •••, Cupertino, CA, 95014-2083, US)"
        )
        for secret in secrets {
            XCTAssertTrue(full.unmaskedDescription.contains(secret), secret)
        }
        XCTAssertEqual(Contact().description, "Contact()")
    }

    func testLimitedTo() {
        // spec A6: the payment holds the contact limited to the requested fields, nil for none.
        XCTAssertNil(full.limited(to: []))
        XCTAssertEqual(full.limited(to: Set(ContactField.allCases)), full)
        let nameAndEmail = full.limited(to: [.name, .emailAddress])
        XCTAssertEqual(nameAndEmail, Contact(name: "Jane Appleseed", emailAddress: "jane@example.com"))
        let phone = full.limited(to: [.phoneNumber])
        XCTAssertEqual(phone, Contact(phoneNumber: "+1 (415) 555-0100"))
        let address = full.limited(to: [.postalAddress])
        XCTAssertEqual(address?.postalAddress, full.postalAddress)
        XCTAssertNil(address?.name)
        XCTAssertEqual(Contact(name: "x", isRedacted: true).limited(to: [.name])?.isRedacted, true)
    }

    func testContactFieldOrder() {
        XCTAssertEqual(
            Set(ContactField.allCases).sorted(),
            [.name, .emailAddress, .phoneNumber, .postalAddress]
        )
        XCTAssertLessThan(ContactField.name, ContactField.postalAddress)
        XCTAssertFalse(ContactField.phoneNumber < ContactField.emailAddress)
    }
}
