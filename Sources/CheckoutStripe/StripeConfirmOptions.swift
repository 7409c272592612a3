import CheckoutCore

/// What a confirmation (or a ConfirmationToken) sends beside the payment method, as Stripe's
/// newer confirm paths take it: `return_url`, `setup_future_usage` and `payment_method_options`.
public struct StripeConfirmOptions: Hashable, Sendable {
    /// Where the customer comes back to after authenticating on a page of the bank
    /// (`return_url`); with it, a 3-D Secure challenge is a `redirect_to_url` next action.
    public var returnURL: String?
    /// Saves the payment method for later (`setup_future_usage`), PaymentIntents only.
    public var setupFutureUsage: SetupFutureUsage?
    /// Stripe's `payment_method_options` hash, as Stripe names it: for example
    /// `["card": ["request_three_d_secure": "any"]]` or `["card": ["capture_method": "manual"]]`.
    public var paymentMethodOptions: [String: JSONValue]?

    /// Options; none by default.
    public init(
        returnURL: String? = nil, setupFutureUsage: SetupFutureUsage? = nil,
        paymentMethodOptions: [String: JSONValue]? = nil
    ) {
        self.returnURL = returnURL
        self.setupFutureUsage = setupFutureUsage
        self.paymentMethodOptions = paymentMethodOptions
    }

    /// The card's `request_three_d_secure` (`automatic`, `any`, `challenge`), when set.
    public var requestThreeDSecure: String? {
        paymentMethodOptions?["card"]?.value(at: "request_three_d_secure")?.stringValue
    }

    /// The card's own `capture_method` (`manual` overrides the intent's), when set.
    public var cardCaptureMethod: CaptureMethod? {
        paymentMethodOptions?["card"]?.value(at: "capture_method")?.stringValue.map(CaptureMethod.init(rawValue:))
    }
}
