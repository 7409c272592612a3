import CheckoutCore

/// A Stripe Charge (`object: "charge"`): what a PaymentIntent's `latest_charge` is when expanded,
/// and the object of `charge.*` events.
///
/// The package models `id`, `amount`, `amount_refunded`, `currency` (any three letters, lower
/// case, as Stripe sent it), `status`, `paid`, `captured`, `refunded`, `payment_intent`,
/// `payment_method`, `receipt_url`, `outcome`, `payment_method_details` (whole, with the card's
/// wallet and 3-D Secure result typed), `metadata`, `livemode` and `created`; the rest is kept in
/// ``unmodeledFields`` and written back.
public struct StripeCharge: Hashable, Sendable, Codable, StripeFieldReading {
    /// `ch_…` (or `py_…`).
    public var id: String
    /// The amount in Stripe's integer units of ``currency``.
    public var amount: Int64
    /// How much of it was refunded (`amount_refunded`).
    public var amountRefunded: Int64?
    /// Three lower-case letters, as Stripe sent them.
    public var currency: String
    /// `succeeded`, `pending` or `failed`; any other value Stripe adds is kept.
    public var status: String
    /// Whether the charge succeeded or was authorized (`paid`).
    public var paid: Bool?
    /// Whether it was captured.
    public var captured: Bool?
    /// Whether it was refunded in full.
    public var refunded: Bool?
    /// The PaymentIntent it belongs to (`payment_intent`), by id.
    public var paymentIntentID: String?
    /// The payment method it was made with (`payment_method`), by id.
    public var paymentMethodID: String?
    /// The customer's receipt (`receipt_url`).
    public var receiptURL: String?
    /// What the network and Radar decided (`outcome`).
    public var outcome: Outcome?
    /// The payment method's details at the time of the charge (`payment_method_details`), whole.
    public var paymentMethodDetails: JSONValue?
    /// The merchant's key-value pairs, such as an `order_id`.
    public var metadata: [String: String]?
    /// Whether it lives in live mode.
    public var livemode: Bool
    /// When it was created, in seconds since 1970.
    public var created: Int64?
    /// Every field of Stripe's JSON not modeled above, as Stripe sent it.
    public var unmodeledFields: [String: JSONValue]

    /// A charge's `outcome`: the network's status, Radar's risk level and reason, the message for
    /// the merchant. Fields not modeled are kept.
    public struct Outcome: Hashable, Sendable, Codable {
        /// `approved_by_network`, `declined_by_network`, `not_sent_to_network`,
        /// `reversed_after_approval`.
        public var networkStatus: String?
        /// Why it was declined or blocked, such as `highest_risk_level`.
        public var reason: String?
        /// `normal`, `elevated`, `highest`, `not_assessed`, `unknown`.
        public var riskLevel: String?
        /// What to tell the merchant (`seller_message`).
        public var sellerMessage: String?
        /// `authorized`, `manual_review`, `issuer_declined`, `blocked`, `invalid`.
        public var type: String?
        /// Every other field of `outcome`, as Stripe sent it.
        public var unmodeledFields: [String: JSONValue]

        /// An outcome.
        public init(
            networkStatus: String? = nil, reason: String? = nil, riskLevel: String? = nil,
            sellerMessage: String? = nil, type: String? = nil, unmodeledFields: [String: JSONValue] = [:]
        ) {
            self.networkStatus = networkStatus
            self.reason = reason
            self.riskLevel = riskLevel
            self.sellerMessage = sellerMessage
            self.type = type
            self.unmodeledFields = unmodeledFields
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case reason, type
            case networkStatus = "network_status"
            case riskLevel = "risk_level"
            case sellerMessage = "seller_message"
        }

