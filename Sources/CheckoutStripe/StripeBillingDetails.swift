import CheckoutCore

/// A PaymentMethod's `billing_details`: name, email, phone and address; fields not modeled (such
/// as `tax_id`), and the address's `null` fields, are kept and written back.
public struct StripeBillingDetails: Hashable, Sendable, Codable {
    /// The cardholder's name.
    public var name: String?
    /// The billing email.
    public var email: String?
    /// The billing phone.
    public var phone: String?
    /// The billing address; nil when Stripe sent none.
    public var address: Address?
    /// Every field of Stripe's hash not modeled above, as Stripe sent it.
    public var unmodeledFields: [String: JSONValue] = [:]
    private var addressFields: [String: JSONValue] = [:]

    /// Billing details.
    public init(name: String? = nil, email: String? = nil, phone: String? = nil, address: Address? = nil) {
        self.name = name
        self.email = email
        self.phone = phone
        self.address = address
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, email, phone, address
    }

    /// Decodes Stripe's `billing_details` hash.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let address = try container.decodeIfPresent(StripeAddressCoding.self, forKey: .address)
        self.init(
            name: try container.decodeIfPresent(String.self, forKey: .name),
            email: try container.decodeIfPresent(String.self, forKey: .email),
            phone: try container.decodeIfPresent(String.self, forKey: .phone),
            address: address?.address)
        addressFields = address?.unmodeledFields ?? [:]
        unmodeledFields = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
    }

    /// Encodes Stripe's `billing_details` hash.
    public func encode(to encoder: any Encoder) throws {
        try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encodeIfPresent(phone, forKey: .phone)
        if let address {
            try container.encode(
                StripeAddressCoding(address: address, unmodeledFields: addressFields), forKey: .address)
        }
    }
}
