import CheckoutCore

/// Where to ship, in the Express Checkout Element's `confirm` event: `{name, address}` (stripe-js
/// `ShippingAddress`; source: docs.stripe.com/js/elements_object/express_checkout_element_confirm_event).
///
/// ↔ ``/CheckoutCore/Contact``: `name` and `postalAddress`; the element gives the shipping
/// contact's email and phone with the billing details, not here.
public struct ExpressCheckoutShippingAddress: Codable, Hashable, Sendable {
    /// The recipient's name.
    public var name: String?
    /// The full address.
    public var address: ExpressCheckoutAddress

    /// A shipping address.
    public init(name: String? = nil, address: ExpressCheckoutAddress) {
        self.name = name
        self.address = address
    }

    /// The core contact (name and address).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `address.country`.
    public func core() throws -> Contact {
        Contact(name: name.nonEmpty, postalAddress: try inside("address") { try address.core() })
    }
}
