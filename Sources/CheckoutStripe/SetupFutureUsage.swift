/// How a payment method will be used again (Stripe's `setup_future_usage`, on a PaymentIntent,
/// a confirmation or a ConfirmationToken); a value Stripe adds later reads as ``unknown(_:)``.
public enum SetupFutureUsage: StripeOpenEnum {
    /// Charged again while the customer is away (`off_session`): the card is authenticated for it.
    case offSession
    /// Used again only while the customer is present (`on_session`).
    case onSession
    /// A value this version does not know, as Stripe spelled it.
    case unknown(String)

    /// The known values.
    public static let allCases: [SetupFutureUsage] = [.offSession, .onSession]

    /// The value as Stripe spells it.
    public var rawValue: String {
        switch self {
        case .offSession: "off_session"
        case .onSession: "on_session"
        case .unknown(let raw): raw
        }
    }
}
