import CheckoutCore

/// A PaymentIntent or SetupIntent as the client sees it.
public struct StripeIntent: Hashable, Sendable, Codable {
    /// `pi_…` or `seti_…`.
    public var id: String
    /// PaymentIntent or SetupIntent.
    public var kind: IntentClientSecret.Kind
    /// The intent's status.
    public var status: IntentStatus
    /// For a PaymentIntent: the amount. Nil for a SetupIntent.
    public var amount: Money?
    /// For a PaymentIntent: who may confirm it.
    public var confirmationMethod: ConfirmationMethod
    /// For a PaymentIntent: when it captures.
    public var captureMethod: CaptureMethod
    /// The attached payment method, if any.
    public var paymentMethodID: String?
    /// Shipping details set on the intent, if any.
    public var shipping: ShippingDetails?
    /// The error of the last failed confirmation.
    public var lastError: StripeError?

    /// An intent as a backend reports it; a PaymentIntent is confirmed and captured
    /// automatically unless told otherwise.
    public init(
        id: String,
        kind: IntentClientSecret.Kind,
        status: IntentStatus,
        amount: Money? = nil,
        confirmationMethod: ConfirmationMethod = .automatic,
        captureMethod: CaptureMethod = .automatic,
        paymentMethodID: String? = nil,
        shipping: ShippingDetails? = nil,
        lastError: StripeError? = nil
    ) {
        self.id = id
        self.kind = kind
        self.status = status
        self.amount = amount
        self.confirmationMethod = confirmationMethod
        self.captureMethod = captureMethod
        self.paymentMethodID = paymentMethodID
        self.shipping = shipping
        self.lastError = lastError
    }
}
