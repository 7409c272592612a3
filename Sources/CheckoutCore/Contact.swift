/// A field of a contact that a payment request can require (PassKit's `PKContactField`).
public enum ContactField: String, Hashable, Sendable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    /// The person's name (`PKContactField.name`).
    case name
    /// An email address (`PKContactField.emailAddress`).
    case emailAddress
    /// A phone number (`PKContactField.phoneNumber`).
    case phoneNumber
    /// A complete postal address (`PKContactField.postalAddress`).
    case postalAddress

    /// The field's name, such as `postalAddress`.
    public var description: String { rawValue }

    /// A bit of its own for each field, in declaration order.
    fileprivate var bit: UInt8 {
        switch self {
        case .name: 1
        case .emailAddress: 2
        case .phoneNumber: 4
        case .postalAddress: 8
        }
    }

    /// Orders the fields as declared: name, email address, phone number, postal address.
    public static func < (lhs: ContactField, rhs: ContactField) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A billing or shipping contact (PassKit's `PKContact`), with Stripe's `billing_details` names in
/// JSON: `name`, `email`, `phone`, `address`, `organization_name` (Stripe has none) and
/// `redacted` for a redacted shipping contact.
///
/// The ``description`` masks personal data (name, email, phone, street lines);
/// ``unmaskedDescription`` shows it.
public struct Contact: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// The person's full name.
    public var name: String? {
        get { storage.value.name }
        _modify { yield &storage.value.name }
    }
    /// The organisation the contact belongs to or the goods go to (`CNContact.organizationName`,
    /// the W3C `PaymentAddress.organization`).
    public var organizationName: String? {
        get { storage.value.organizationName }
        _modify { yield &storage.value.organizationName }
    }
    /// An email address.
    public var emailAddress: String? {
        get { storage.value.emailAddress }
        _modify { yield &storage.value.emailAddress }
    }
    /// A phone number.
    public var phoneNumber: String? {
        get { storage.value.phoneNumber }
        _modify { yield &storage.value.phoneNumber }
    }
    /// A postal address.
    public var postalAddress: Address? {
        get { storage.value.postalAddress }
        _modify { yield &storage.value.postalAddress }
    }
    /// Whether this is the redacted form of a shipping contact (spec A2), as a delegate sees it
    /// before authorization.
    public var isRedacted: Bool {
        get { storage.value.isRedacted }
        _modify { yield &storage.value.isRedacted }
    }

    /// The fields, shared by every copy of the contact until one is changed (``CopyOnWrite``): an
    /// outstanding shipping-contact callback keeps the customer's contact in full.
    private struct Fields: Hashable, Sendable {
        var name: String?
        var organizationName: String?
        var emailAddress: String?
        var phoneNumber: String?
        var postalAddress: Address?
        var isRedacted: Bool
    }

    private var storage: CopyOnWrite<Fields>

    /// Whether `other` is a copy of this contact that no one has changed since: the same contact
    /// to the byte (``CopyOnWrite/sharesBox(with:)``).
    package func isUnchangedCopy(of other: Contact) -> Bool { storage.sharesBox(with: other.storage) }

    /// A contact; every field is optional and nothing is validated here (see
    /// ``validate(required:)``).
    public init(
        name: String? = nil,
        organizationName: String? = nil,
        emailAddress: String? = nil,
        phoneNumber: String? = nil,
        postalAddress: Address? = nil,
        isRedacted: Bool = false
    ) {
        storage = CopyOnWrite(
            Fields(
                name: name,
                organizationName: organizationName,
                emailAddress: emailAddress,
                phoneNumber: phoneNumber,
                postalAddress: postalAddress,
                isRedacted: isRedacted
            ))
    }

    /// The `required` fields this contact lacks, in ``ContactField`` order. A postal address
    /// counts as missing when absent or when it lacks a field a complete address needs
    /// (``Address/missingFields``).
    public func missingFields(required: Set<ContactField>) -> [ContactField] {
        let missing = missingFieldBits(required: required)
        guard missing != 0 else { return [] }
        return ContactField.allCases.filter { missing & $0.bit != 0 }
    }

    /// The missing fields as a set of ``ContactField/bit``s. Walks the (few) required fields
    /// rather than hashing each field into the set.
    private func missingFieldBits(required: Set<ContactField>) -> UInt8 {
        var missing: UInt8 = 0
        for field in required {
            let isMissing =
                switch field {
                case .name: name.isBlank
                case .emailAddress: emailAddress.isBlank
                case .phoneNumber: phoneNumber.isBlank
                case .postalAddress: !(postalAddress?.isComplete ?? false)
                }
            if isMissing { missing |= field.bit }
        }
        return missing
    }

    /// Whether ``validate(required:)`` finds nothing: no required field missing and every present
    /// field valid. Decided without building a list, a message or an error.
    public func isValid(required: Set<ContactField>) -> Bool {
        hasFields(required) && presentFieldsAreValid(required: required)
    }

    /// Whether ``missingFields(required:)`` is empty, decided without building it.
    package func hasFields(_ required: Set<ContactField>) -> Bool {
        missingFieldBits(required: required) == 0
    }

    /// Whether ``validate(required:)`` finds nothing but missing fields: the email address and the
    /// phone number, when present, are plausible, and the postal address (when `required` holds
    /// it) has a postal code that fits its country, or the contact is redacted. What a flow asks
    /// of every contact before it asks why not.
    package func presentFieldsAreValid(required: Set<ContactField>) -> Bool {
        if let email = emailAddress, !email.isBlank, !Self.isPlausibleEmail(email) { return false }
        if let phone = phoneNumber, !phone.isBlank, !Self.isPlausiblePhone(phone) { return false }
        if !isRedacted, required.contains(.postalAddress), let postalAddress, !postalAddress.postalCodeFits {
            return false
        }
        return true
    }

    /// Every reason this contact does not satisfy `required`, each naming its field path: the
    /// missing fields, then the present fields that are invalid (an email address without a
    /// single `@` between non-empty parts, a phone number with fewer than three digits or with
    /// characters other than digits, spaces, `+-().`, and a postal address's own problems under
    /// `postalAddress.`). Empty exactly when ``isValid(required:)``.
    public func validate(required: Set<ContactField>) -> [CheckoutError] {
        isValid(required: required) ? [] : everyProblem(required: required)
    }

    /// ``validate(required:)``'s list built in full, without asking ``isValid(required:)`` first:
    /// the rule as it is written, which tests hold the fast answers to.
    package func everyProblem(required: Set<ContactField>) -> [CheckoutError] {
        var problems = missingFields(required: required).map { field in
            CheckoutError(code: .missingField, message: "contact field \(field) is required", field: field.rawValue)
        }
        if let email = emailAddress, !email.isBlank, !Self.isPlausibleEmail(email) {
            problems.append(
                CheckoutError(
                    code: .invalidField,
                    message: "the email address is not of the form name@domain",
                    field: ContactField.emailAddress.rawValue,
                    value: email.clippedForError
                )
            )
        }
        if let phone = phoneNumber, !phone.isBlank, !Self.isPlausiblePhone(phone) {
            problems.append(
                CheckoutError(
                    code: .invalidField,
                    message: "the phone number is not a phone number (digits, spaces and +-().)",
                    field: ContactField.phoneNumber.rawValue,
                    value: phone.clippedForError
                )
            )
        }
        if required.contains(.postalAddress), let postalAddress {
            // A redacted contact's postal code was truncated (spec A2: `SW1A`, `K1A`): it is not
            // checked against its country's full pattern.
            let addressProblems = postalAddress.everyProblem().filter {
                $0.code != .missingField && !(isRedacted && $0.code == .invalidPostalCode)
            }
            problems += addressProblems.map { $0.nested(under: ContactField.postalAddress.rawValue) }
        }
        return problems
    }

    /// The contact as a delegate may see it before authorization (spec A2): the city, state,
    /// country and a truncated postal code: US, and the territories that use US ZIP codes (PR, GU,
    /// VI, AS, MP, UM, and FM, MH, PW; ``AddressRules/usesUSZIPCodes``): the first five digits;
    /// CA and GB: the outward code, that is, upper-cased and without the last three characters
    /// once white space is removed (`k1a 0b1` gives `K1A`), and for a British Forces Post Office
    /// number only `BFPO`; a code too short to hold an inward code (`SW1A`, `k1a`) is kept, in
    /// upper case, rather than cut to a fragment; elsewhere unchanged. Apple documents the US rule only; applying it to
    /// ZIP codes outside the fifty states is this package's reading.
    /// Street lines, name, organisation, email and phone are removed, and ``isRedacted`` is set;
    /// so are the sub-locality, the sub-administrative area and the sorting code, which Apple's
    /// redacted contact does not have either (its documented example for
    /// `onshippingcontactselected`, `ApplePayPayment.shippingContact`: `locality`,
    /// `administrativeArea`, `postalCode`, `country`, `countryCode`; PassKit's
    /// `didSelectShippingContact`: city, state, 5-digit ZIP and country in the US).
    ///
    /// A contact already marked redacted keeps its postal code as it is (it was truncated when it
    /// was redacted; truncating again would cut an outward code short), so redacting a redacted
    /// contact changes nothing. Its other fields are removed all the same, whatever it claims: a
    /// contact decoded with `"redacted": true` and a street is not passed on with the street.
    public func redactedForShipping() -> Contact {
        guard let address = postalAddress else { return Contact(isRedacted: true) }
        let postalCode =
            isRedacted
            ? address.postalCode
            : address.postalCode.map { Self.truncatedPostalCode($0, country: address.country) }
        let redacted = Address(
            city: address.city, state: address.state, postalCode: postalCode, country: address.country)
        return Contact(postalAddress: redacted, isRedacted: true)
    }

    /// The contact limited to `fields` (PassKit hands the merchant only what it asked for), or nil
    /// when no field is requested. The organisation goes with the postal address, as the W3C
    /// `PaymentAddress` carries it.
    public func limited(to fields: Set<ContactField>) -> Contact? {
        guard !fields.isEmpty else { return nil }
        return Contact(
            name: fields.contains(.name) ? name : nil,
            organizationName: fields.contains(.postalAddress) ? organizationName : nil,
            emailAddress: fields.contains(.emailAddress) ? emailAddress : nil,
            phoneNumber: fields.contains(.phoneNumber) ? phoneNumber : nil,
            postalAddress: fields.contains(.postalAddress) ? postalAddress : nil,
            isRedacted: isRedacted
        )
    }

    /// Personal data masked: `Contact(name: •••, email: •••, address: •••, London, SW1A 1AA, GB)`
    /// (the organisation too: `organization: •••`).
    public var description: String { render(masked: true) }

    /// Every field in the clear.
    public var unmaskedDescription: String { render(masked: false) }

    /// `dump` and debuggers see the masked description only.
    public var customMirror: Mirror {
        Mirror(self, children: ["contact": description], displayStyle: .struct)
    }

    private func render(masked: Bool) -> String {
        func part(_ label: String, _ value: String?) -> String? {
            value.map { "\(label): \(masked ? "•••" : $0)" }
        }
        let address = postalAddress.map { "address: \(masked ? $0.description : $0.unmaskedDescription)" }
        let parts = [
            part("name", name), part("organization", organizationName), part("email", emailAddress),
            part("phone", phoneNumber), address,
        ]
        let prefix = isRedacted ? "RedactedContact" : "Contact"
        return "\(prefix)(" + parts.compactMap { $0 }.joined(separator: ", ") + ")"
    }

    private static func truncatedPostalCode(_ code: String, country: CountryCode?) -> String {
        guard let country else { return code }
        if country.addressRules.usesUSZIPCodes {
            // The US and the territories with US ZIP codes (PR, GU, VI, ...): the first five digits.
            // The ASCII digits are single UTF-8 bytes that no other scalar's bytes can be.
            var digits: [UInt8] = []
            digits.reserveCapacity(5)
            for byte in code.utf8 where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits.append(byte)
                if digits.count == 5 { break }
            }
            return String(decoding: digits, as: UTF8.self)
        }
        guard country == .ca || country == .gb else { return code }
        // Normalised first: white space removed, ASCII letters upper-cased (k1a 0b1 is K1A0B1).
        // ASCII, the usual case, byte by byte; otherwise by characters, as the rule is written.
        let compact: String
        if code.utf8.allSatisfy({ $0 < 0x80 }) {
            let bytes = code.utf8.filter { $0 != 0x20 && !(0x09...0x0D).contains($0) }
            compact = String(decoding: bytes, as: UTF8.self).uppercasedASCII
        } else {
            compact = String(code.filter { !$0.isWhitespace }).uppercasedASCII
        }
        // A British Forces Post Office number (BFPO 61) has no outward and inward parts: only the
        // "BFPO" is kept, as the number would name the unit.
        if country == .gb, compact.hasPrefix("BFPO") { return "BFPO" }
        // An outward code alone (SW1A, K1A: a British one has 2 to 4 characters, a Canadian one 3,
        // and the inward code 3 more) has nothing to cut: cutting three would leave a fragment.
        let outwardOnlyLength = country == .gb ? 4 : 3
        if compact.count <= outwardOnlyLength { return compact }
        return String(compact.dropLast(3))
    }

    private static func isPlausibleEmail(_ text: String) -> Bool {
        // ASCII, the usual case, byte by byte (each byte a character; white space is U+0009...U+000D
        // and U+0020); otherwise by characters, as the rule is written.
        if let ascii = text.utf8.withContiguousStorageIfAvailable({ bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at > 0, at < bytes.count - 1,
                !bytes[(at + 1)...].contains(UInt8(ascii: "@"))
            else { return false }
            return !bytes.contains { $0 == 0x20 || (0x09...0x0D).contains($0) }
        }), let ascii {
            return ascii
        }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && !text.contains(where: \.isWhitespace)
    }

    private static let phoneCharacters = Set("0123456789 +-().")

    private static func isPlausiblePhone(_ text: String) -> Bool {
        // ASCII, the usual case, byte by byte (its only numbers are the digits; a CR LF pair, one
        // character, is refused either way); otherwise by characters, as the rule is written.
        if let ascii = text.utf8.withContiguousStorageIfAvailable({ bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var digits = 0
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
                case UInt8(ascii: " "), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "("), UInt8(ascii: ")"),
                    UInt8(ascii: "."):
                    continue
                default: return false
                }
            }
            return digits >= 3
        }), let ascii {
            return ascii
        }
        return text.allSatisfy(phoneCharacters.contains) && text.filter(\.isNumber).count >= 3
    }
}

