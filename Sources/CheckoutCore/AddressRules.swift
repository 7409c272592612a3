/// What a complete postal address needs in one country, from Google's address metadata (the
/// data behind Chrome's and Android's address forms; see `AddressRulesTable.swift` for the source
/// and its date).
///
/// ```swift
/// let rules = CountryCode.jp.addressRules
/// rules.requiredFields               // [.line1, .state, .postalCode, .country]
/// rules.administrativeAreaName       // "prefecture"
/// rules.isValidPostalCode("154-0023") // true
/// ```
///
/// ``Address/missingFields`` and ``Address/validate()`` follow these rules for every country.
/// Where the data says nothing, Google's defaults apply, which are the spec's S1 rules: street
/// line and city required, no postal-code format. The US keeps S1's ZIP rule (5 digits, or 9
/// with one optional `-` or space after the fifth), which also accepts the unseparated
/// `123456789` that Google's pattern refuses.
public struct AddressRules: Hashable, Sendable {
    /// One row of the generated table.
    struct Row: Hashable, Sendable {
        var required: String
        var hasPostalCodes: Bool
        var area: String
        var postal: String
        var pattern: String?
        var examples: [String]
    }

    /// The country these rules are for.
    public var country: CountryCode { storage.country }
    /// The fields a complete address needs, in ``Address/Field`` order, ``Address/Field/country``
    /// always among them. Google's `require` letters: `A` street (``Address/Field/line1``), `C`
    /// city, `S` state or province, `Z` postal code. No country of the data requires the other
    /// letters (name, organisation, sorting code, dependent locality), which are not
    /// ``Address/Field``s: an address may carry them (``Address/sortingCode``,
    /// ``Address/subLocality``, ``Contact/organizationName``) but none is required.
    public var requiredFields: [Address.Field] { storage.requiredFields }
    /// Whether the country uses postal codes at all (a pattern, examples or a postal-code slot in
    /// its address format); AE, HK, QA and Ireland before Eircode are among those that do not.
    public var hasPostalCodes: Bool { storage.hasPostalCodes }
    /// Google's postal-code pattern, matched against the whole code (after surrounding white
    /// space is trimmed and letters are upper-cased); nil when the data has none or it is stale.
    public var postalCodePattern: String? { storage.postalCodePattern }
    /// Example postal codes from the data (`95014`, `22162-1010` for the US); each is valid.
    public var postalCodeExamples: [String] { storage.postalCodeExamples }
    /// What the country calls its first-level administrative area: `state`, `province`,
    /// `prefecture`, `county`, `emirate`, `oblast`, `do_si`, `parish`, `island`, `area`, ...
    /// (Google's `state_name_type`; `province` where the data says nothing).
    public var administrativeAreaName: String { storage.administrativeAreaName }
    /// What the country calls its postal code: `zip`, `postal`, `pin`, `eircode`
    /// (Google's `zip_name_type`; `postal` where the data says nothing).
    public var postalCodeName: String { storage.postalCodeName }

    /// A country's rules, built once and shared: reading them copies one reference.
    private final class Storage: Sendable {
        let country: CountryCode
        let requiredFields: [Address.Field]
        let hasPostalCodes: Bool
        let postalCodePattern: String?
        let postalCodeExamples: [String]
        let administrativeAreaName: String
        let postalCodeName: String
        let compiled: PostalCodePattern?

        init(country: CountryCode, row: Row) {
            self.country = country
            var required: Set<Address.Field> = [.country]
            for letter in row.required {
                switch letter {
                case "A": required.insert(.line1)
                case "C": required.insert(.city)
                case "S": required.insert(.state)
                case "Z": required.insert(.postalCode)
                default: continue
                }
            }
            self.requiredFields = Address.Field.allCases.filter(required.contains)
            self.hasPostalCodes = row.hasPostalCodes
            self.postalCodePattern = row.pattern
            self.postalCodeExamples = row.examples
            self.administrativeAreaName = row.area
            self.postalCodeName = row.postal
            // Every pattern of the table compiles (a test checks); one that did not would not be
            // checked rather than refuse every code.
            self.compiled = row.pattern.flatMap(PostalCodePattern.init)
        }
    }

