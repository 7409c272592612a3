import CheckoutCore

/// The Express Checkout Element's `click` event, as a page forwards it: `{expressPaymentType}`
/// (source: docs.stripe.com/js/elements_object/express_checkout_element_click_event). The page
/// must call the event's `resolve` within 1 second (Stripe's documented limit).
public struct ExpressCheckoutClickEvent: Codable, Hashable, Sendable {
    /// The button the customer clicked.
    public var expressPaymentType: ExpressCheckoutPaymentType

    /// An event.
    public init(expressPaymentType: ExpressCheckoutPaymentType) { self.expressPaymentType = expressPaymentType }
}

/// The Express Checkout Element's `shippingaddresschange` event, as a page forwards it: `{name,
/// address}`, the address partial (`{city, state, postal_code, country}`) until the customer pays
/// (source: docs.stripe.com/js/elements_object/express_checkout_element_shippingaddresschange_event).
/// Answered with `resolve({lineItems, shippingRates})` or `reject()`.
public struct ExpressCheckoutShippingAddressChangeEvent: Codable, Hashable, Sendable {
    /// The recipient's name, when the wallet shares it.
    public var name: String?
    /// The partial address.
    public var address: ExpressCheckoutAddress

    /// An event.
    public init(name: String? = nil, address: ExpressCheckoutAddress) {
        self.name = name
        self.address = address
    }

    /// The core contact, redacted as the element gives it (spec A2): name and partial address.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `address.country`.
    public func core() throws -> Contact {
        Contact(name: name.nonEmpty, postalAddress: try inside("address") { try address.core() }, isRedacted: true)
    }
}

/// The Express Checkout Element's `shippingratechange` event, as a page forwards it:
/// `{shippingRate}` (source: docs.stripe.com/js/elements_object/express_checkout_element_shippingratechange_event).
/// Answered with `resolve({lineItems, shippingRates})` or `reject()`.
public struct ExpressCheckoutShippingRateChangeEvent: Codable, Hashable, Sendable {
    /// The rate the customer chose.
    public var shippingRate: ExpressCheckoutShippingRate

    /// An event.
    public init(shippingRate: ExpressCheckoutShippingRate) { self.shippingRate = shippingRate }
}

/// The Express Checkout Element's `confirm` event, as a page forwards it: `{expressPaymentType,
/// billingDetails, shippingAddress, shippingRate}` (source:
/// docs.stripe.com/js/elements_object/express_checkout_element_confirm_event). The event's
/// `paymentFailed({reason, message})` takes a failure (``ExpressCheckoutPaymentFailure``).
public struct ExpressCheckoutConfirmEvent: Codable, Hashable, Sendable {
    /// The button the customer paid with.
    public var expressPaymentType: ExpressCheckoutPaymentType
    /// The billing details, when collected.
    public var billingDetails: ExpressCheckoutBillingDetails?
    /// The full shipping address, when collected.
    public var shippingAddress: ExpressCheckoutShippingAddress?
    /// The rate selected, when the element showed rates.
    public var shippingRate: ExpressCheckoutShippingRate?

    /// An event.
    public init(
        expressPaymentType: ExpressCheckoutPaymentType, billingDetails: ExpressCheckoutBillingDetails? = nil,
        shippingAddress: ExpressCheckoutShippingAddress? = nil, shippingRate: ExpressCheckoutShippingRate? = nil
    ) {
        self.expressPaymentType = expressPaymentType
        self.billingDetails = billingDetails
        self.shippingAddress = shippingAddress
        self.shippingRate = shippingRate
    }

    /// The core contacts: billing (the billing details) and shipping (the shipping address's name
    /// and address, with the billing details' email and phone, which the element collects once).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member (`billingDetails.address.country`,
    ///   `shippingAddress.address.country`).
    public func coreContacts() throws -> (billing: Contact?, shipping: Contact?) {
        let billing = try inside("billingDetails") { try billingDetails?.core() }
        var shipping = try inside("shippingAddress") { try shippingAddress?.core() }
        if shipping != nil {
            shipping?.emailAddress = billing?.emailAddress
            shipping?.phoneNumber = billing?.phoneNumber
        }
        return (billing, shipping)
    }
}
