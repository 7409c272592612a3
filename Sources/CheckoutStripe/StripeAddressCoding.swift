import CheckoutCore

/// Stripe's address hash (`line1`, `line2`, `city`, `state`, `postal_code`, `country` as two
/// letters) read into an ``/CheckoutCore/Address`` and written back: what the address does not
/// hold (its `null` fields, fields Stripe adds) is kept beside it, so the hash comes back as sent.
/// An address with members Stripe has no field for is written folded
/// (``/CheckoutCore/Address/foldedForStripe``).
struct StripeAddressCoding: Hashable, Sendable, Codable {
    var address: Address
    var unmodeledFields: [String: JSONValue]

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case line1, line2, city, state, country
        case postalCode = "postal_code"
    }

    init(address: Address, unmodeledFields: [String: JSONValue] = [:]) {
        self.address = address
        self.unmodeledFields = unmodeledFields
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let country = try container.decodeIfPresent(String.self, forKey: .country)
        address = Address(
            line1: try container.decodeIfPresent(String.self, forKey: .line1),
            line2: try container.decodeIfPresent(String.self, forKey: .line2),
            city: try container.decodeIfPresent(String.self, forKey: .city),
            state: try container.decodeIfPresent(String.self, forKey: .state),
            postalCode: try container.decodeIfPresent(String.self, forKey: .postalCode),
            country: try country.map { text in try decoder.validating { try CountryCode(text) } }
        )
        unmodeledFields = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
    }

    func encode(to encoder: any Encoder) throws {
        try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
        let address = address.foldedForStripe
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(address.line1, forKey: .line1)
        try container.encodeIfPresent(address.line2, forKey: .line2)
        try container.encodeIfPresent(address.city, forKey: .city)
        try container.encodeIfPresent(address.state, forKey: .state)
        try container.encodeIfPresent(address.postalCode, forKey: .postalCode)
        try container.encodeIfPresent(address.country?.code, forKey: .country)
    }
}
