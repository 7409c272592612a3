import CheckoutCore
import CheckoutFlows
import CheckoutPayContext

/// Merchants as a port from PassKit or Stripe writes them (spec E11): the required methods in
/// this package's spelling, the shipping-method selection spelled as given.
enum NearMissMerchants {
    /// The selection written with Stripe's label on this package's base name
    /// (`paymentAuthorizationFlow(_:didSelect:handler:)`): a near-miss, never called; the
    /// protocol's default answers.
    final class NearMiss: PaymentAuthorizationDelegate {
        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}

        func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {}

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) { handler(.success) }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didSelect method: ShippingMethod,
            handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
        ) { handler(ShippingMethodUpdate(summaryItems: KitFixture.summary("29.99"))) }
    }

    /// The selection in PassKit's own spelling (`paymentAuthorizationController(_:didSelectShippingMethod:handler:)`,
    /// without `@Sendable`, as PassKit declares it): a requirement, so the flow calls it.
    final class PassKitSpelling: PaymentAuthorizationDelegate {
        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}

        func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {}

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) { handler(.success) }

        func paymentAuthorizationController(
            _ controller: PaymentAuthorizationFlow, didSelectShippingMethod shippingMethod: ShippingMethod,
            handler completion: @escaping (ShippingMethodUpdate) -> Void
        ) { completion(ShippingMethodUpdate(summaryItems: KitFixture.summary("29.99"))) }
    }

    /// A pay context's merchant with Stripe's label on this package's base name
    /// (`payContext(_:didSelect:handler:)`): a near-miss.
    final class PayContextNearMiss: PayContextDelegate {
        func payContext(
            _ context: PayContext, didCreatePaymentMethod paymentMethod: StripePaymentMethod,
            paymentInformation: Payment, completion: @escaping @Sendable (IntentAnswer) -> Void
        ) { completion(.completeWithoutConfirming) }

        func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {}

        func payContext(
            _ context: PayContext, didSelect method: ShippingMethod,
            handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
        ) { handler(ShippingMethodUpdate(summaryItems: KitFixture.summary("29.99"))) }
    }

    /// A pay context's merchant in Stripe's own spelling (`applePayContext(_:didSelect:handler:)`).
    final class StripeSpelling: PayContextDelegate {
        func payContext(
            _ context: PayContext, didCreatePaymentMethod paymentMethod: StripePaymentMethod,
            paymentInformation: Payment, completion: @escaping @Sendable (IntentAnswer) -> Void
        ) { completion(.completeWithoutConfirming) }

        func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {}

        func applePayContext(
            _ context: PayContext, didSelect shippingMethod: ShippingMethod,
            handler: @escaping (ShippingMethodUpdate) -> Void
        ) { handler(ShippingMethodUpdate(summaryItems: KitFixture.summary("29.99"))) }
    }
}
