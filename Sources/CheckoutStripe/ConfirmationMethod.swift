import CheckoutCore

/// Who confirms a PaymentIntent (Stripe's `confirmation_method`).
public enum ConfirmationMethod: String, Hashable, Sendable, Codable {
    /// The client may confirm with the publishable key.
    case automatic
    /// Only the merchant's server confirms.
    case manual
}
