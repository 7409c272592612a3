/// When a PaymentIntent's funds are captured (Stripe's `capture_method`); a value Stripe adds
/// later reads as ``unknown(_:)`` and is written back as sent.
public enum CaptureMethod: StripeOpenEnum {
    /// Captured when the payment is confirmed: a successful confirmation ends in `succeeded`.
    case automatic
    /// Captured when the payment is confirmed, the charge's balance details filled in
    /// asynchronously: a successful confirmation ends in `succeeded`. Stripe's default since API
    /// version 2024-04-10.
    case automaticAsync
    /// Authorized now, captured later: a successful confirmation ends in `requires_capture`.
    case manual
    /// A value this version does not know, as Stripe spelled it.
    case unknown(String)

    /// The known values.
    public static let allCases: [CaptureMethod] = [.automatic, .automaticAsync, .manual]

    /// The value as Stripe spells it.
    public var rawValue: String {
        switch self {
        case .automatic: "automatic"
        case .automaticAsync: "automatic_async"
        case .manual: "manual"
        case .unknown(let raw): raw
        }
    }
}
