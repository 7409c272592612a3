import CheckoutCore

/// A PaymentIntent (`object: "payment_intent"`) or SetupIntent (`object: "setup_intent"`), as
/// Stripe's JSON has it.
///
/// The package models `id`, `object` (as ``kind``), `status`, `amount` and `currency` (as
/// ``amount``, exact money), `confirmation_method`, `capture_method`, `payment_method`,
/// `shipping`, `last_payment_error` or `last_setup_error` (as ``lastError``), `next_action`,
/// `client_secret`, `latest_charge`, `livemode` and `created`. Other fields are accepted and not
/// kept. An empty `shipping` hash (Stripe's fixtures have one) reads as no shipping.
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
    /// The attached payment method, if any (`payment_method`, its id when Stripe expanded it).
    public var paymentMethodID: String?
    /// Shipping details set on the intent, if any.
    public var shipping: ShippingDetails?
    /// The error of the last failed confirmation (`last_payment_error`, `last_setup_error`).
    public var lastError: StripeError?
    /// What the customer must do next, for `requires_action` (`next_action`).
    public var nextAction: StripeNextAction?
    /// The intent's client secret, when Stripe sent it; masked in every description.
    public var clientSecret: IntentClientSecret?
    /// The PaymentIntent's latest charge (`latest_charge`, `ch_…`), if any.
    public var latestChargeID: String?
    /// Whether the intent lives in live mode.
    public var livemode: Bool
    /// When it was created, in seconds since 1970; nil when unknown.
    public var created: Int64?

    /// An intent as a backend reports it; a PaymentIntent is confirmed automatically and
    /// captured with Stripe's default, `automatic_async`, unless told otherwise.
    public init(
        id: String,
        kind: IntentClientSecret.Kind,
        status: IntentStatus,
        amount: Money? = nil,
        confirmationMethod: ConfirmationMethod = .automatic,
        captureMethod: CaptureMethod = .automaticAsync,
        paymentMethodID: String? = nil,
        shipping: ShippingDetails? = nil,
        lastError: StripeError? = nil,
        nextAction: StripeNextAction? = nil,
        clientSecret: IntentClientSecret? = nil,
        latestChargeID: String? = nil,
        livemode: Bool = false,
        created: Int64? = nil
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
        self.nextAction = nextAction
        self.clientSecret = clientSecret
        self.latestChargeID = latestChargeID
        self.livemode = livemode
        self.created = created
    }

    private enum CodingKeys: String, CodingKey {
        case id, object, status, amount, currency, shipping, livemode, created
        case confirmationMethod = "confirmation_method"
        case captureMethod = "capture_method"
        case paymentMethod = "payment_method"
        case lastPaymentError = "last_payment_error"
        case lastSetupError = "last_setup_error"
        case nextAction = "next_action"
        case clientSecret = "client_secret"
        case latestCharge = "latest_charge"
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct Expandable: Decodable {
        let id: String
        init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                id = text
            } else {
                id = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .id)
            }
        }
    }

    /// Decodes Stripe's PaymentIntent or SetupIntent; `object` says which (without it, the id's
    /// prefix does).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        let kind: IntentClientSecret.Kind
        switch try container.decodeIfPresent(String.self, forKey: .object) {
        case "payment_intent": kind = .paymentIntent
        case "setup_intent": kind = .setupIntent
        case nil where id.hasPrefix("seti_"): kind = .setupIntent
        case nil where id.hasPrefix("pi_"): kind = .paymentIntent
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .object, in: container,
                debugDescription: "expected object payment_intent or setup_intent, found \(other ?? "none")")
        }
        var amount: Money?
        if kind == .paymentIntent, let minor = try container.decodeIfPresent(Int64.self, forKey: .amount) {
            let code = try container.decode(String.self, forKey: .currency)
            amount = try decoder.validating(at: CodingKeys.amount) {
                try Money(stripeAmount: minor, currency: try CurrencyCode(code.uppercased()))
            }
        }
        let lastErrorKey: CodingKeys = kind == .paymentIntent ? .lastPaymentError : .lastSetupError
        var shipping: ShippingDetails?
        if container.contains(.shipping), try !container.decodeNil(forKey: .shipping) {
            let hash = try container.nestedContainer(keyedBy: AnyKey.self, forKey: .shipping)
            if !hash.allKeys.isEmpty { shipping = try container.decode(ShippingDetails.self, forKey: .shipping) }
        }
        let secret = try container.decodeIfPresent(String.self, forKey: .clientSecret)
        self.init(
            id: id,
            kind: kind,
            status: try container.decode(IntentStatus.self, forKey: .status),
            amount: amount,
            confirmationMethod: try container.decodeIfPresent(ConfirmationMethod.self, forKey: .confirmationMethod)
                ?? .automatic,
            captureMethod: try container.decodeIfPresent(CaptureMethod.self, forKey: .captureMethod) ?? .automaticAsync,
            paymentMethodID: try container.decodeIfPresent(Expandable.self, forKey: .paymentMethod)?.id,
            shipping: shipping,
            lastError: try container.decodeIfPresent(StripeError.self, forKey: lastErrorKey),
            nextAction: try container.decodeIfPresent(StripeNextAction.self, forKey: .nextAction),
            clientSecret: try secret.map { text in
                try decoder.validating(at: CodingKeys.clientSecret) { try IntentClientSecret(text) }
            },
            latestChargeID: try container.decodeIfPresent(Expandable.self, forKey: .latestCharge)?.id,
            livemode: try container.decodeIfPresent(Bool.self, forKey: .livemode) ?? false,
            created: try container.decodeIfPresent(Int64.self, forKey: .created)
        )
    }

    /// Encodes Stripe's PaymentIntent or SetupIntent; `amount` as Stripe's integer and `currency`
    /// in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind == .paymentIntent ? "payment_intent" : "setup_intent", forKey: .object)
        try container.encode(status, forKey: .status)
        if kind == .paymentIntent {
            if let amount {
                try container.encode(try amount.stripeAmount(), forKey: .amount)
                try container.encode(amount.currency.code.lowercased(), forKey: .currency)
            }
            try container.encode(confirmationMethod, forKey: .confirmationMethod)
            try container.encode(captureMethod, forKey: .captureMethod)
        }
        try container.encodeIfPresent(paymentMethodID, forKey: .paymentMethod)
        try container.encodeIfPresent(shipping, forKey: .shipping)
        try container.encodeIfPresent(lastError, forKey: kind == .paymentIntent ? .lastPaymentError : .lastSetupError)
        try container.encodeIfPresent(nextAction, forKey: .nextAction)
        try container.encodeIfPresent(clientSecret, forKey: .clientSecret)
        try container.encodeIfPresent(latestChargeID, forKey: .latestCharge)
        try container.encode(livemode, forKey: .livemode)
        try container.encodeIfPresent(created, forKey: .created)
    }
}
