import CheckoutCore

/// A ConfirmationToken (`object: "confirmation_token"`, `ctoken_…`): the payment method's data
/// and the confirmation's options collected on the client, which the server confirms an intent
/// with (`confirmation_token`). It is used once: ``paymentIntentID`` or ``setupIntentID`` names
/// the intent it confirmed.
///
/// The package models `id`, `created`, `expires_at`, `livemode`, `payment_intent`, `setup_intent`,
/// `payment_method_preview` (whole, with the card's brand and last four digits typed),
/// `payment_method_options`, `return_url`, `setup_future_usage` and `shipping`; the rest is kept
/// in ``unmodeledFields`` and written back.
public struct StripeConfirmationToken: Hashable, Sendable, Codable, StripeFieldReading {
    /// `ctoken_…`.
    public var id: String
    /// When it was created, in seconds since 1970.
    public var created: Int64
    /// When it can no longer be used (`expires_at`), in seconds since 1970.
    public var expiresAt: Int64?
    /// Whether it lives in live mode.
    public var livemode: Bool
    /// The PaymentIntent it confirmed (`payment_intent`); nil while unused.
    public var paymentIntentID: String?
    /// The SetupIntent it confirmed (`setup_intent`); nil while unused.
    public var setupIntentID: String?
    /// The payment method the confirmation will create (`payment_method_preview`), whole.
    public var paymentMethodPreview: JSONValue?
    /// The options the confirmation takes from the token.
    public var options: StripeConfirmOptions
    /// The shipping details the confirmation sets.
    public var shipping: ShippingDetails?
    /// Every field of Stripe's JSON not modeled above, as Stripe sent it.
    public var unmodeledFields: [String: JSONValue] = [:]

    /// A token.
    public init(
        id: String, created: Int64, expiresAt: Int64? = nil, livemode: Bool = false, paymentIntentID: String? = nil,
        setupIntentID: String? = nil, paymentMethodPreview: JSONValue? = nil,
        options: StripeConfirmOptions = StripeConfirmOptions(), shipping: ShippingDetails? = nil
    ) {
        self.id = id
        self.created = created
        self.expiresAt = expiresAt
        self.livemode = livemode
        self.paymentIntentID = paymentIntentID
        self.setupIntentID = setupIntentID
        self.paymentMethodPreview = paymentMethodPreview
        self.options = options
        self.shipping = shipping
    }

    /// The previewed card's brand (`payment_method_preview.card.brand`), for a card.
    public var cardBrand: String? { paymentMethodPreview?.value(at: "card.brand")?.stringValue }
    /// The previewed card's last four digits, for a card.
    public var cardLast4: String? { paymentMethodPreview?.value(at: "card.last4")?.stringValue }
    /// Whether it confirmed an intent already.
    public var isUsed: Bool { paymentIntentID != nil || setupIntentID != nil }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, object, created, livemode, shipping
        case expiresAt = "expires_at"
        case paymentIntent = "payment_intent"
        case setupIntent = "setup_intent"
        case paymentMethodPreview = "payment_method_preview"
        case paymentMethodOptions = "payment_method_options"
        case returnURL = "return_url"
        case setupFutureUsage = "setup_future_usage"
    }

    /// Decodes Stripe's ConfirmationToken; `object` must be `confirmation_token` when present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try StripeObjectName.check(container, .object, expected: ["confirmation_token"])
        self.init(
            id: try container.decode(String.self, forKey: .id),
            created: try container.decode(Int64.self, forKey: .created),
            expiresAt: try container.decodeIfPresent(Int64.self, forKey: .expiresAt),
            livemode: try container.decodeIfPresent(Bool.self, forKey: .livemode) ?? false,
            paymentIntentID: try container.decodeIfPresent(StripeExpandable.self, forKey: .paymentIntent)?.id,
            setupIntentID: try container.decodeIfPresent(StripeExpandable.self, forKey: .setupIntent)?.id,
            paymentMethodPreview: try container.decodeIfPresent(JSONValue.self, forKey: .paymentMethodPreview),
            options: StripeConfirmOptions(
                returnURL: try container.decodeIfPresent(String.self, forKey: .returnURL),
                setupFutureUsage: try container.decodeIfPresent(SetupFutureUsage.self, forKey: .setupFutureUsage),
                paymentMethodOptions: try container.decodeIfPresent(
                    [String: JSONValue].self, forKey: .paymentMethodOptions)),
            shipping: try container.decodeIfPresent(ShippingDetails.self, forKey: .shipping))
        unmodeledFields = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
    }

    /// Encodes Stripe's ConfirmationToken, with `object: "confirmation_token"`.
    public func encode(to encoder: any Encoder) throws {
        try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode("confirmation_token", forKey: .object)
        try container.encode(created, forKey: .created)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encode(livemode, forKey: .livemode)
        try container.encodeIfPresent(paymentIntentID, forKey: .paymentIntent)
        try container.encodeIfPresent(setupIntentID, forKey: .setupIntent)
        try container.encodeIfPresent(paymentMethodPreview, forKey: .paymentMethodPreview)
        try container.encodeIfPresent(options.paymentMethodOptions, forKey: .paymentMethodOptions)
        try container.encodeIfPresent(options.returnURL, forKey: .returnURL)
        try container.encodeIfPresent(options.setupFutureUsage, forKey: .setupFutureUsage)
        try container.encodeIfPresent(shipping, forKey: .shipping)
    }
}
