import CheckoutCore
import CheckoutFlows

/// What the pay context needs of Stripe (spec P8): create a payment method from an Apple Pay
/// payment, retrieve an intent by its client secret, confirm an intent with a payment method.
///
/// Each call throws a ``StripeError`` on failure; a confirmation that declines throws the card
/// error (with its decline code) and leaves the intent in `requires_payment_method`.
public protocol PaymentBackend: Sendable {
    /// Creates a PaymentMethod from the payment's token.
    func createPaymentMethod(from payment: Payment) async throws -> StripePaymentMethod

    /// Retrieves the intent the secret belongs to.
    func retrieveIntent(_ secret: IntentClientSecret) async throws -> StripeIntent

    /// Confirms the intent with the payment method; `shipping` is sent when it differs from the
    /// intent's.
    func confirmIntent(
        _ secret: IntentClientSecret,
        paymentMethodID: String,
        shipping: ShippingDetails?
    ) async throws -> StripeIntent
}
