/// A postal address, with Stripe's field names in JSON
/// (`line1`, `line2`, `city`, `state`, `postal_code`, `country`), and the parts of an address
/// Stripe has no field for, named as `CNPostalAddress` names them: ``subLocality``,
/// ``subAdministrativeArea`` (JSON `sub_locality`, `sub_administrative_area`) and
/// ``sortingCode`` (`sorting_code`, W3C's `sortingCode`).
///
/// Every field is optional, as in `STPAddress`: a redacted shipping address has no street lines,
/// and an address being typed in may be incomplete. ``missingFields`` and ``validate()`` apply
/// the country's ``AddressRules`` (Google's address metadata, with spec S1's rules as defaults).
///
/// The ``description`` masks the street lines; ``unmaskedDescription`` shows everything.
public struct Address: Hashable, Sendable, CustomStringConvertible {
    /// A field of an address, named as in Stripe's API.
    public enum Field: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
        /// Street address, first line (`line1`).
        case line1
        /// Street address, second line (`line2`).
        case line2
        /// City, district, suburb, town or village (`city`).
        case city
        /// State, county, province or region (`state`).
        case state
        /// ZIP or postal code (`postal_code`).
        case postalCode = "postal_code"
        /// The two-letter country code (`country`).
        case country

        /// The field's name in Stripe's API, such as `postal_code`.
        public var description: String { rawValue }
    }

    /// Street address, first line.
    public var line1: String?
    /// Street address, second line (apartment, suite, ...).
    public var line2: String?
    /// City, district, suburb, town or village.
    public var city: String?
    /// State, county, province or region.
    public var state: String?
    /// ZIP or postal code.
    public var postalCode: String?
    /// The country.
    public var country: CountryCode?
    /// A part of the city, such as a neighbourhood or a district (`CNPostalAddress.subLocality`,
    /// Apple Pay's `subLocality`, the W3C `PaymentAddress.dependentLocality`).
    public var subLocality: String? {
        get { details?.value.subLocality }
        set { setDetail(\.subLocality, newValue) }
    }
    /// A subdivision of the state, such as a county (`CNPostalAddress.subAdministrativeArea`,
    /// Apple Pay's `subAdministrativeArea`).
    public var subAdministrativeArea: String? {
        get { details?.value.subAdministrativeArea }
        set { setDetail(\.subAdministrativeArea, newValue) }
    }
    /// A postal sorting code, such as France's CEDEX (the W3C `PaymentAddress.sortingCode`,
    /// Google Pay's `sortingCode`).
    public var sortingCode: String? {
        get { details?.value.sortingCode }
        set { setDetail(\.sortingCode, newValue) }
    }

    /// The members few addresses have, in one shared box that is absent when none is set: an
    /// address held by a flow's sheet carries one empty reference for them, not three strings.
    private struct Details: Hashable, Sendable {
        var subLocality: String?
        var subAdministrativeArea: String?
        var sortingCode: String?

        var isEmpty: Bool { subLocality == nil && subAdministrativeArea == nil && sortingCode == nil }
    }

    /// Nil exactly when none of the three is set, so that equal addresses hold equal boxes.
    private var details: CopyOnWrite<Details>?

    private mutating func setDetail(_ member: WritableKeyPath<Details, String?>, _ value: String?) {
        if details == nil {
            guard value != nil else { return }
            details = CopyOnWrite(Details())
        }
        details!.value[keyPath: member] = value
        if details!.value.isEmpty { details = nil }
    }

    /// An address with the given fields, every one optional.
    ///
    /// Nothing is validated here: ``missingFields`` and ``validate()`` say what a complete postal
    /// address still lacks.
    public init(
        line1: String? = nil,
        line2: String? = nil,
        city: String? = nil,
        state: String? = nil,
        postalCode: String? = nil,
        country: CountryCode? = nil,
        subLocality: String? = nil,
        subAdministrativeArea: String? = nil,
        sortingCode: String? = nil
    ) {
        self.line1 = line1
        self.line2 = line2
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.country = country
        // Nearly every address sets none: no box.
        guard subLocality != nil || subAdministrativeArea != nil || sortingCode != nil else { return }
        details = CopyOnWrite(
            Details(subLocality: subLocality, subAdministrativeArea: subAdministrativeArea, sortingCode: sortingCode))
    }

    /// Whether ``subLocality``, ``subAdministrativeArea`` or ``sortingCode`` is set: the members
    /// Stripe's address has no field for.
    package var hasMembersBeyondStripe: Bool { details != nil }

    /// The fields a complete postal address needs in its country and this one lacks (absent or
    /// blank), in ``Field`` order: those of the country's ``AddressRules`` (Google's address
    /// metadata: `line1` and `city` where the data says nothing, as spec S1 has it, `state` in
    /// the US, CA, JP, ..., `postal_code` where the country requires one), `country` itself. An
    /// address without a country lacks `line1`, `city` and `postal_code` as well, when blank.
    public var missingFields: [Field] {
        guard let country else {
            var missing: [Field] = []
            if line1.isBlank { missing.append(.line1) }
            if city.isBlank { missing.append(.city) }
            if postalCode.isBlank { missing.append(.postalCode) }
            missing.append(.country)
            return missing
        }
        return country.addressRules.requiredFields.filter(lacks)
    }

    /// Whether ``validate()`` finds nothing: no field missing (``missingFields``) and a postal
    /// code, when present, that fits its country. Decided without building a list, a message or
    /// an error, as a flow asks it of every address before it asks why not.
    public var isValid: Bool {
        guard let rules = country?.addressRules, isComplete(rules) else { return false }
        return postalCodeFits(rules)
    }

    /// Whether ``missingFields`` is empty, decided without building it.
    package var isComplete: Bool {
        guard let rules = country?.addressRules else { return false }
        return isComplete(rules)
    }

    private func isComplete(_ rules: AddressRules) -> Bool {
        rules.requiredFields.allSatisfy { !lacks($0) }
    }

    /// Whether ``validate()`` finds no ``CheckoutError/Code/invalidPostalCode``: the postal code
    /// is absent or blank, the country unknown, or the code fits the country's pattern.
    package var postalCodeFits: Bool {
        guard let rules = country?.addressRules else { return true }
        return postalCodeFits(rules)
    }

    private func postalCodeFits(_ rules: AddressRules) -> Bool {
        guard let postalCode, !postalCode.isBlank else { return true }
        return rules.isValidPostalCode(postalCode)
    }

    /// Whether `field` is absent or blank (the country: absent).
    private func lacks(_ field: Field) -> Bool {
        switch field {
        case .line1: line1.isBlank
        case .line2: line2.isBlank
        case .city: city.isBlank
        case .state: state.isBlank
        case .postalCode: postalCode.isBlank
        case .country: country == nil
        }
    }

    /// Every reason this address is not a complete, valid postal address, each naming its field:
    /// the missing fields (``CheckoutError/Code/missingField``) and a present postal code that
    /// does not fit its country (``CheckoutError/Code/invalidPostalCode``, field `postal_code`):
    /// in the US 5 digits, or 9 with one optional `-` or space after the fifth; elsewhere the
    /// pattern of the country's ``AddressRules``. Empty exactly when ``isValid``.
    public func validate() -> [CheckoutError] {
        isValid ? [] : everyProblem()
    }

    /// ``validate()``'s list built in full, without asking ``isValid`` first: the rule as it is
    /// written, which tests hold the fast answer to.
    package func everyProblem() -> [CheckoutError] {
        var problems = missingFields.map { field in
            CheckoutError(code: .missingField, message: "address field \(field) is required", field: field.rawValue)
        }
        // Written out, not through `postalCodeFits`: this list is what the fast answers are held to.
        if let postalCode, !postalCode.isBlank, let country, case let rules = country.addressRules,
            !rules.isValidPostalCode(postalCode)
        {
            let message =
                country.code == "US"
                ? "postal code \(postalCode.quotedForMessage) is not a US ZIP code (12345 or 12345-6789)"
                : "postal code \(postalCode.quotedForMessage) is not a \(country.code) \(rules.postalCodeName) code"
                    + (rules.postalCodeExamples.first.map { " (for example \($0))" } ?? "")
            problems.append(
                CheckoutError(
                    code: .invalidPostalCode,
                    message: message,
                    field: Field.postalCode.rawValue,
                    value: postalCode.clippedForError
                )
            )
        }
        return problems
    }

    /// Whether `text` is a US ZIP code: five digits, or nine with at most one `-` or space after
    /// the fifth.
    public static func isUSZIPCode(_ text: String) -> Bool {
        // ASCII, the usual case, byte by byte; otherwise by scalars, as the rule is written.
        if let ascii = text.utf8.withContiguousStorageIfAvailable({ bytes in
            bytes.allSatisfy { $0 < 0x80 } ? isUSZIPCode(asciiBytes: bytes) : nil
        }), let ascii {
            return ascii
        }
        let scalars = Array(text.unicodeScalars)
        func digits(_ slice: ArraySlice<Unicode.Scalar>) -> Bool {
            slice.allSatisfy { ("0"..."9").contains($0) }
        }
        switch scalars.count {
        case 5, 9:
            return digits(scalars[...])
        case 10:
            return digits(scalars[..<5]) && (scalars[5] == "-" || scalars[5] == " ") && digits(scalars[6...])
        default:
            return false
        }
    }

    private static func isUSZIPCode(asciiBytes bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func digits(_ slice: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
            slice.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
        switch bytes.count {
        case 5, 9:
            return digits(bytes[...])
        case 10:
            return digits(bytes[..<5]) && (bytes[5] == UInt8(ascii: "-") || bytes[5] == UInt8(ascii: " "))
                && digits(bytes[6...])
        default:
            return false
        }
    }

    /// City, state, postal code and country, with the street lines, the sub-locality, the
    /// sub-administrative area and the sorting code masked (what a redacted contact does not
    /// keep, spec A2).
    public var description: String {
        render(masked: true)
    }

    /// Every field, street lines included, in the order of a label: street lines, sub-locality,
    /// city, sub-administrative area, state, postal code, sorting code, country.
    public var unmaskedDescription: String {
        render(masked: false)
    }

    private func render(masked: Bool) -> String {
        func present(_ values: [String?]) -> [String] { values.compactMap { $0 }.filter { !$0.isEmpty } }
        guard !masked else {
            let hidden = present([line1, line2, subLocality, subAdministrativeArea, sortingCode])
            let shown = present([city, state, postalCode, country?.code])
            return ((hidden.isEmpty ? [] : ["•••"]) + shown).joined(separator: ", ")
        }
        return present([
            line1, line2, subLocality, city, subAdministrativeArea, state, postalCode, sortingCode, country?.code,
        ]).joined(separator: ", ")
    }
}

