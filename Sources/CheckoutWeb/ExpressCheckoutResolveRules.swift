import CheckoutCore

/// Stripe's rules for what a page passes to the Express Checkout Element's `resolve`, checked
/// before anything is sent (spec W4, W9). Sources: stripe-js's `ShippingRate` and `LineItem`
/// types and docs.stripe.com/js/elements_object/express_checkout_element_click_event; the
/// shipping-address rule is the package's reading of the click event's options (an interface that
/// asks for an address has a rate to offer for it):
///
/// - the Elements `amount` (the total) is not negative;
/// - each shipping rate has a non-empty `id`, unique in the list, and an `amount` not negative;
/// - the line items' amounts are not checked against the Elements `amount`: Stripe's reference
///   states no such rule (the Payment Request Button's says the lines need not add up), and the
///   element charges the Elements `amount` whatever the lines;
/// - for `click`: a request to collect a shipping address comes with at least one rate, and each
///   allowed shipping country is a two-letter ISO 3166-1 code.
enum ExpressCheckoutResolveRules {
    static func check(
        lineItems: [ExpressCheckoutLineItem]?, shippingRates: [ExpressCheckoutShippingRate]?, amount: Int64?
    ) throws {
        if let amount, amount < 0 {
            throw CheckoutError(
                code: .negativeAmount, message: "the Elements amount \(amount) must not be negative", field: "amount",
                value: String(amount))
        }
        var seen: Set<String> = []
        for (index, rate) in (shippingRates ?? []).enumerated() {
            let path = "shippingRates[\(index)]"
            guard !rate.id.isEmpty else {
                throw CheckoutError(code: .missingField, message: "\(path).id is empty", field: path + ".id")
            }
            guard seen.insert(rate.id).inserted else {
                throw CheckoutError(
                    code: .duplicateIdentifier, message: "\(path).id \(rate.id.debugDescription) is used twice",
                    field: path + ".id", value: rate.id)
            }
            guard rate.amount >= 0 else {
                throw CheckoutError(
                    code: .negativeAmount, message: "\(path).amount \(rate.amount) must not be negative",
                    field: path + ".amount", value: String(rate.amount))
            }
        }
    }
}

extension ExpressCheckoutClickResolveDetails {
    /// Checks the details against Stripe's rules (rate ids present and unique, rate amounts and the amount not negative) for an Elements
    /// `amount` (nil: the lines' sum is not checked).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member (`shippingRates[1].id`,
    ///   `lineItems`, `allowedShippingCountries[0]`, ...) and its value.
    public func validate(amount: Int64?) throws {
        try ExpressCheckoutResolveRules.check(lineItems: lineItems, shippingRates: shippingRates, amount: amount)
        if shippingAddressRequired == true, shippingRates?.isEmpty ?? true {
            throw CheckoutError(
                code: .missingField, message: "shippingAddressRequired is true but shippingRates offers no rate",
                field: "shippingRates")
        }
        for (index, country) in (allowedShippingCountries ?? []).enumerated() {
            _ = try inside("allowedShippingCountries[\(index)]") {
                do { return try CountryCode(country) } catch var error as CheckoutError {
                    error.field = nil
                    throw error
                }
            }
        }
    }
}

extension ExpressCheckoutChangeResolveDetails {
    /// Checks the details against Stripe's rules (rate ids present and unique, rate amounts and the amount not negative) for an Elements
    /// `amount` (nil: the lines' sum is not checked).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member and its value.
    public func validate(amount: Int64?) throws {
        try ExpressCheckoutResolveRules.check(lineItems: lineItems, shippingRates: shippingRates, amount: amount)
    }
}
