import CheckoutCore

/// Shipping details of an intent (Stripe's `shipping`: name, phone, address).
public struct ShippingDetails: Hashable, Sendable, Codable {
    /// The recipient's name.
    public var name: String?
    /// The recipient's phone number.
    public var phone: String?
    /// The shipping address.
    public var address: Address

    /// Shipping details with an address and, optionally, a name and a phone number.
    public init(name: String? = nil, phone: String? = nil, address: Address) {
        self.name = name
        self.phone = phone
        self.address = address
    }

    /// The shipping details of a contact with a postal address.
    public init?(_ contact: Contact?) {
        guard let contact, let address = contact.postalAddress else { return nil }
        self.init(name: contact.name, phone: contact.phoneNumber, address: address)
    }
}
