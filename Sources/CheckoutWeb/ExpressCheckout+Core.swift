import CheckoutCore

extension ExpressCheckoutClickResolveDetails {
    /// The `click` answer for `request` (spec W9): the summary items but the total as lines (the
    /// total is the Elements `amount`, ``ExpressCheckoutAmount/elementsAmount(of:)``), the
    /// shipping methods as rates, the contact fields to collect (`emailRequired`,
    /// `phoneNumberRequired` from either contact's required fields, `shippingAddressRequired` and
    /// `billingAddressRequired` from each one's `postalAddress`), and the total's label as the
    /// business's name. The element always gives a name with the billing details.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the request's member that has no
    ///   Express Checkout form here (`recurringPaymentRequest`, `deferredPaymentRequest`,
    ///   `automaticReloadPaymentRequest`, `multiTokenContexts`, a pending item's `type`) or whose
    ///   amount Stripe's digits cannot carry.
    public init(_ request: PaymentRequest) throws {
        if request.recurringPaymentRequest != nil {
            throw unmappable("recurringPaymentRequest", "present", "is not carried to the Express Checkout Element")
        }
        if request.deferredPaymentRequest != nil {
            throw unmappable("deferredPaymentRequest", "present", "is not carried to the Express Checkout Element")
        }
        if request.automaticReloadPaymentRequest != nil {
            throw unmappable(
                "automaticReloadPaymentRequest", "present", "is not carried to the Express Checkout Element")
        }
        if !request.multiTokenContexts.isEmpty {
            throw unmappable("multiTokenContexts", "present", "is not carried to the Express Checkout Element")
        }
        let required = request.requiredShippingContactFields.union(request.requiredBillingContactFields)
        let shipping = request.requiredShippingContactFields.contains(.postalAddress)
        self.init(
            lineItems: try Self.lines(request.summaryItems, path: "summaryItems"),
            shippingRates: shipping || !request.shippingMethods.isEmpty
                ? try request.shippingMethods.enumerated().map { index, method in
                    try inside("shippingMethods[\(index)]") { try ExpressCheckoutShippingRate(method) }
                } : nil,
            emailRequired: required.contains(.emailAddress),
            phoneNumberRequired: required.contains(.phoneNumber),
            shippingAddressRequired: shipping,
            billingAddressRequired: request.requiredBillingContactFields.contains(.postalAddress),
            business: request.summaryItems.last.map { ExpressCheckoutBusiness(name: $0.label) })
    }

    /// Every item but the last (the total) as a line.
    static func lines(_ items: [SummaryItem], path: String) throws -> [ExpressCheckoutLineItem] {
        try items.dropLast().enumerated().map { index, item in
            try inside("\(path)[\(index)]") { try ExpressCheckoutLineItem(item) }
        }
    }
}

/// What a page does with a `shippingaddresschange` or `shippingratechange` event (spec W9): set
/// the Elements `amount` and `resolve` with the new lines and rates, or `reject()`.
public enum ExpressCheckoutChangeAnswer: Hashable, Sendable {
    /// `elements.update({amount})`, then `event.resolve(details)`.
    case resolve(ExpressCheckoutChangeResolveDetails, amount: Int64)
    /// `event.reject()`: the element has no error to show, so it takes none.
    case reject

    /// The answer to a `shippingaddresschange` (spec A2, W3, W9): `reject()` when the update
    /// has an error that blocks payment (an invalid or unserviceable address, or no shipping
    /// method for it); else `resolve` with its lines and, when it carries a list, its methods as
    /// rates (absent: unchanged).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member Stripe's digits cannot carry.
    public init(_ update: ShippingContactUpdate) throws {
        guard update.blockingErrors.isEmpty else {
            self = .reject
            return
        }
        let rates = try update.shippingMethods.map { methods in
            try methods.enumerated().map { index, method in
                try inside("shippingMethods[\(index)]") { try ExpressCheckoutShippingRate(method) }
            }
        }
        self = .resolve(
            ExpressCheckoutChangeResolveDetails(
                lineItems: try ExpressCheckoutClickResolveDetails.lines(update.summaryItems, path: "summaryItems"),
                shippingRates: rates),
            amount: try ExpressCheckoutAmount.elementsAmount(of: update.summaryItems))
    }

    /// The answer to a `shippingratechange`: `resolve` with the update's lines (a shipping-method
    /// update has no error).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member Stripe's digits cannot carry.
    public init(_ update: ShippingMethodUpdate) throws {
        self = .resolve(
            ExpressCheckoutChangeResolveDetails(
                lineItems: try ExpressCheckoutClickResolveDetails.lines(update.summaryItems, path: "summaryItems")),
            amount: try ExpressCheckoutAmount.elementsAmount(of: update.summaryItems))
    }
}

extension ExpressCheckoutPaymentFailure {
    /// The failure for a merchant's result that is not a success (spec W9): the reason from the
    /// status and the first error (`invalid_shipping_address` for a shipping contact's error or
    /// status, `invalid_billing_address` for the billing's, `address_unserviceable`, else `fail`),
    /// and the first error's message.
    public init(_ result: PaymentAuthorizationResult) {
        let first = result.errors.first
        let reason: Reason =
            switch (result.status, first?.code) {
            case (_, PaymentError.Code.shippingAddressUnserviceable?): .addressUnserviceable
            case (_, PaymentError.Code.shippingContactInvalid?), (.invalidShippingPostalAddress, _),
                (.invalidShippingContact, _):
                .invalidShippingAddress
            case (_, PaymentError.Code.billingContactInvalid?), (.invalidBillingPostalAddress, _):
                .invalidBillingAddress
            default: .fail
            }
        self.init(reason: reason, message: first?.message)
    }
}
