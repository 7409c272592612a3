// libFuzzer target `json-contact`: the input bytes are JSON decoded as a `Contact` (and as an
// `Address`).
//
// When decoding succeeds: encoding and decoding again gives an equal value; validation,
// `missingFields` and `limited(to:)` never crash and agree; the redaction Apple Pay applies keeps
// nothing personal, is idempotent, and truncates postal codes as documented; the masked
// description shows no personal data.
//
// Built and run by Scripts/fuzz.sh (not by SwiftPM).

import CheckoutCore
import Foundation

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("json-contact invariant broken: \(message())") }
}

private func roundTrip<T: Codable & Equatable>(_ value: T) {
    do {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        let again = try JSONDecoder().decode(T.self, from: data)
        require(again == value, "\(T.self) round trip changed the value")
        let second = try encoder.encode(again)
        require(second == data, "\(T.self) encoding is not stable")
    } catch {
        fatalError("json-contact: \(T.self) does not round-trip: \(error)")
    }
}

private let allFieldSets: [Set<ContactField>] = (0..<16).map { bits in
    Set(ContactField.allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element))
}

private func checkAddress(_ address: Address) {
    roundTrip(address)
    let missing = address.missingFields
    let problems = address.validate()
    require(
        problems.filter { $0.code == .missingField }.compactMap(\.field) == missing.map(\.rawValue),
        "validate() and missingFields disagree")
    _ = address.description
    _ = address.unmaskedDescription
    if let code = address.postalCode { _ = Address.isUSZIPCode(code) }
    // The street lines are masked.
    var marked = address
    marked.line1 = "QZXLINEONE"
    marked.line2 = "QZXLINETWO"
    require(!marked.description.contains("QZXLINE"), "the address description shows a street line")
}

private func checkContact(_ contact: Contact) {
    roundTrip(contact)
    for required in allFieldSets {
        let missing = contact.missingFields(required: required)
        require(missing.allSatisfy(required.contains), "missingFields lists a field that is not required")
        require(missing == missing.sorted(), "missingFields is not in ContactField order")
        let problems = contact.validate(required: required)
        require(
            problems.prefix(missing.count).map { $0.field ?? "" } == missing.map(\.rawValue),
            "validate(required:) does not start with the missing fields")
        for problem in problems { _ = problem.description }
        if let limited = contact.limited(to: required) {
            require(!required.isEmpty, "limited(to: []) is not nil")
            require(limited.name == (required.contains(.name) ? contact.name : nil), "limited name")
            require(limited.emailAddress == (required.contains(.emailAddress) ? contact.emailAddress : nil), "email")
            require(limited.phoneNumber == (required.contains(.phoneNumber) ? contact.phoneNumber : nil), "phone")
            require(
                limited.postalAddress == (required.contains(.postalAddress) ? contact.postalAddress : nil),
                "limited address")
        } else {
            require(required.isEmpty, "limited(to:) is nil for \(required)")
        }
    }

    // Redaction (spec A2).
    let redacted = contact.redactedForShipping()
    require(redacted.isRedacted, "not marked redacted")
    require(redacted.name == nil && redacted.emailAddress == nil && redacted.phoneNumber == nil, "personal data kept")
    require(redacted.postalAddress?.line1 == nil && redacted.postalAddress?.line2 == nil, "street kept")
    require(redacted.redactedForShipping() == redacted, "redaction is not idempotent")
    if !contact.isRedacted, let address = contact.postalAddress, let code = address.postalCode {
        let short = redacted.postalAddress?.postalCode ?? ""
        let zip = address.country?.addressRules.usesUSZIPCodes ?? false
        switch address.country?.code {
        case _ where zip:
            // The US and the territories that use US ZIP codes: at most the first five digits.
            require(short.count <= 5 && short.allSatisfy { $0.isASCII && $0.isNumber }, "ZIP \(short)")
        case "GB", "CA":
            // The outward code, upper-cased without white space: three characters shorter than
            // the code, or the code itself when it is an outward code alone (4 at most), or BFPO.
            require(short == "BFPO" || short.count <= max(code.count - 3, 4), "outward code \(short) of \(code)")
            require(!short.unicodeScalars.contains { $0.properties.isWhitespace }, "white space in \(short)")
            require(!short.unicodeScalars.contains { ("a"..."z").contains($0) }, "lower case in \(short)")
        default:
            require(short == code, "postal code changed outside the US ZIP countries, GB, CA")
        }
        require(redacted.postalAddress?.city == address.city, "city changed")
        require(redacted.postalAddress?.state == address.state, "state changed")
        require(redacted.postalAddress?.country == address.country, "country changed")
    }
    roundTrip(redacted)
    _ = redacted.description

    // The masked description shows no personal data, whatever the other fields hold.
    var marked = contact
    marked.name = "QZXNAME"
    marked.emailAddress = "QZXEMAIL"
    marked.phoneNumber = "QZXPHONE"
    if var address = marked.postalAddress {
        address.line1 = "QZXLINEONE"
        address.line2 = "QZXLINETWO"
        marked.postalAddress = address
    }
    var dumped = ""
    dump(marked, to: &dumped)
    for rendering in [marked.description, String(describing: marked), String(reflecting: marked), dumped] {
        require(!rendering.contains("QZX"), "a masked rendering shows personal data: \(rendering)")
    }
    require(marked.unmaskedDescription.contains("QZXNAME"), "unmaskedDescription hides the name")

    if let address = contact.postalAddress { checkAddress(address) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    if let contact = try? JSONDecoder().decode(Contact.self, from: input) {
        checkContact(contact)
    }
    if let address = try? JSONDecoder().decode(Address.self, from: input) {
        checkAddress(address)
    }
    return 0
}
