import CheckoutCore

/// How Stripe's objects keep the fields of their JSON they do not model (spec P10): each type
/// reads its JSON whole, keeps what its members do not hold in its `unmodeledFields`, and writes
/// those back before its members, so a round trip gives back the JSON Stripe sent.
///
/// A modeled field that is `null` or an empty hash in Stripe's JSON (`"shipping": {}`) reads as
/// nil and is kept here as it came; once the member is set, the member is written instead.
enum StripeUnmodeledFields {
    /// The fields of the decoder's object that `Key` does not model, and those it models whose
    /// value is `null` or `{}`.
    static func read<Key: CodingKey & CaseIterable>(from decoder: any Decoder, modeled _: Key.Type) throws
        -> [String: JSONValue]
    {
        let object = try decoder.singleValueContainer().decode([String: JSONValue].self)
        let modeled = Set(Key.allCases.map(\.stringValue))
        return object.filter { key, value in
            !modeled.contains(key) || value == .null || value == .object([:])
        }
    }

    /// Writes the fields; the type writes its members after them, so a member overrides a kept
    /// `null`.
    static func write(_ fields: [String: JSONValue], to encoder: any Encoder) throws {
        guard !fields.isEmpty else { return }
        var container = encoder.container(keyedBy: JSONKey.self)
        for (key, value) in fields { try container.encode(value, forKey: JSONKey(key)) }
    }

}
