/// An ISO 3166-1 alpha-2 country code: one of the 249 officially assigned codes, or one of the
/// three others that Google's address metadata and Stripe accept: `XK` (Kosovo, a user-assigned
/// code used by the European Commission and Stripe), `AC` (Ascension Island) and `TA` (Tristan da
/// Cunha), both exceptionally reserved in ISO 3166-1 for the Universal Postal Union.
///
/// ```swift
/// let country = try CountryCode("gb")   // "GB"
/// country.requiresPostalCode            // true
/// country == .gb                        // true
/// ```
///
/// The fifty countries where most online shopping happens have constants (``us``, ``gb``,
/// ``de``, ``jp``, ...), as ``CurrencyCode`` has ``CurrencyCode/usd``.
public struct CountryCode: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The canonical upper-case two-letter code.
    public let code: String

    /// Looks a code up, case-insensitively.
    ///
    /// - Throws: ``CheckoutError`` with ``CheckoutError/Code/unknownCountry`` when `code` is not
    ///   an assigned ISO 3166-1 alpha-2 code, `XK`, `AC` or `TA`.
    public init(_ code: String) throws {
        guard let upper = Self.assignedSpelling(of: code) else {
            throw CheckoutError(
                code: .unknownCountry,
                message: "country \(code.quotedForMessage) is not an ISO 3166-1 alpha-2 code",
                field: "country",
                value: code.clippedForError
            )
        }
        self.code = upper
    }

    /// `code` upper-cased when it is an assigned code, else nil: whether ``init(_:)`` accepts it,
    /// decided without building its error.
    package static func assignedSpelling(of code: String) -> String? {
        // Only ASCII is folded: "ı", "ſ" and "ß" upper-case to "I", "S" and "SS" but spell no ISO code.
        let upper = code.utf8.count == 2 && code.utf8.allSatisfy({ $0 < 0x80 }) ? code.uppercased() : code
        return assigned.contains(upper) ? upper : nil
    }

    /// The code, such as `GB`.
    public var description: String { code }

    /// Orders codes alphabetically.
    public static func < (lhs: CountryCode, rhs: CountryCode) -> Bool { lhs.code < rhs.code }

    /// Whether a complete address in this country needs a postal code, by Google's address
    /// metadata (``AddressRules/requiresPostalCode``): true for `US`, `GB`, `DE`, `JP`, `ZA`, ...;
    /// false where there are none (`AE`, `HK`, `QA`, `AQ`, `GA`, ...) and where the code is
    /// optional (`AR`, `ID`, `IE`, `SA`, `TH`, ...).
    ///
    /// Stripe's client-side list of countries without postal codes differs (it exempts `JP`, for
    /// one); addresses here follow Google's data, which describes the postal system.
    public var requiresPostalCode: Bool { addressRules.requiresPostalCode }

    /// Every accepted code, sorted: the 249 assigned codes, `AC`, `TA` and `XK`.
    public static var allCodes: [CountryCode] {
        assigned.sorted().map { CountryCode(uncheckedCode: $0) }
    }

    private init(uncheckedCode: String) { self.code = uncheckedCode }

    // MARK: Common countries

    /// Looks up a code the table is known to hold; a missing one is our bug.
    private init(known code: String) {
        guard Self.assigned.contains(code) else { preconditionFailure("\(code) is not an assigned code") }
        self.code = code
    }

    /// United States (`US`).
    public static let us = CountryCode(known: "US")
    /// China (`CN`).
    public static let cn = CountryCode(known: "CN")
    /// United Kingdom (`GB`).
    public static let gb = CountryCode(known: "GB")
    /// Japan (`JP`).
    public static let jp = CountryCode(known: "JP")
    /// South Korea (`KR`).
    public static let kr = CountryCode(known: "KR")
    /// Germany (`DE`).
    public static let de = CountryCode(known: "DE")
    /// France (`FR`).
    public static let fr = CountryCode(known: "FR")
    /// India (`IN`).
    public static let `in` = CountryCode(known: "IN")
    /// Canada (`CA`).
    public static let ca = CountryCode(known: "CA")
    /// Brazil (`BR`).
    public static let br = CountryCode(known: "BR")
    /// Australia (`AU`).
    public static let au = CountryCode(known: "AU")
    /// Spain (`ES`).
    public static let es = CountryCode(known: "ES")
    /// Italy (`IT`).
    public static let it = CountryCode(known: "IT")
    /// Mexico (`MX`).
    public static let mx = CountryCode(known: "MX")
    /// Netherlands (`NL`).
    public static let nl = CountryCode(known: "NL")
    /// Russia (`RU`).
    public static let ru = CountryCode(known: "RU")
    /// Indonesia (`ID`).
    public static let id = CountryCode(known: "ID")
    /// Türkiye (`TR`).
    public static let tr = CountryCode(known: "TR")
    /// Saudi Arabia (`SA`).
    public static let sa = CountryCode(known: "SA")
    /// Sweden (`SE`).
    public static let se = CountryCode(known: "SE")
    /// Switzerland (`CH`).
    public static let ch = CountryCode(known: "CH")
    /// Poland (`PL`).
    public static let pl = CountryCode(known: "PL")
    /// Belgium (`BE`).
    public static let be = CountryCode(known: "BE")
    /// Argentina (`AR`).
    public static let ar = CountryCode(known: "AR")
    /// Thailand (`TH`).
    public static let th = CountryCode(known: "TH")
    /// Ireland (`IE`).
    public static let ie = CountryCode(known: "IE")
    /// Singapore (`SG`).
    public static let sg = CountryCode(known: "SG")
    /// Hong Kong (`HK`).
    public static let hk = CountryCode(known: "HK")
    /// United Arab Emirates (`AE`).
    public static let ae = CountryCode(known: "AE")
    /// South Africa (`ZA`).
    public static let za = CountryCode(known: "ZA")
    /// Austria (`AT`).
    public static let at = CountryCode(known: "AT")
    /// Denmark (`DK`).
    public static let dk = CountryCode(known: "DK")
    /// Norway (`NO`).
    public static let no = CountryCode(known: "NO")
    /// Finland (`FI`).
    public static let fi = CountryCode(known: "FI")
    /// New Zealand (`NZ`).
    public static let nz = CountryCode(known: "NZ")
    /// Portugal (`PT`).
    public static let pt = CountryCode(known: "PT")
    /// Malaysia (`MY`).
    public static let my = CountryCode(known: "MY")
    /// Philippines (`PH`).
    public static let ph = CountryCode(known: "PH")
    /// Viet Nam (`VN`).
    public static let vn = CountryCode(known: "VN")
    /// Israel (`IL`).
    public static let il = CountryCode(known: "IL")
    /// Taiwan (`TW`).
    public static let tw = CountryCode(known: "TW")
    /// Chile (`CL`).
    public static let cl = CountryCode(known: "CL")
    /// Colombia (`CO`).
    public static let co = CountryCode(known: "CO")
    /// Egypt (`EG`).
    public static let eg = CountryCode(known: "EG")
    /// Nigeria (`NG`).
    public static let ng = CountryCode(known: "NG")
    /// Czechia (`CZ`).
    public static let cz = CountryCode(known: "CZ")
    /// Greece (`GR`).
    public static let gr = CountryCode(known: "GR")
    /// Romania (`RO`).
    public static let ro = CountryCode(known: "RO")
    /// Hungary (`HU`).
    public static let hu = CountryCode(known: "HU")
    /// Puerto Rico (`PR`).
    public static let pr = CountryCode(known: "PR")

    /// The 249 officially assigned ISO 3166-1 alpha-2 codes, then `AC`, `TA` (exceptionally
    /// reserved) and `XK` (user-assigned), which Google's address metadata and Stripe list.
    private static let assigned: Set<String> = [
        "AC", "TA", "XK",
        "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ",
        "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS",
        "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN",
        "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM", "DO", "DZ", "EC", "EE",
        "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF",
        "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM",
        "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE", "JM",
        "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC",
        "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK",
        "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA",
        "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG",
        "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW",
        "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS",
        "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO",
        "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI",
        "VN", "VU", "WF", "WS", "YE", "YT", "ZA", "ZM", "ZW",
    ]
}

extension CountryCode: Codable {
    /// Decodes from a bare string (`"US"`), validated as ``init(_:)`` does.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = try decoder.validating { try CountryCode(text) }
    }

    /// Encodes as a bare string (`"US"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
