import CheckoutCore

/// The status of a PaymentIntent or SetupIntent, with Stripe's names.
public struct IntentStatus: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The status as Stripe's API spells it, such as `requires_payment_method`.
    public var rawValue: String
    /// A status with this name, for statuses that have no constant here.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The status's name.
    public var description: String { rawValue }

    /// `requires_payment_method`: the intent needs a payment method (also after a decline).
    public static let requiresPaymentMethod = IntentStatus(rawValue: "requires_payment_method")
    /// `requires_confirmation`: the intent has a payment method and waits to be confirmed.
    public static let requiresConfirmation = IntentStatus(rawValue: "requires_confirmation")
    /// `requires_action`: the customer must act, for example for 3-D Secure.
    public static let requiresAction = IntentStatus(rawValue: "requires_action")
    /// `processing`: the payment is being processed.
    public static let processing = IntentStatus(rawValue: "processing")
    /// `requires_capture`: authorized, to be captured later (manual capture).
    public static let requiresCapture = IntentStatus(rawValue: "requires_capture")
    /// `succeeded`: the payment or setup is complete.
    public static let succeeded = IntentStatus(rawValue: "succeeded")
    /// `canceled`: the intent was cancelled.
    public static let canceled = IntentStatus(rawValue: "canceled")

    /// Decodes from the status's name as a bare string; any name is accepted.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes as the status's name, a bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
