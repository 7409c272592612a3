import CheckoutCore

/// A Stripe PaymentMethod created from an Apple Pay payment.
public struct StripePaymentMethod: Hashable, Sendable, Codable {
    /// `pm_…`.
    public var id: String
    /// The card brand, such as `visa`.
    public var brand: String
    /// The card's last four digits.
    public var last4: String

    /// A payment method with its id, brand and last four digits.
    public init(id: String, brand: String, last4: String) {
        self.id = id
        self.brand = brand
        self.last4 = last4
    }
}
