import CheckoutCore

/// What a page passes to the Express Checkout Element's `click` event's `resolve` (stripe-js
/// `ClickResolveDetails`; source: docs.stripe.com/js/elements_object/express_checkout_element_click_event):
/// the lines, the rates, what to collect, where to ship, the business's name and Apple Pay's
/// own options. Every member is optional.
public struct ExpressCheckoutClickResolveDetails: Codable, Hashable, Sendable {
    /// The lines shown.
    public var lineItems: [ExpressCheckoutLineItem]?
    /// The rates offered; the first is selected.
    public var shippingRates: [ExpressCheckoutShippingRate]?
    /// Whether to collect an email address.
    public var emailRequired: Bool?
    /// Whether to collect a phone number.
    public var phoneNumberRequired: Bool?
    /// Whether to collect a shipping address.
    public var shippingAddressRequired: Bool?
    /// Whether to collect a billing address.
    public var billingAddressRequired: Bool?
    /// The countries shipped to, two-letter ISO codes; absent: all.
    public var allowedShippingCountries: [String]?
    /// The business the interface names.
    public var business: ExpressCheckoutBusiness?
    /// Apple Pay's own options, passed to Apple Pay (`recurringPaymentRequest`,
    /// `deferredPaymentRequest`, `automaticReloadPaymentRequest`), kept as the page wrote them.
    public var applePay: JSONValue?

    /// Details.
    public init(
        lineItems: [ExpressCheckoutLineItem]? = nil, shippingRates: [ExpressCheckoutShippingRate]? = nil,
        emailRequired: Bool? = nil, phoneNumberRequired: Bool? = nil, shippingAddressRequired: Bool? = nil,
        billingAddressRequired: Bool? = nil, allowedShippingCountries: [String]? = nil,
        business: ExpressCheckoutBusiness? = nil, applePay: JSONValue? = nil
    ) {
        self.lineItems = lineItems
        self.shippingRates = shippingRates
        self.emailRequired = emailRequired
        self.phoneNumberRequired = phoneNumberRequired
        self.shippingAddressRequired = shippingAddressRequired
        self.billingAddressRequired = billingAddressRequired
        self.allowedShippingCountries = allowedShippingCountries
        self.business = business
        self.applePay = applePay
    }
}

/// The business an Express Checkout interface names: `{name}`.
public struct ExpressCheckoutBusiness: Codable, Hashable, Sendable {
    /// The name shown.
    public var name: String

    /// A business.
    public init(name: String) { self.name = name }
}

/// What a page passes to `resolve` of the Express Checkout Element's `shippingaddresschange` and
/// `shippingratechange` events (stripe-js `ChangeResolveDetails`; source:
/// docs.stripe.com/js/elements_object/express_checkout_element_shippingaddresschange_event):
/// the new lines and rates, and Apple Pay's own options.
public struct ExpressCheckoutChangeResolveDetails: Codable, Hashable, Sendable {
    /// The lines shown from now on.
    public var lineItems: [ExpressCheckoutLineItem]?
    /// The rates offered from now on; the first is selected.
    public var shippingRates: [ExpressCheckoutShippingRate]?
    /// Apple Pay's own options, kept as the page wrote them.
    public var applePay: JSONValue?

    /// Details.
    public init(
        lineItems: [ExpressCheckoutLineItem]? = nil, shippingRates: [ExpressCheckoutShippingRate]? = nil,
        applePay: JSONValue? = nil
    ) {
        self.lineItems = lineItems
        self.shippingRates = shippingRates
        self.applePay = applePay
    }
}

/// What a page passes to the `confirm` event's `paymentFailed` (source:
/// docs.stripe.com/js/elements_object/express_checkout_element_confirm_event): a reason the
/// interface may show a hint for, and a short message.
public struct ExpressCheckoutPaymentFailure: Codable, Hashable, Sendable {
    /// The reasons Stripe documents; `fail` by default.
    public enum Reason: String, Codable, Hashable, Sendable, CaseIterable {
        case fail
        case invalidShippingAddress = "invalid_shipping_address"
        case invalidBillingAddress = "invalid_billing_address"
        case invalidPaymentData = "invalid_payment_data"
        case addressUnserviceable = "address_unserviceable"
    }

    /// Why the payment failed.
    public var reason: Reason?
    /// A short message for the payment sheet.
    public var message: String?

    /// A failure.
    public init(reason: Reason? = nil, message: String? = nil) {
        self.reason = reason
        self.message = message
    }
}
