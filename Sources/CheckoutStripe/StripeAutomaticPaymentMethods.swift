/// A PaymentIntent's `automatic_payment_methods`: the payment methods come from the Dashboard's
/// settings, and `allow_redirects` says whether those that redirect the customer may be offered.
public struct StripeAutomaticPaymentMethods: Hashable, Sendable {
    /// `always` (Stripe's default) or `never`; a value Stripe adds later reads as `unknown`.
    public enum AllowRedirects: StripeOpenEnum {
        /// Redirecting payment methods may be offered: a server-side confirmation needs a
        /// `return_url`.
        case always
        /// Only payment methods that never redirect.
        case never
        /// A value this version does not know, as Stripe spelled it.
        case unknown(String)

        /// The known values.
        public static let allCases: [AllowRedirects] = [.always, .never]

        /// The value as Stripe spells it.
        public var rawValue: String {
            switch self {
            case .always: "always"
            case .never: "never"
            case .unknown(let raw): raw
            }
        }
    }

    /// Whether automatic payment methods are on (`enabled`).
    public var enabled: Bool
    /// Whether redirecting payment methods may be offered (`allow_redirects`).
    public var allowRedirects: AllowRedirects

    /// Automatic payment methods, on and allowing redirects unless told otherwise.
    public init(enabled: Bool = true, allowRedirects: AllowRedirects = .always) {
        self.enabled = enabled
        self.allowRedirects = allowRedirects
    }

    /// Whether a server-side confirmation needs a `return_url` (Stripe refuses one without it
    /// while redirects are allowed).
    public var needsReturnURL: Bool { enabled && allowRedirects != .never }
}
