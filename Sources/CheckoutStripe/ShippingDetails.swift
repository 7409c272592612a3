import CheckoutCore

/// Shipping details of an intent (Stripe's `shipping`: name, phone, address, carrier, tracking
/// number).
///
/// Stripe requires a name and an address; ``init(_:)`` therefore gives nil for a contact without
/// a name, as stripe-ios sends no shipping then.
public struct ShippingDetails: Hashable, Sendable, Codable {
    /// The recipient's name.
    public var name: String?
    /// The recipient's phone number.
    public var phone: String?
    /// The shipping address.
    public var address: Address
    /// The delivery company (`carrier`).
    public var carrier: String?
    /// The tracking number (`tracking_number`).
    public var trackingNumber: String?

    /// Shipping details with an address and, optionally, a name, a phone number, a carrier and a
    /// tracking number.
    public init(
        name: String? = nil,
        phone: String? = nil,
        address: Address,
        carrier: String? = nil,
        trackingNumber: String? = nil
    ) {
        self.name = name
        self.phone = phone
        self.address = address
        self.carrier = carrier
        self.trackingNumber = trackingNumber
    }

    /// The shipping details of a contact with a name and a postal address; nil when either is
    /// missing, since Stripe refuses shipping without both.
    public init?(_ contact: Contact?) {
        guard let contact, let address = contact.postalAddress,
            let name = contact.name, name.contains(where: { !$0.isWhitespace })
        else { return nil }
        self.init(name: contact.name, phone: contact.phoneNumber, address: address)
    }

    private enum CodingKeys: String, CodingKey {
        case name, phone, address, carrier
        case trackingNumber = "tracking_number"
    }

    private enum AddressKeys: String, CodingKey {
        case line1, line2, city, state, country
        case postalCode = "postal_code"
    }

    /// Decodes Stripe's shipping hash; its address is Stripe's (`postal_code`, `country` as two
    /// letters).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let address = try container.nestedContainer(keyedBy: AddressKeys.self, forKey: .address)
        let country = try address.decodeIfPresent(String.self, forKey: .country)
        self.init(
            name: try container.decodeIfPresent(String.self, forKey: .name),
            phone: try container.decodeIfPresent(String.self, forKey: .phone),
            address: Address(
                line1: try address.decodeIfPresent(String.self, forKey: .line1),
                line2: try address.decodeIfPresent(String.self, forKey: .line2),
                city: try address.decodeIfPresent(String.self, forKey: .city),
                state: try address.decodeIfPresent(String.self, forKey: .state),
                postalCode: try address.decodeIfPresent(String.self, forKey: .postalCode),
                country: try country.map { text in try decoder.validating { try CountryCode(text) } }
            ),
            carrier: try container.decodeIfPresent(String.self, forKey: .carrier),
            trackingNumber: try container.decodeIfPresent(String.self, forKey: .trackingNumber)
        )
    }

    /// Encodes Stripe's shipping hash.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(phone, forKey: .phone)
        var nested = container.nestedContainer(keyedBy: AddressKeys.self, forKey: .address)
        try nested.encodeIfPresent(address.line1, forKey: .line1)
        try nested.encodeIfPresent(address.line2, forKey: .line2)
        try nested.encodeIfPresent(address.city, forKey: .city)
        try nested.encodeIfPresent(address.state, forKey: .state)
        try nested.encodeIfPresent(address.postalCode, forKey: .postalCode)
        try nested.encodeIfPresent(address.country?.code, forKey: .country)
        try container.encodeIfPresent(carrier, forKey: .carrier)
        try container.encodeIfPresent(trackingNumber, forKey: .trackingNumber)
    }

}
