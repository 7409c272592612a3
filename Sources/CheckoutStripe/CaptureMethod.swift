/// When a PaymentIntent's funds are captured (Stripe's `capture_method`).
public enum CaptureMethod: String, Hashable, Sendable, Codable, CaseIterable {
    /// Captured when the payment is confirmed: a successful confirmation ends in `succeeded`.
    case automatic
    /// Captured when the payment is confirmed, the charge's balance details filled in
    /// asynchronously: a successful confirmation ends in `succeeded`. Stripe's default since API
    /// version 2024-04-10.
    case automaticAsync = "automatic_async"
    /// Authorized now, captured later: a successful confirmation ends in `requires_capture`.
    case manual
}