        /// Decodes Stripe's `outcome` hash.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                networkStatus: try container.decodeIfPresent(String.self, forKey: .networkStatus),
                reason: try container.decodeIfPresent(String.self, forKey: .reason),
                riskLevel: try container.decodeIfPresent(String.self, forKey: .riskLevel),
                sellerMessage: try container.decodeIfPresent(String.self, forKey: .sellerMessage),
                type: try container.decodeIfPresent(String.self, forKey: .type),
                unmodeledFields: try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self))
        }

        /// Encodes Stripe's `outcome` hash.
        public func encode(to encoder: any Encoder) throws {
            try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(networkStatus, forKey: .networkStatus)
            try container.encodeIfPresent(reason, forKey: .reason)
            try container.encodeIfPresent(riskLevel, forKey: .riskLevel)
            try container.encodeIfPresent(sellerMessage, forKey: .sellerMessage)
            try container.encodeIfPresent(type, forKey: .type)
        }
    }

    /// A charge.
    public init(
        id: String,
        amount: Int64,
        amountRefunded: Int64? = nil,
        currency: String,
        status: String,
        paid: Bool? = nil,
        captured: Bool? = nil,
        refunded: Bool? = nil,
        paymentIntentID: String? = nil,
        paymentMethodID: String? = nil,
        receiptURL: String? = nil,
        outcome: Outcome? = nil,
        paymentMethodDetails: JSONValue? = nil,
        metadata: [String: String]? = nil,
        livemode: Bool = false,
        created: Int64? = nil,
        unmodeledFields: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.amount = amount
        self.amountRefunded = amountRefunded
        self.currency = currency
        self.status = status
        self.paid = paid
        self.captured = captured
        self.refunded = refunded
        self.paymentIntentID = paymentIntentID
        self.paymentMethodID = paymentMethodID
        self.receiptURL = receiptURL
        self.outcome = outcome
        self.paymentMethodDetails = paymentMethodDetails
        self.metadata = metadata
        self.livemode = livemode
        self.created = created
        self.unmodeledFields = unmodeledFields
    }

    /// The wallet the card came from (`payment_method_details.card.wallet.type`: `apple_pay`,
    /// `google_pay`, `link`, ...).
    public var walletType: String? { paymentMethodDetails?.value(at: "card.wallet.type")?.stringValue }

    /// The 3-D Secure result (`payment_method_details.card.three_d_secure.result`:
    /// `authenticated`, `attempt_acknowledged`, `exempted`, `failed`, ...), when 3-D Secure ran.
    public var threeDSecureResult: String? {
        paymentMethodDetails?.value(at: "card.three_d_secure.result")?.stringValue
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, object, amount, currency, status, paid, captured, refunded, outcome, metadata, livemode, created
        case amountRefunded = "amount_refunded"
        case paymentIntent = "payment_intent"
        case paymentMethod = "payment_method"
        case receiptURL = "receipt_url"
        case paymentMethodDetails = "payment_method_details"
    }

    /// Decodes Stripe's Charge; `object` must be `charge` when present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try StripeObjectName.check(container, .object, expected: ["charge"])
        self.init(
            id: try container.decode(String.self, forKey: .id),
            amount: try container.decode(Int64.self, forKey: .amount),
            amountRefunded: try container.decodeIfPresent(Int64.self, forKey: .amountRefunded),
            currency: try StripeCurrency.decode(container, .currency),
            status: try container.decode(String.self, forKey: .status),
            paid: try container.decodeIfPresent(Bool.self, forKey: .paid),
            captured: try container.decodeIfPresent(Bool.self, forKey: .captured),
            refunded: try container.decodeIfPresent(Bool.self, forKey: .refunded),
            paymentIntentID: try container.decodeIfPresent(StripeExpandable.self, forKey: .paymentIntent)?.id,
            paymentMethodID: try container.decodeIfPresent(String.self, forKey: .paymentMethod),
            receiptURL: try container.decodeIfPresent(String.self, forKey: .receiptURL),
            outcome: try container.decodeIfPresent(Outcome.self, forKey: .outcome),
            paymentMethodDetails: try container.decodeIfPresent(JSONValue.self, forKey: .paymentMethodDetails),
            metadata: try container.decodeIfPresent([String: String].self, forKey: .metadata),
            livemode: try container.decodeIfPresent(Bool.self, forKey: .livemode) ?? false,
            created: try container.decodeIfPresent(Int64.self, forKey: .created),
            unmodeledFields: try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
        )
        // An expanded PaymentIntent is kept whole; ``paymentIntentID`` reads its id.
        if let intent = try container.decodeIfPresent(JSONValue.self, forKey: .paymentIntent), intent.objectValue != nil
        {
            unmodeledFields["payment_intent"] = intent
        }
    }

    /// Encodes Stripe's Charge, with `object: "charge"`.
    public func encode(to encoder: any Encoder) throws {
        try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode("charge", forKey: .object)
        try container.encode(amount, forKey: .amount)
        try container.encodeIfPresent(amountRefunded, forKey: .amountRefunded)
        try container.encode(currency, forKey: .currency)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(paid, forKey: .paid)
        try container.encodeIfPresent(captured, forKey: .captured)
        try container.encodeIfPresent(refunded, forKey: .refunded)
        if unmodeledFields["payment_intent"]?["id"]?.stringValue != paymentIntentID {
            try container.encodeIfPresent(paymentIntentID, forKey: .paymentIntent)
        }
        try container.encodeIfPresent(paymentMethodID, forKey: .paymentMethod)
        try container.encodeIfPresent(receiptURL, forKey: .receiptURL)
        try container.encodeIfPresent(outcome, forKey: .outcome)
        try container.encodeIfPresent(paymentMethodDetails, forKey: .paymentMethodDetails)
        try container.encodeIfPresent(metadata, forKey: .metadata)
        try container.encode(livemode, forKey: .livemode)
        try container.encodeIfPresent(created, forKey: .created)
    }
}
