/// An event's `type`, such as `payment_intent.succeeded`; any name Stripe sends is kept.
public struct StripeEventType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The type as Stripe spells it.
    public var rawValue: String
    /// A type with this name, for types that have no constant here.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The type's name.
    public var description: String { rawValue }

    /// `payment_intent.succeeded`: a payment completed; fulfil the order.
    public static let paymentIntentSucceeded = StripeEventType(rawValue: "payment_intent.succeeded")
    /// `payment_intent.payment_failed`: a confirmation failed (`last_payment_error` says why).
    public static let paymentIntentPaymentFailed = StripeEventType(rawValue: "payment_intent.payment_failed")
    /// `payment_intent.requires_action`: the customer must authenticate.
    public static let paymentIntentRequiresAction = StripeEventType(rawValue: "payment_intent.requires_action")
    /// `payment_intent.amount_capturable_updated`: an authorization awaits capture.
    public static let paymentIntentAmountCapturableUpdated = StripeEventType(
        rawValue: "payment_intent.amount_capturable_updated")
    /// `payment_intent.canceled`: the PaymentIntent was cancelled.
    public static let paymentIntentCanceled = StripeEventType(rawValue: "payment_intent.canceled")
    /// `setup_intent.succeeded`: a card was saved for later.
    public static let setupIntentSucceeded = StripeEventType(rawValue: "setup_intent.succeeded")
    /// `setup_intent.setup_failed`: saving a card failed.
    public static let setupIntentSetupFailed = StripeEventType(rawValue: "setup_intent.setup_failed")
    /// `charge.succeeded`: a charge succeeded.
    public static let chargeSucceeded = StripeEventType(rawValue: "charge.succeeded")
    /// `charge.refunded`: a charge was refunded, in whole or in part.
    public static let chargeRefunded = StripeEventType(rawValue: "charge.refunded")
    /// `payment_method.attached`: a payment method was attached to a customer.
    public static let paymentMethodAttached = StripeEventType(rawValue: "payment_method.attached")

    /// Decodes from the type's name as a bare string; any name is accepted.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes as the type's name, a bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