    private let storage: Storage

    /// The rules for `country`.
    public init(country: CountryCode) {
        storage =
            Self.slot(of: country.code).flatMap { Self.built[$0] }
            ?? Storage(country: country, row: Self.defaultRow)
    }

    /// Every country's rules, built once (sets of required fields made, patterns compiled) on
    /// first use, at the slot of its two letters (``slot(of:)``): a contact's validation and
    /// redaction read them several times for every callback (building them there cost about 100
    /// allocations a contact, and looking them up by a hashed code about 1,000 instructions a
    /// read).
    private static let built: [Storage?] = {
        var built = [Storage?](repeating: nil, count: 26 * 26)
        for (code, row) in table {
            guard let country = try? CountryCode(code), let slot = slot(of: code) else { continue }
            built[slot] = Storage(country: country, row: row)
        }
        return built
    }()

    /// Where `code`'s rules are in ``built``: its two letters, A to Z, as a number below 676.
    private static func slot(of code: String) -> Int? {
        var letters = code.utf8.makeIterator()
        guard let first = letters.next(), let second = letters.next(), letters.next() == nil,
            (0x41...0x5A).contains(first), (0x41...0x5A).contains(second)
        else { return nil }
        return Int(first - 0x41) * 26 + Int(second - 0x41)
    }

    /// Rules are the same for the same country.
    public static func == (lhs: AddressRules, rhs: AddressRules) -> Bool { lhs.country == rhs.country }

    public func hash(into hasher: inout Hasher) { hasher.combine(country) }

    /// Google's defaults (`data/ZZ`): street line and city required, no postal-code format.
    private static let defaultRow = Row(
        required: "AC", hasPostalCodes: false, area: "province", postal: "postal", pattern: nil, examples: [])

    /// Whether a postal code is required (`Z` in the data's required fields).
    public var requiresPostalCode: Bool { requiredFields.contains(.postalCode) }

    /// Whether the country uses US ZIP codes (Google's `zip_name_type` `zip`): the US and the
    /// territories and freely associated states with ZIP codes (AS, FM, GU, MH, MP, PR, PW, UM,
    /// VI). Redaction (spec A2) cuts their codes as US ones.
    public var usesUSZIPCodes: Bool { postalCodeName == "zip" }

    /// Whether `text` is a postal code of this country: for the US, S1's ZIP rule; elsewhere the
    /// data's pattern, matched whole against the code with surrounding white space trimmed and
    /// ASCII letters upper-cased (`k1a 0b1` is a Canadian code). A country without a pattern
    /// accepts any code that is not blank.
    public func isValidPostalCode(_ text: String) -> Bool {
        if country.code == "US" { return Address.isUSZIPCode(text) }
        guard !text.isBlank else { return false }
        guard let compiled = storage.compiled else { return true }
        let trimmed = text.utf8.count > 64 ? text : text.trimmingASCIIWhitespace.uppercasedASCII
        return trimmed.utf8.count <= 32 && compiled.matchesWhole(trimmed)
    }

    /// Every country the data has rules for, sorted (the countries ``CountryCode`` accepts).
    static var tableCountries: [String] { table.keys.sorted() }
}

extension CountryCode {
    /// The address rules for this country (``AddressRules``).
    public var addressRules: AddressRules { AddressRules(country: self) }
}

extension String {
    /// The string without leading and trailing ASCII white space (U+0009...U+000D, U+0020).
    package var trimmingASCIIWhitespace: String {
        let bytes = Array(utf8)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// The string with ASCII letters upper-cased and everything else unchanged.
    package var uppercasedASCII: String {
        String(decoding: utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }
}