extension Address: Codable {
    private enum CodingKeys: String, CodingKey {
        case line1
        case line2
        case city
        case state
        case postalCode = "postal_code"
        case country
        case subLocality = "sub_locality"
        case subAdministrativeArea = "sub_administrative_area"
        case sortingCode = "sorting_code"
    }

    /// Decodes Stripe's names and `sub_locality`, `sub_administrative_area`, `sorting_code`,
    /// every key optional; an unknown key is refused with its path (spec W2).
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "Address")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func string(_ key: CodingKeys) throws -> String? { try container.decodeIfPresent(String.self, forKey: key) }
        self.init(
            line1: try string(.line1),
            line2: try string(.line2),
            city: try string(.city),
            state: try string(.state),
            postalCode: try string(.postalCode),
            country: try container.decodeIfPresent(CountryCode.self, forKey: .country),
            subLocality: try string(.subLocality),
            subAdministrativeArea: try string(.subAdministrativeArea),
            sortingCode: try string(.sortingCode)
        )
    }

    /// Encodes the same keys; absent fields are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(line1, forKey: .line1)
        try container.encodeIfPresent(line2, forKey: .line2)
        try container.encodeIfPresent(city, forKey: .city)
        try container.encodeIfPresent(state, forKey: .state)
        try container.encodeIfPresent(postalCode, forKey: .postalCode)
        try container.encodeIfPresent(country, forKey: .country)
        try container.encodeIfPresent(subLocality, forKey: .subLocality)
        try container.encodeIfPresent(subAdministrativeArea, forKey: .subAdministrativeArea)
        try container.encodeIfPresent(sortingCode, forKey: .sortingCode)
    }
}

extension Optional where Wrapped == String {
    /// Absent, empty or only white space.
    package var isBlank: Bool {
        self?.isBlank ?? true
    }
}

extension String {
    /// Empty or only white space.
    package var isBlank: Bool {
        // ASCII, the usual case, byte by byte: its white space is U+0009...U+000D and U+0020.
        if let ascii = utf8.withContiguousStorageIfAvailable({ bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return bytes.allSatisfy { $0 == 0x20 || (0x09...0x0D).contains($0) }
        }), let ascii {
            return ascii
        }
        return allSatisfy(\.isWhitespace)
    }
}
