import CheckoutCore

/// Stripe's error object (`type`, `code`, `decline_code`, `message`, `param`, ...), decoded whole
/// from Stripe's JSON; ``StripeErrorResponse`` is the `{"error": {...}}` envelope around it.
///
/// Stripe documents `type` alone as always present. A missing `message` reads as the empty
/// string and is left out again when encoding. Fields not modeled (such as `user_message`) are
/// kept in ``unmodeledFields`` and written back.
public struct StripeError: Error, Hashable, Sendable, Codable, CustomStringConvertible, StripeFieldReading {
    /// `card_error`, `invalid_request_error`, `api_error`, `idempotency_error`, ...
    public var type: String
    /// Stripe's error code: `card_declined`, `incorrect_zip`, `expired_card`, ...
    public var code: String?
    /// For a declined card: `generic_decline`, `insufficient_funds`, `lost_card`, ...
    public var declineCode: String?
    /// Stripe's message; empty when Stripe sent none.
    public var message: String
    /// The parameter the error is about, such as `payment_method` or `card[number]`.
    public var param: String?
    /// A link to Stripe's documentation of the code (`doc_url`).
    public var docURL: String?
    /// A link to the request in Stripe's dashboard (`request_log_url`).
    public var requestLogURL: String?
    /// The charge the error concerns (`charge`), for card errors.
    public var charge: String?
    /// What to do about a declined card (`advice_code`), such as `try_again_later`.
    public var adviceCode: String?
    /// The card network's advice code (`network_advice_code`).
    public var networkAdviceCode: String?
    /// The card network's own decline code (`network_decline_code`).
    public var networkDeclineCode: String?
    /// The payment method's type when the error concerns one (`payment_method_type`).
    public var paymentMethodType: String?
    /// The payment method the error concerns (`payment_method`).
    public var paymentMethod: StripePaymentMethod?
    /// Every field of Stripe's error not modeled here (`user_message`, ...), as Stripe sent it.
    public var unmodeledFields: [String: JSONValue] = [:]
    // Held in arrays: an intent holds its last error, so a stored intent here would make the
    // struct infinitely large.
    private var paymentIntentStorage: [StripeIntent]
    private var setupIntentStorage: [StripeIntent]

    /// The PaymentIntent the error concerns (`payment_intent`).
    public var paymentIntent: StripeIntent? {
        get { paymentIntentStorage.first }
        set { paymentIntentStorage = newValue.map { [$0] } ?? [] }
    }

    /// The SetupIntent the error concerns (`setup_intent`).
    public var setupIntent: StripeIntent? {
        get { setupIntentStorage.first }
        set { setupIntentStorage = newValue.map { [$0] } ?? [] }
    }

    /// An error with Stripe's type, code, decline code and message, and any of Stripe's other
    /// fields.
    public init(
        type: String,
        code: String? = nil,
        declineCode: String? = nil,
        message: String,
        param: String? = nil,
        docURL: String? = nil,
        requestLogURL: String? = nil,
        charge: String? = nil,
        adviceCode: String? = nil,
        networkAdviceCode: String? = nil,
        networkDeclineCode: String? = nil,
        paymentMethodType: String? = nil,
        paymentMethod: StripePaymentMethod? = nil,
        paymentIntent: StripeIntent? = nil,
        setupIntent: StripeIntent? = nil
    ) {
        self.type = type
        self.code = code
        self.declineCode = declineCode
        self.message = message
        self.param = param
        self.docURL = docURL
        self.requestLogURL = requestLogURL
        self.charge = charge
        self.adviceCode = adviceCode
        self.networkAdviceCode = networkAdviceCode
        self.networkDeclineCode = networkDeclineCode
        self.paymentMethodType = paymentMethodType
        self.paymentMethod = paymentMethod
        self.paymentIntentStorage = paymentIntent.map { [$0] } ?? []
        self.setupIntentStorage = setupIntent.map { [$0] } ?? []
    }

    /// Whether this is a card error (`type == "card_error"`).
    public var isCardError: Bool { type == "card_error" }

    /// `type/code/declineCode: message`, such as
    /// `card_error/card_declined/generic_decline: Your card was declined.`, with `(param)` when
    /// Stripe named one.
    public var description: String {
        "\(type)" + (code.map { "/\($0)" } ?? "") + (declineCode.map { "/\($0)" } ?? "") + ": \(message)"
            + (param.map { " (\($0))" } ?? "")
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case type
        case code
        case declineCode = "decline_code"
        case message
        case param
        case docURL = "doc_url"
        case requestLogURL = "request_log_url"
        case charge
        case adviceCode = "advice_code"
        case networkAdviceCode = "network_advice_code"
        case networkDeclineCode = "network_decline_code"
        case paymentMethodType = "payment_method_type"
        case paymentMethod = "payment_method"
        case paymentIntent = "payment_intent"
        case setupIntent = "setup_intent"
    }

    /// Decodes Stripe's error object; only `type` is required.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            type: try container.decode(String.self, forKey: .type),
            code: try container.decodeIfPresent(String.self, forKey: .code),
            declineCode: try container.decodeIfPresent(String.self, forKey: .declineCode),
            message: try container.decodeIfPresent(String.self, forKey: .message) ?? "",
            param: try container.decodeIfPresent(String.self, forKey: .param),
            docURL: try container.decodeIfPresent(String.self, forKey: .docURL),
            requestLogURL: try container.decodeIfPresent(String.self, forKey: .requestLogURL),
            charge: try container.decodeIfPresent(String.self, forKey: .charge),
            adviceCode: try container.decodeIfPresent(String.self, forKey: .adviceCode),
            networkAdviceCode: try container.decodeIfPresent(String.self, forKey: .networkAdviceCode),
            networkDeclineCode: try container.decodeIfPresent(String.self, forKey: .networkDeclineCode),
            paymentMethodType: try container.decodeIfPresent(String.self, forKey: .paymentMethodType),
            paymentMethod: try container.decodeIfPresent(StripePaymentMethod.self, forKey: .paymentMethod),
            paymentIntent: try container.decodeIfPresent(StripeIntent.self, forKey: .paymentIntent),
            setupIntent: try container.decodeIfPresent(StripeIntent.self, forKey: .setupIntent)
        )
        unmodeledFields = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
        // An absent message reads as "" and is left out; a `null` one is kept as it came.
        if message.isEmpty, container.contains(.message), try !container.decodeNil(forKey: .message) {
            unmodeledFields["message"] = .string("")
        }
    }

    /// Encodes Stripe's error object, leaving out absent fields and an empty message.
    public func encode(to encoder: any Encoder) throws {
        try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(code, forKey: .code)
        try container.encodeIfPresent(declineCode, forKey: .declineCode)
        if !message.isEmpty { try container.encode(message, forKey: .message) }
        try container.encodeIfPresent(param, forKey: .param)
        try container.encodeIfPresent(docURL, forKey: .docURL)
        try container.encodeIfPresent(requestLogURL, forKey: .requestLogURL)
        try container.encodeIfPresent(charge, forKey: .charge)
        try container.encodeIfPresent(adviceCode, forKey: .adviceCode)
        try container.encodeIfPresent(networkAdviceCode, forKey: .networkAdviceCode)
        try container.encodeIfPresent(networkDeclineCode, forKey: .networkDeclineCode)
        try container.encodeIfPresent(paymentMethodType, forKey: .paymentMethodType)
        try container.encodeIfPresent(paymentMethod, forKey: .paymentMethod)
        try container.encodeIfPresent(paymentIntent, forKey: .paymentIntent)
        try container.encodeIfPresent(setupIntent, forKey: .setupIntent)
    }
}
