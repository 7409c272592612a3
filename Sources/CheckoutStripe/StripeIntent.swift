import CheckoutCore

/// A PaymentIntent (`object: "payment_intent"`) or SetupIntent (`object: "setup_intent"`), as
/// Stripe's JSON has it.
///
/// The package models `id`, `object` (as ``kind``), `status`, `amount` and `currency` (as
/// ``amount``, exact money), `amount_received`, `amount_capturable`, `confirmation_method`,
/// `capture_method`, `payment_method` (its id, and the object when Stripe expanded it),
/// `shipping`, `last_payment_error` or `last_setup_error` (as ``lastError``), `next_action`,
/// `client_secret`, `latest_charge` (its id, and the Charge when expanded), `customer`,
/// `metadata`, `setup_future_usage`, `cancellation_reason`, `canceled_at`, `livemode` and
/// `created`. Every other field is kept in ``unmodeledFields`` and written back; read any field
/// with ``StripeFieldReading/field(_:)``. An empty `shipping` hash (Stripe's fixtures have one)
/// reads as no shipping and is written back as it came.
///
/// Tolerant where Stripe evolves (spec P10): a currency outside the ISO 4217 table (a withdrawn
/// `bgn`) leaves ``amount`` nil and keeps `amount` and `currency` as sent (``currency`` and
/// ``amountInStripeUnits`` read them); a `client_secret` of a shape the package does not know
/// leaves ``clientSecret`` nil and is kept, masked in every description, to be written back;
/// unknown enum values read as `unknown(raw)`.
public struct StripeIntent: Hashable, Sendable, Codable, StripeFieldReading {
    /// `pi_…` or `seti_…`.
    public var id: String
    /// PaymentIntent or SetupIntent.
    public var kind: IntentClientSecret.Kind
    /// The intent's status.
    public var status: IntentStatus
    /// For a PaymentIntent: the amount. Nil for a SetupIntent, and for a currency outside the ISO
    /// table (see ``currency``).
    public var amount: Money?
    /// For a PaymentIntent: how much was received (`amount_received`), in Stripe's units.
    public var amountReceived: Int64?
    /// For a PaymentIntent: how much may still be captured (`amount_capturable`).
    public var amountCapturable: Int64?
    /// For a PaymentIntent: who may confirm it.
    public var confirmationMethod: ConfirmationMethod
    /// For a PaymentIntent: when it captures.
    public var captureMethod: CaptureMethod
    /// The attached payment method, if any (`payment_method`, its id when Stripe expanded it).
    public var paymentMethodID: String?
    /// The attached payment method when Stripe expanded it (`expand[]=payment_method`).
    public var paymentMethod: StripePaymentMethod?
    /// Shipping details set on the intent, if any.
    public var shipping: ShippingDetails?
    /// The error of the last failed confirmation (`last_payment_error`, `last_setup_error`).
    public var lastError: StripeError?
    /// What the customer must do next, for `requires_action` (`next_action`).
    public var nextAction: StripeNextAction?
    /// The intent's client secret, when Stripe sent one of a known shape; masked in every
    /// description.
    public var clientSecret: IntentClientSecret?
    /// The PaymentIntent's latest charge (`latest_charge`, `ch_…`), if any.
    public var latestChargeID: String?
    /// The latest charge when Stripe expanded it (`expand[]=latest_charge`): its receipt, outcome,
    /// wallet and 3-D Secure result.
    public var latestCharge: StripeCharge?
    /// The customer (`customer`, `cus_…`), by id.
    public var customerID: String?
    /// The merchant's key-value pairs (`metadata`), such as an `order_id`.
    public var metadata: [String: String]?
    /// Whether the payment method is saved for later use (`setup_future_usage`).
    public var setupFutureUsage: SetupFutureUsage?
    /// Why the intent was cancelled (`cancellation_reason`: `requested_by_customer`,
    /// `abandoned`, `duplicate`, ...).
    public var cancellationReason: String?
    /// When it was cancelled (`canceled_at`), in seconds since 1970.
    public var canceledAt: Int64?
    /// Whether the intent lives in live mode.
    public var livemode: Bool
    /// When it was created, in seconds since 1970; nil when unknown.
    public var created: Int64?
    /// Every field of Stripe's JSON not modeled above, as Stripe sent it.
    public var unmodeledFields: [String: JSONValue]
    /// A `client_secret` of a shape ``clientSecret`` does not take, kept masked to be written back.
    private var opaqueClientSecret: StripeOpaqueSecret?

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
        self.unmodeledFields = [:]
    }

    /// The currency as Stripe sent it (three lower-case letters), ISO or not; nil for a
    /// SetupIntent.
    public var currency: String? {
        amount.map { $0.currency.code.lowercased() } ?? unmodeledFields["currency"]?.stringValue
    }

    /// The amount in Stripe's integer units, ISO currency or not; nil for a SetupIntent.
    public var amountInStripeUnits: Int64? {
        if let amount { return try? amount.stripeAmount() }
        return unmodeledFields["amount"]?.integerValue
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, object, status, amount, currency, shipping, livemode, created, customer, metadata
        case amountReceived = "amount_received"
        case amountCapturable = "amount_capturable"
        case confirmationMethod = "confirmation_method"
        case captureMethod = "capture_method"
        case paymentMethod = "payment_method"
        case lastPaymentError = "last_payment_error"
        case lastSetupError = "last_setup_error"
        case nextAction = "next_action"
        case clientSecret = "client_secret"
        case latestCharge = "latest_charge"
        case setupFutureUsage = "setup_future_usage"
        case cancellationReason = "cancellation_reason"
        case canceledAt = "canceled_at"
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
        var kept = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
        var amount: Money?
        if kind == .paymentIntent, let minor = try container.decodeIfPresent(Int64.self, forKey: .amount) {
            let code = try StripeCurrency.decode(container, .currency)
            if let currency = try? CurrencyCode(code) {
                amount = try decoder.validating(at: CodingKeys.amount) {
                    try Money(stripeAmount: minor, currency: currency)
                }
            } else {
                kept["amount"] = .integer(minor)
                kept["currency"] = .string(code)
            }
        }
        var shipping: ShippingDetails?
        if try container.decodeIfPresent(JSONValue.self, forKey: .shipping).map({ $0 != .object([:]) }) ?? false {
            shipping = try container.decode(ShippingDetails.self, forKey: .shipping)
        }
        var clientSecret: IntentClientSecret?
        var opaqueSecret: StripeOpaqueSecret?
        if let text = try container.decodeIfPresent(String.self, forKey: .clientSecret) {
            clientSecret = try? IntentClientSecret(text)
            if clientSecret == nil { opaqueSecret = StripeOpaqueSecret(value: text) }
        }
        let paymentMethod = try container.decodeIfPresent(JSONValue.self, forKey: .paymentMethod)
        let latestCharge = try container.decodeIfPresent(JSONValue.self, forKey: .latestCharge)
        if container.contains(.customer), try !container.decodeNil(forKey: .customer),
            try container.decode(JSONValue.self, forKey: .customer).stringValue == nil
        {
            // An expanded customer is kept whole; ``customerID`` reads its id.
            kept["customer"] = try container.decode(JSONValue.self, forKey: .customer)
        }
        self.init(
            id: id,
            kind: kind,
            status: try container.decode(IntentStatus.self, forKey: .status),
            amount: amount,
            confirmationMethod: try container.decodeIfPresent(ConfirmationMethod.self, forKey: .confirmationMethod)
                ?? .automatic,
            captureMethod: try container.decodeIfPresent(CaptureMethod.self, forKey: .captureMethod) ?? .automaticAsync,
            paymentMethodID: try container.decodeIfPresent(StripeExpandable.self, forKey: .paymentMethod)?.id,
            shipping: shipping,
            lastError: try container.decodeIfPresent(
                StripeError.self, forKey: kind == .paymentIntent ? .lastPaymentError : .lastSetupError),
            nextAction: try container.decodeIfPresent(StripeNextAction.self, forKey: .nextAction),
            clientSecret: clientSecret,
            latestChargeID: try container.decodeIfPresent(StripeExpandable.self, forKey: .latestCharge)?.id,
            livemode: try container.decodeIfPresent(Bool.self, forKey: .livemode) ?? false,
            created: try container.decodeIfPresent(Int64.self, forKey: .created)
        )
        if paymentMethod?.objectValue != nil {
            self.paymentMethod = try container.decode(StripePaymentMethod.self, forKey: .paymentMethod)
        }
        if latestCharge?.objectValue != nil {
            self.latestCharge = try container.decode(StripeCharge.self, forKey: .latestCharge)
        }
        amountReceived = try container.decodeIfPresent(Int64.self, forKey: .amountReceived)
        amountCapturable = try container.decodeIfPresent(Int64.self, forKey: .amountCapturable)
        customerID = try container.decodeIfPresent(StripeExpandable.self, forKey: .customer)?.id
        metadata = try container.decodeIfPresent([String: String].self, forKey: .metadata)
        setupFutureUsage = try container.decodeIfPresent(SetupFutureUsage.self, forKey: .setupFutureUsage)
        cancellationReason = try container.decodeIfPresent(String.self, forKey: .cancellationReason)
        canceledAt = try container.decodeIfPresent(Int64.self, forKey: .canceledAt)
        unmodeledFields = kept
        opaqueClientSecret = opaqueSecret
    }

    /// Encodes Stripe's PaymentIntent or SetupIntent: the kept fields, then the members; `amount`
    /// as Stripe's integer and `currency` in lower case.
    public func encode(to encoder: any Encoder) throws {
        try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind == .paymentIntent ? "payment_intent" : "setup_intent", forKey: .object)
        try container.encode(status, forKey: .status)
        if kind == .paymentIntent {
            if let amount {
                try container.encode(try amount.stripeAmount(), forKey: .amount)
                try container.encode(amount.currency.code.lowercased(), forKey: .currency)
            }
            try container.encodeIfPresent(amountReceived, forKey: .amountReceived)
            try container.encodeIfPresent(amountCapturable, forKey: .amountCapturable)
            try container.encode(confirmationMethod, forKey: .confirmationMethod)
            try container.encode(captureMethod, forKey: .captureMethod)
        }
        if let paymentMethod, paymentMethod.id == paymentMethodID {
            try container.encode(paymentMethod, forKey: .paymentMethod)
        } else {
            try container.encodeIfPresent(paymentMethodID, forKey: .paymentMethod)
        }
        try container.encodeIfPresent(shipping, forKey: .shipping)
        try container.encodeIfPresent(lastError, forKey: kind == .paymentIntent ? .lastPaymentError : .lastSetupError)
        try container.encodeIfPresent(nextAction, forKey: .nextAction)
        try container.encodeIfPresent(clientSecret, forKey: .clientSecret)
        if clientSecret == nil { try container.encodeIfPresent(opaqueClientSecret?.value, forKey: .clientSecret) }
        if let latestCharge, latestCharge.id == latestChargeID {
            try container.encode(latestCharge, forKey: .latestCharge)
        } else {
            try container.encodeIfPresent(latestChargeID, forKey: .latestCharge)
        }
        if unmodeledFields["customer"]?.value(at: "id")?.stringValue != customerID {
            try container.encodeIfPresent(customerID, forKey: .customer)
        }
        try container.encodeIfPresent(metadata, forKey: .metadata)
        try container.encodeIfPresent(setupFutureUsage, forKey: .setupFutureUsage)
        try container.encodeIfPresent(cancellationReason, forKey: .cancellationReason)
        try container.encodeIfPresent(canceledAt, forKey: .canceledAt)
        try container.encode(livemode, forKey: .livemode)
        try container.encodeIfPresent(created, forKey: .created)
    }
}
