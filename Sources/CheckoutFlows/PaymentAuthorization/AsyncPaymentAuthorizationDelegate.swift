import CheckoutCore

/// The merchant's side of an authorization flow written with async/await: each callback returns
/// its update or result, as PassKit's async delegate methods do.
///
/// A type that conforms to both this and ``PaymentAuthorizationDelegate`` is driven through its
/// completion-handler methods; its async methods are never called.
public protocol AsyncPaymentAuthorizationDelegate: Sendable {
    /// The sheet is gone. Called exactly once, always last.
    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow)
    /// The customer is about to authorize. A notification.
    func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow)
    /// The customer authorized: charge the payment and return the result.
    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment
    ) async -> PaymentAuthorizationResult
    /// The customer selected a shipping contact, shown redacted (spec A2).
    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact
    ) async -> ShippingContactUpdate
    /// The customer selected a shipping method.
    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingMethod method: ShippingMethod
    ) async -> ShippingMethodUpdate
    /// The customer selected a card.
    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectPaymentMethod method: PaymentMethod
    ) async -> PaymentMethodUpdate
    /// The customer entered a coupon code.
    func paymentAuthorizationFlow(_ flow: PaymentAuthorizationFlow, didChangeCouponCode code: String) async
        -> CouponCodeUpdate
}

extension AsyncPaymentAuthorizationDelegate {
    /// Default (spec A9): nothing to do; the transcript says the method is not implemented.
    public func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {
        flow.noteWillAuthorizePaymentNotImplemented()
    }

    /// Default (spec A9): no change.
    public func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact
    ) async -> ShippingContactUpdate {
        flow.defaultShippingContactUpdate()
    }

    /// Default (spec A9): no change.
    public func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingMethod method: ShippingMethod
    ) async -> ShippingMethodUpdate {
        flow.defaultShippingMethodUpdate()
    }

    /// Default (spec A9): no change.
    public func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectPaymentMethod method: PaymentMethod
    ) async -> PaymentMethodUpdate {
        flow.defaultPaymentMethodUpdate()
    }

    /// Default (spec A9): no change.
    public func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didChangeCouponCode code: String
    ) async -> CouponCodeUpdate {
        flow.defaultCouponCodeUpdate()
    }
}
