/// A closed set of Stripe's values that Stripe may grow (spec P10: Stripe calls a new enum value
/// a backwards-compatible change): a value not known here reads as `unknown(raw)` and is written
/// back as sent.
public protocol StripeOpenEnum: RawRepresentable, CaseIterable, Hashable, Sendable, Codable
where RawValue == String, AllCases == [Self] {
    /// A value this version does not know, as Stripe spelled it.
    static func unknown(_ raw: String) -> Self
}

extension StripeOpenEnum {
    /// The value Stripe spells `rawValue`; `unknown(rawValue)` for a value not known here.
    public init(rawValue: String) {
        self = Self.allCases.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }

    /// Decodes from the value as a bare string; any string is accepted.
    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        self = Self.allCases.first { $0.rawValue == raw } ?? .unknown(raw)
    }

    /// Encodes as the value, a bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
