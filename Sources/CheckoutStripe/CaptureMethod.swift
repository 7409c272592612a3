import CheckoutCore

/// When a PaymentIntent's funds are captured (Stripe's `capture_method`).
public enum CaptureMethod: String, Hashable, Sendable, Codable {
    /// Captured when the payment is confirmed: a successful confirmation ends in `succeeded`.
    case automatic
    /// Authorized now, captured later: a successful confirmation ends in `requires_capture`.
    case manual
}
