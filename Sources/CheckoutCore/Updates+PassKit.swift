/// The updates with PassKit's initializers' labels (`paymentSummaryItems:`, `errors: [Error]?`),
/// so that a delegate ported from PassKit builds them as it did; each error becomes a
/// ``PaymentError`` as ``PaymentError/init(_:)`` maps it.
extension ShippingContactUpdate {
    /// PassKit's `PKPaymentRequestShippingContactUpdate(errors:paymentSummaryItems:shippingMethods:)`.
    /// An empty `shippingMethods` is none available (spec A2), as in
    /// ``init(errors:summaryItems:shippingMethods:)``.
    public init(errors: [any Error]?, paymentSummaryItems: [SummaryItem], shippingMethods: [ShippingMethod]) {
        self.init(
            errors: [PaymentError](anyErrors: errors), summaryItems: paymentSummaryItems,
            shippingMethods: shippingMethods)
    }

    /// PassKit's `PKPaymentRequestShippingContactUpdate(paymentSummaryItems:)`: the methods unchanged.
    public init(paymentSummaryItems: [SummaryItem]) {
        self.init(summaryItems: paymentSummaryItems)
    }
}

extension ShippingMethodUpdate {
    /// PassKit's `PKPaymentRequestShippingMethodUpdate(paymentSummaryItems:)`.
    public init(paymentSummaryItems: [SummaryItem]) {
        self.init(summaryItems: paymentSummaryItems)
    }
}

extension PaymentMethodUpdate {
    /// PassKit's `PKPaymentRequestPaymentMethodUpdate(errors:paymentSummaryItems:)`.
    public init(errors: [any Error]?, paymentSummaryItems: [SummaryItem]) {
        self.init(errors: [PaymentError](anyErrors: errors), summaryItems: paymentSummaryItems)
    }

    /// PassKit's `PKPaymentRequestPaymentMethodUpdate(paymentSummaryItems:)`.
    public init(paymentSummaryItems: [SummaryItem]) {
        self.init(summaryItems: paymentSummaryItems)
    }
}

extension CouponCodeUpdate {
    /// PassKit's `PKPaymentRequestCouponCodeUpdate(errors:paymentSummaryItems:shippingMethods:)`.
    public init(errors: [any Error]?, paymentSummaryItems: [SummaryItem], shippingMethods: [ShippingMethod]) {
        self.init(
            errors: [PaymentError](anyErrors: errors), summaryItems: paymentSummaryItems,
            shippingMethods: shippingMethods)
    }

    /// PassKit's `PKPaymentRequestCouponCodeUpdate(paymentSummaryItems:)`: the methods unchanged.
    public init(paymentSummaryItems: [SummaryItem]) {
        self.init(summaryItems: paymentSummaryItems)
    }
}
