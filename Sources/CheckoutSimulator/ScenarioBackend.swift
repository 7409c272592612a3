import CheckoutStripeBackends
import Foundation

/// The payment backend a pay-context scenario runs on (`checkout-sim run|test --backend`); the
/// other flows use none.
public enum ScenarioBackend: Sendable, CustomStringConvertible {
    /// The in-memory Stripe test-mode backend, with the scenario's Radar rules
    /// (`merchant.radar`): the default.
    case memory
    /// Stripe's HTTP API, or an emulator's, with a secret key: the merchant's server creates each
    /// intent through it (`StripeHTTPBackend.createPaymentIntent`), the pay context retrieves and
    /// confirms there. The account's own Radar rules apply.
    case stripeHTTP(StripeHTTPBackend.Configuration)

    /// `memory`, or `stripe-http (URL, sk_test_•••)`: the key masked.
    public var description: String {
        switch self {
        case .memory: "memory"
        case .stripeHTTP(let configuration):
            "stripe-http (\(configuration.baseURL.absoluteString), \(configuration.apiKey))"
        }
    }
}
