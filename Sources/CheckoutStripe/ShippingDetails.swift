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
    /// The shipping address, as Stripe holds it: in its six fields, what it has no field for
    /// folded in when set (``/CheckoutCore/Address/foldedForStripe``, spec W2).
    public var address: Address {
        get { stripeAddress }
        set { stripeAddress = newValue.foldedForStripe }
    }
    private var stripeAddress: Address
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
        self.stripeAddress = address.foldedForStripe
        self.carrier = carrier
        self.trackingNumber = trackingNumber
    }

    /// The shipping details of a contact with a name (or an organisation) and a postal address;
    /// nil when either is missing, since Stripe refuses shipping without both.
    ///
    /// Stripe's shipping hash has no organisation and its address only six fields: the name is
    /// ``/CheckoutCore/Contact/stripeName`` (the organisation folded after the name) and the
    /// address ``/CheckoutCore/Address/foldedForStripe`` (sub-locality and sub-administrative
    /// area in `line2`, sorting code in `city`), so nothing the customer gave is dropped (spec W2).
    public init?(_ contact: Contact?) {
        guard let contact, let address = contact.postalAddress,
            let name = contact.stripeName, name.contains(where: { !$0.isWhitespace })
        else { return nil }
        self.init(name: name, phone: contact.phoneNumber, address: address)
    }

    /// Every field of Stripe's hash not modeled above, as Stripe sent it.
    public var unmodeledFields: [String: JSONValue] = [:]
    private var addressFields: [String: JSONValue] = [:]

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, phone, address, carrier
        case trackingNumber = "tracking_number"
    }

    /// Decodes Stripe's shipping hash; its address is Stripe's (`postal_code`, `country` as two
    /// letters). Fields not modeled, in the hash and in its address, are kept and written back.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let address = try container.decode(StripeAddressCoding.self, forKey: .address)
        self.init(
            name: try container.decodeIfPresent(String.self, forKey: .name),
            phone: try container.decodeIfPresent(String.self, forKey: .phone),
            address: address.address,
            carrier: try container.decodeIfPresent(String.self, forKey: .carrier),
            trackingNumber: try container.decodeIfPresent(String.self, forKey: .trackingNumber)
        )
        unmodeledFields = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
        addressFields = address.unmodeledFields
    }

    /// Encodes Stripe's shipping hash.
    public func encode(to encoder: any Encoder) throws {
        try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(phone, forKey: .phone)
        try container.encode(StripeAddressCoding(address: address, unmodeledFields: addressFields), forKey: .address)
        try container.encodeIfPresent(carrier, forKey: .carrier)
        try container.encodeIfPresent(trackingNumber, forKey: .trackingNumber)
    }
}
