/// An active ISO 4217 currency code with its number of minor-unit digits.
///
/// ```swift
/// let yen = try CurrencyCode("jpy")   // "JPY", minorUnitDigits 0
/// let dinar = try CurrencyCode("KWD") // minorUnitDigits 3
/// ```
///
/// The table is ISO 4217 list one as published on 2026-01-01: every currency and fund code with a
/// minor unit. The latest amendments are in it: ZWG (Zimbabwe gold, amendment 177, replacing ZWL),
/// XCG (Caribbean guilder, amendment 176, replacing ANG from 2025-03-31), XAD (the Arab Monetary
/// Fund's Arab Accounting Dinar, 2 digits, amendment 179) in; BGN out (amendment 180: Bulgaria
/// adopted the euro on 2026-01-01, and the lev moved to list three, the historic codes). The
/// earlier withdrawn HRK and SLL are out as well. Fund codes (those list one marks `IsFund`: BOV,
/// CHE, CHW, CLF, COU, MXV, USN, UYI) are accepted with their minor units and say so in
/// ``isFund``; UYW (Uruguay's nominal wage index unit, 4 digits) is not marked a fund there and is
/// not one here. Codes whose minor unit ISO gives as "N.A." (the precious metals XAU, XAG, XPD,
/// XPT; the bond market units XBA...XBD; XDR, XSU, XUA, XTS, XXX) are not currencies a payment can
/// be made in and are refused.
/// The digits never come from Foundation's formatters, which answer 2 for JPY and KWD on Linux.
///
/// `Scripts/iso4217-table.py` regenerates the table from the published XML (a local copy; the
/// tests check the table against `Scripts/data/iso4217-list-one.xml`).
public struct CurrencyCode: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The code's three upper-case ASCII letters, first in the highest byte, and its minor-unit
    /// digits in the lowest: one word of plain data, so that a ``Money`` is 16 bytes with no
    /// reference to count, and two currencies compare in one instruction (flat data on
    /// the hot path; every update's amounts are checked against the request's currency). Ordered
    /// as the codes are: the letters decide, the digits follow from them.
    private let packed: UInt32

    /// The canonical upper-case three-letter code.
    public var code: String {
        String(unsafeUninitializedCapacity: 3) { letters in
            letters[0] = UInt8(truncatingIfNeeded: packed >> 24)
            letters[1] = UInt8(truncatingIfNeeded: packed >> 16)
            letters[2] = UInt8(truncatingIfNeeded: packed >> 8)
            return 3
        }
    }

    /// How many digits the currency's minor unit has: 0 for JPY, 2 for USD, 3 for KWD, 4 for CLF.
    public var minorUnitDigits: Int { Int(packed & 0xFF) }

    /// `code`, three upper-case ASCII letters (as every key of the table is), with `digits`.
    private init(letters code: String, digits: Int) {
        var packed: UInt32 = 0
        for letter in code.utf8 { packed = packed << 8 | UInt32(letter) }
        precondition(code.utf8.count == 3 && (0...255).contains(digits), "\(code) is not a code of the table")
        self.packed = packed << 8 | UInt32(digits)
    }

    /// Looks a code up, case-insensitively (`"usd"` is `USD`).
    ///
    /// - Throws: ``CheckoutError`` with code ``CheckoutError/Code/unknownCurrency`` when the code
    ///   is not an active ISO 4217 code with a minor unit.
    public init(_ code: String) throws {
        // Only ASCII is folded: "ı" and "ſ" upper-case to "I" and "S" but spell no ISO code.
        let upper = code.utf8.count == 3 && code.utf8.allSatisfy({ $0 < 0x80 }) ? code.uppercased() : code
        guard let digits = Self.table[upper] else {
            throw CheckoutError(
                code: .unknownCurrency,
                message: "currency \(code.quotedForMessage) is not an active ISO 4217 code",
                field: "currency",
                value: code.clippedForError
            )
        }
        self.init(letters: upper, digits: digits)
    }

    private init(known code: String) {
        // The static constants below are all in the table; a missing one is our bug.
        guard let digits = Self.table[code] else { preconditionFailure("\(code) is not in the table") }
        self.init(letters: code, digits: digits)
    }

    /// The code, such as `USD`.
    public var description: String { code }

    /// Orders codes alphabetically.
    public static func < (lhs: CurrencyCode, rhs: CurrencyCode) -> Bool { lhs.packed < rhs.packed }

    /// Every code the table holds, sorted.
    public static var allCodes: [CurrencyCode] {
        table.keys.sorted().map { CurrencyCode(known: $0) }
    }

    /// United States dollar.
    public static let usd = CurrencyCode(known: "USD")
    /// Euro.
    public static let eur = CurrencyCode(known: "EUR")
    /// Pound sterling.
    public static let gbp = CurrencyCode(known: "GBP")
    /// Canadian dollar.
    public static let cad = CurrencyCode(known: "CAD")
    /// Japanese yen (no minor unit).
    public static let jpy = CurrencyCode(known: "JPY")
    /// Kuwaiti dinar (three minor digits).
    public static let kwd = CurrencyCode(known: "KWD")

    /// Whether this is an ISO 4217 fund code (such as CLF, the Chilean unit of account, or USN,
    /// US dollar next day) rather than a currency in everyday use; list one marks them `IsFund`.
    public var isFund: Bool { Self.funds.contains(code) }

    /// ISO 4217 list one: code to minor-unit digits.
    // BEGIN GENERATED table
    // Generated by Scripts/iso4217-table.py from ISO 4217 list one published 2026-01-01.
    private static let table: [String: Int] = [
        "AED": 2, "AFN": 2, "ALL": 2, "AMD": 2, "AOA": 2, "ARS": 2, "AUD": 2, "AWG": 2,
        "AZN": 2, "BAM": 2, "BBD": 2, "BDT": 2, "BHD": 3, "BIF": 0, "BMD": 2, "BND": 2,
        "BOB": 2, "BOV": 2, "BRL": 2, "BSD": 2, "BTN": 2, "BWP": 2, "BYN": 2, "BZD": 2,
        "CAD": 2, "CDF": 2, "CHE": 2, "CHF": 2, "CHW": 2, "CLF": 4, "CLP": 0, "CNY": 2,
        "COP": 2, "COU": 2, "CRC": 2, "CUP": 2, "CVE": 2, "CZK": 2, "DJF": 0, "DKK": 2,
        "DOP": 2, "DZD": 2, "EGP": 2, "ERN": 2, "ETB": 2, "EUR": 2, "FJD": 2, "FKP": 2,
        "GBP": 2, "GEL": 2, "GHS": 2, "GIP": 2, "GMD": 2, "GNF": 0, "GTQ": 2, "GYD": 2,
        "HKD": 2, "HNL": 2, "HTG": 2, "HUF": 2, "IDR": 2, "ILS": 2, "INR": 2, "IQD": 3,
        "IRR": 2, "ISK": 0, "JMD": 2, "JOD": 3, "JPY": 0, "KES": 2, "KGS": 2, "KHR": 2,
        "KMF": 0, "KPW": 2, "KRW": 0, "KWD": 3, "KYD": 2, "KZT": 2, "LAK": 2, "LBP": 2,
        "LKR": 2, "LRD": 2, "LSL": 2, "LYD": 3, "MAD": 2, "MDL": 2, "MGA": 2, "MKD": 2,
        "MMK": 2, "MNT": 2, "MOP": 2, "MRU": 2, "MUR": 2, "MVR": 2, "MWK": 2, "MXN": 2,
        "MXV": 2, "MYR": 2, "MZN": 2, "NAD": 2, "NGN": 2, "NIO": 2, "NOK": 2, "NPR": 2,
        "NZD": 2, "OMR": 3, "PAB": 2, "PEN": 2, "PGK": 2, "PHP": 2, "PKR": 2, "PLN": 2,
        "PYG": 0, "QAR": 2, "RON": 2, "RSD": 2, "RUB": 2, "RWF": 0, "SAR": 2, "SBD": 2,
        "SCR": 2, "SDG": 2, "SEK": 2, "SGD": 2, "SHP": 2, "SLE": 2, "SOS": 2, "SRD": 2,
        "SSP": 2, "STN": 2, "SVC": 2, "SYP": 2, "SZL": 2, "THB": 2, "TJS": 2, "TMT": 2,
        "TND": 3, "TOP": 2, "TRY": 2, "TTD": 2, "TWD": 2, "TZS": 2, "UAH": 2, "UGX": 0,
        "USD": 2, "USN": 2, "UYI": 0, "UYU": 2, "UYW": 4, "UZS": 2, "VED": 2, "VES": 2,
        "VND": 0, "VUV": 0, "WST": 2, "XAD": 2, "XAF": 0, "XCD": 2, "XCG": 2, "XOF": 0,
        "XPF": 0, "YER": 2, "ZAR": 2, "ZMW": 2, "ZWG": 2,
    ]
    // END GENERATED table

    /// ISO 4217 list one's fund codes.
    // BEGIN GENERATED funds
    // Generated by Scripts/iso4217-table.py from ISO 4217 list one published 2026-01-01.
    private static let funds: Set<String> = [
        "BOV", "CHE", "CHW", "CLF", "COU", "MXV", "USN", "UYI",
    ]
    // END GENERATED funds
}

extension CurrencyCode: Codable {
    /// Decodes from a bare string (`"USD"`), validated as ``init(_:)`` does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        self = try decoder.validating { try CurrencyCode(text) }
    }

    /// Encodes as a bare string (`"USD"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
