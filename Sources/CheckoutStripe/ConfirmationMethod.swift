/// Who confirms a PaymentIntent (Stripe's `confirmation_method`); a value Stripe adds later reads
/// as ``unknown(_:)`` and is written back as sent.
public enum ConfirmationMethod: StripeOpenEnum {
    /// The client may confirm with the publishable key.
    case automatic
    /// Only the merchant's server confirms.
    case manual
    /// A value this version does not know, as Stripe spelled it.
    case unknown(String)

    /// The known values.
    public static let allCases: [ConfirmationMethod] = [.automatic, .manual]

    /// The value as Stripe spells it.
    public var rawValue: String {
        switch self {
        case .automatic: "automatic"
        case .manual: "manual"
        case .unknown(let raw): raw
        }
    }
}