extension Contact: Codable {
    private enum CodingKeys: String, CodingKey {
        case name
        case organizationName = "organization_name"
        case emailAddress = "email"
        case phoneNumber = "phone"
        case postalAddress = "address"
        case isRedacted = "redacted"
    }

    /// Decodes `{"name", "organization_name", "email", "phone", "address", "redacted"}`; every
    /// key is optional, an unknown key is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "Contact")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decodeIfPresent(String.self, forKey: .name),
            organizationName: try container.decodeIfPresent(String.self, forKey: .organizationName),
            emailAddress: try container.decodeIfPresent(String.self, forKey: .emailAddress),
            phoneNumber: try container.decodeIfPresent(String.self, forKey: .phoneNumber),
            postalAddress: try container.decodeIfPresent(Address.self, forKey: .postalAddress),
            isRedacted: try container.decodeIfPresent(Bool.self, forKey: .isRedacted) ?? false
        )
    }

    /// Encodes the same keys; absent fields are left out, `redacted` is always written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(organizationName, forKey: .organizationName)
        try container.encodeIfPresent(emailAddress, forKey: .emailAddress)
        try container.encodeIfPresent(phoneNumber, forKey: .phoneNumber)
        try container.encodeIfPresent(postalAddress, forKey: .postalAddress)
        try container.encode(isRedacted, forKey: .isRedacted)
    }
}
