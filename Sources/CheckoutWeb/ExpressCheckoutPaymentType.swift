/// The wallet or method behind the Express Checkout Element's button the customer used
/// (`expressPaymentType`: `apple_pay`, `google_pay`, `link`, `paypal`, `amazon_pay`, `klarna`;
/// stripe-js `ExpressPaymentType`; source: docs.stripe.com/js/elements_object/express_checkout_element_click_event).
/// An open set: a name Stripe adds later is kept as sent.
public struct ExpressCheckoutPaymentType: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The name as Stripe spells it.
    public var rawValue: String
    /// A type with this name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name.
    public var description: String { rawValue }

    /// Apple Pay.
    public static let applePay = ExpressCheckoutPaymentType(rawValue: "apple_pay")
    /// Google Pay.
    public static let googlePay = ExpressCheckoutPaymentType(rawValue: "google_pay")
    /// Link.
    public static let link = ExpressCheckoutPaymentType(rawValue: "link")
    /// PayPal.
    public static let paypal = ExpressCheckoutPaymentType(rawValue: "paypal")
    /// Amazon Pay.
    public static let amazonPay = ExpressCheckoutPaymentType(rawValue: "amazon_pay")
    /// Klarna.
    public static let klarna = ExpressCheckoutPaymentType(rawValue: "klarna")

    /// Reads a bare string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes a bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
