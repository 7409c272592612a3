import CheckoutCore
import CheckoutFlows

/// The merchant's side of a pay context, written with async/await.
///
/// A type that conforms to both this and ``PayContextDelegate`` is driven through its
/// completion-handler methods; its async methods are never called.
public protocol AsyncPayContextDelegate: Sendable {
    /// Create the intent and return its client secret, ``IntentAnswer/completeWithoutConfirming``
    /// or the failure.
    func payContext(
        _ context: PayContext,
        didCreatePaymentMethod paymentMethod: StripePaymentMethod,
        paymentInformation: Payment
    ) async -> IntentAnswer

    /// The sheet is gone and the payment is over. Called exactly once, always last.
    func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?)

    /// The customer selected a shipping method.
    func payContext(_ context: PayContext, didSelectShippingMethod method: ShippingMethod) async -> ShippingMethodUpdate

    /// The customer selected a shipping contact, redacted (spec A2).
    func payContext(_ context: PayContext, didSelectShippingContact contact: Contact) async -> ShippingContactUpdate

    /// The customer entered a coupon code.
    func payContext(_ context: PayContext, didChangeCouponCode code: String) async -> CouponCodeUpdate

    /// The result is about to be shown; return it, adjusted if you like.
    func payContext(
        _ context: PayContext,
        willCompleteWith result: PaymentAuthorizationResult
    ) async -> PaymentAuthorizationResult
}

extension AsyncPayContextDelegate {
    /// Default (spec P2): the current summary stays.
    public func payContext(_ context: PayContext, didSelectShippingMethod method: ShippingMethod) async
        -> ShippingMethodUpdate
    {
        context.sheet.defaultShippingMethodUpdate()
    }

    /// Default (spec P2): the current summary stays.
    public func payContext(_ context: PayContext, didSelectShippingContact contact: Contact) async
        -> ShippingContactUpdate
    {
        context.sheet.defaultShippingContactUpdate()
    }

    /// Default (spec P2): the current summary stays.
    public func payContext(_ context: PayContext, didChangeCouponCode code: String) async -> CouponCodeUpdate {
        context.sheet.defaultCouponCodeUpdate()
    }

    /// Default: the result unchanged.
    public func payContext(
        _ context: PayContext,
        willCompleteWith result: PaymentAuthorizationResult
    ) async -> PaymentAuthorizationResult {
        context.noteDefaultWillComplete()
        return result
    }
}
