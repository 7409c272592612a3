import CheckoutCore

/// The merchant's side of an authorization flow, with completion handlers (Apple's
/// `PKPaymentAuthorizationViewControllerDelegate`).
///
/// `didFinish` and `didAuthorizePayment` are required. The selection and coupon methods are
/// optional (spec A9): the defaults answer at once with no change, and the transcript says a
/// default answered; so does the transcript for the default `willAuthorizePayment`, which is then
/// not one of the flow's ``PaymentAuthorizationFlow/delegateCalls``. To write the callbacks with async/await, conform to
/// ``AsyncPaymentAuthorizationDelegate`` instead.
public protocol PaymentAuthorizationDelegate: Sendable {
    /// The sheet is gone: after the authorization's result was shown, or at once when the customer
    /// cancels. Called exactly once, always last.
    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow)

    /// The customer is about to authorize (after Face ID, before `didAuthorizePayment`). A
    /// notification: no completion.
    func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow)

    /// The customer authorized: charge the payment and call `handler` with the result.
    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    )

    /// The customer selected a shipping contact, shown redacted (spec A2).
    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    )

    /// The customer selected a shipping method.
    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    )

    /// The customer selected a card.
    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectPaymentMethod method: PaymentMethod,
        handler: @escaping @Sendable (PaymentMethodUpdate) -> Void
    )

    /// The customer entered a coupon code.
    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    )
}

extension PaymentAuthorizationDelegate {
    /// Default (spec A9): nothing to do; the transcript says the method is not implemented.
    public func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {
        flow.noteWillAuthorizePaymentNotImplemented()
    }

    /// Default (spec A9): no change.
    public func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        handler(flow.defaultShippingContactUpdate())
    }

    /// Default (spec A9): no change.
    public func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        handler(flow.defaultShippingMethodUpdate())
    }

    /// Default (spec A9): no change.
    public func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectPaymentMethod method: PaymentMethod,
        handler: @escaping @Sendable (PaymentMethodUpdate) -> Void
    ) {
        handler(flow.defaultPaymentMethodUpdate())
    }

    /// Default (spec A9): no change.
    public func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) {
        handler(flow.defaultCouponCodeUpdate())
    }
}
