/// A postal address, with Stripe's field names in JSON
/// (`line1`, `line2`, `city`, `state`, `postal_code`, `country`).
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
        country: CountryCode? = nil
    ) {
        self.line1 = line1
        self.line2 = line2
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.country = country
    }

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

    /// City, state, postal code and country, with the street lines masked.
    public var description: String {
        render(masked: true)
    }

    /// Every field, street lines included.
    public var unmaskedDescription: String {
        render(masked: false)
    }

    private func render(masked: Bool) -> String {
        let street = [line1, line2].compactMap { $0 }.filter { !$0.isEmpty }
        let streetPart: [String] = street.isEmpty ? [] : [masked ? "•••" : street.joined(separator: ", ")]
        let rest = [city, state, postalCode, country?.code].compactMap { $0 }.filter { !$0.isEmpty }
        return (streetPart + rest).joined(separator: ", ")
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
    }

    /// Decodes Stripe's names, every key optional; an unknown key is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "Address")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            line1: try container.decodeIfPresent(String.self, forKey: .line1),
            line2: try container.decodeIfPresent(String.self, forKey: .line2),
            city: try container.decodeIfPresent(String.self, forKey: .city),
            state: try container.decodeIfPresent(String.self, forKey: .state),
            postalCode: try container.decodeIfPresent(String.self, forKey: .postalCode),
            country: try container.decodeIfPresent(CountryCode.self, forKey: .country)
        )
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
