import CheckoutCore
import CheckoutFlows

/// The merchant's side of a pay context, with completion handlers (Stripe's
/// `STPApplePayContextDelegate`).
///
/// `didCreatePaymentMethod` and `didComplete` are required. The shipping, coupon and
/// `willComplete` methods are optional: the defaults keep the current summary (spec P2, A9) and
/// pass the result through unchanged.
public protocol PayContextDelegate: Sendable {
    /// The customer authorized and Stripe created a payment method: create the PaymentIntent or
    /// SetupIntent on your server and call `completion` with its client secret, with
    /// ``IntentAnswer/completeWithoutConfirming`` when your server finished the payment, or with
    /// the error. `paymentInformation` holds the full contacts (spec P2).
    func payContext(
        _ context: PayContext,
        didCreatePaymentMethod paymentMethod: StripePaymentMethod,
        paymentInformation: Payment,
        completion: @escaping @Sendable (IntentAnswer) -> Void
    )

    /// The sheet is gone and the payment is over: success, error (with the error) or the
    /// customer's cancellation. Called exactly once, always last (spec P6).
    func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?)

    /// The customer selected a shipping method.
    func payContext(
        _ context: PayContext,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    )

    /// The customer selected a shipping contact, redacted (spec A2).
    func payContext(
        _ context: PayContext,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    )

    /// The customer entered a coupon code.
    func payContext(
        _ context: PayContext,
        didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    )

    /// The result is about to be shown on the sheet; call `handler` with it, adjusted if you like.
    func payContext(
        _ context: PayContext,
        willCompleteWith result: PaymentAuthorizationResult,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    )
}

extension PayContextDelegate {
    /// Default (spec P2): the current summary stays.
    public func payContext(
        _ context: PayContext,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        handler(context.sheet.defaultShippingMethodUpdate())
    }

    /// Default (spec P2): the current summary stays.
    public func payContext(
        _ context: PayContext,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        handler(context.sheet.defaultShippingContactUpdate())
    }

    /// Default (spec P2): the current summary stays.
    public func payContext(
        _ context: PayContext,
        didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) {
        handler(context.sheet.defaultCouponCodeUpdate())
    }

    /// Default: the result unchanged.
    public func payContext(
        _ context: PayContext,
        willCompleteWith result: PaymentAuthorizationResult,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        context.noteDefaultWillComplete()
        handler(result)
    }
}
