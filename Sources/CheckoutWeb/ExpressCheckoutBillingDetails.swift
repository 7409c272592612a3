import CheckoutCore

/// The customer's billing details in the Express Checkout Element's `confirm` event: `{name,
/// email, phone, address}` (stripe-js `BillingDetails`; source:
/// docs.stripe.com/js/elements_object/express_checkout_element_confirm_event). `email` and
/// `phone` come when the element was asked for them (`emailRequired`, `phoneNumberRequired`).
///
/// ↔ ``/CheckoutCore/Contact``: `name`, `emailAddress`, `phoneNumber`, `postalAddress`.
public struct ExpressCheckoutBillingDetails: Codable, Hashable, Sendable {
    /// The customer's name.
    public var name: String?
    /// The customer's email address.
    public var email: String?
    /// The customer's phone number.
    public var phone: String?
    /// The billing address.
    public var address: ExpressCheckoutAddress?

    /// Billing details.
    public init(name: String? = nil, email: String? = nil, phone: String? = nil, address: ExpressCheckoutAddress? = nil)
    {
        self.name = name
        self.email = email
        self.phone = phone
        self.address = address
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case name, email, phone, address }

    /// Reads the members; an object with none of them is refused (spec W2).
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "BillingDetails")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        phone = try container.decodeIfPresent(String.self, forKey: .phone)
        address = try container.decodeIfPresent(ExpressCheckoutAddress.self, forKey: .address)
    }

    /// The core contact.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `address.country`.
    public func core() throws -> Contact {
        Contact(
            name: name.nonEmpty, emailAddress: email.nonEmpty, phoneNumber: phone.nonEmpty,
            postalAddress: try inside("address") { try address?.core() })
    }

    /// The core contact as billing details, in Stripe's fields: the organisation folded into the
    /// name (``/CheckoutCore/Contact/stripeName``), the address as ``ExpressCheckoutAddress/init(_:)``
    /// folds it (spec W2).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `address.country` for an address without one.
    public init(_ core: Contact) throws {
        self.init(
            name: core.stripeName, email: core.emailAddress, phone: core.phoneNumber,
            address: try inside("address") { try core.postalAddress.map(ExpressCheckoutAddress.init) })
    }
}
