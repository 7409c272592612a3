import CheckoutCore

/// An error from Stripe's API, keeping Stripe's error `type`, `code` and `decline_code`.
public struct StripeError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// `card_error`, `invalid_request_error`, `api_error`, ...
    public var type: String
    /// Stripe's error code: `card_declined`, `incorrect_zip`, `expired_card`, ...
    public var code: String?
    /// For a declined card: `generic_decline`, `insufficient_funds`, `lost_card`, ...
    public var declineCode: String?
    /// Stripe's message.
    public var message: String

    /// An error with Stripe's type, code, decline code and message.
    public init(type: String, code: String? = nil, declineCode: String? = nil, message: String) {
        self.type = type
        self.code = code
        self.declineCode = declineCode
        self.message = message
    }

    /// Whether this is a card error (`type == "card_error"`).
    public var isCardError: Bool { type == "card_error" }

    /// `type/code/declineCode: message`, such as
    /// `card_error/card_declined/generic_decline: Your card was declined.`.
    public var description: String {
        "\(type)" + (code.map { "/\($0)" } ?? "") + (declineCode.map { "/\($0)" } ?? "") + ": \(message)"
    }

    private enum CodingKeys: String, CodingKey {
        case type
        case code
        case declineCode = "decline_code"
        case message
    }

    /// Decodes Stripe's names; `code` and `decline_code` may be absent, an unknown key is refused
    /// with its path (spec W2).
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "StripeError")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            type: try container.decode(String.self, forKey: .type),
            code: try container.decodeIfPresent(String.self, forKey: .code),
            declineCode: try container.decodeIfPresent(String.self, forKey: .declineCode),
            message: try container.decode(String.self, forKey: .message)
        )
    }
}

/// A Stripe PaymentMethod created from an Apple Pay payment.
public struct StripePaymentMethod: Hashable, Sendable, Codable {
    /// `pm_…`.
    public var id: String
    /// The card brand, such as `visa`.
    public var brand: String
    /// The card's last four digits.
    public var last4: String

    /// A payment method with its id, brand and last four digits.
    public init(id: String, brand: String, last4: String) {
        self.id = id
        self.brand = brand
        self.last4 = last4
    }
}

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

/// Who confirms a PaymentIntent (Stripe's `confirmation_method`).
public enum ConfirmationMethod: String, Hashable, Sendable, Codable {
    /// The client may confirm with the publishable key.
    case automatic
    /// Only the merchant's server confirms.
    case manual
}

/// When a PaymentIntent's funds are captured (Stripe's `capture_method`).
public enum CaptureMethod: String, Hashable, Sendable, Codable {
    /// Captured when the payment is confirmed: a successful confirmation ends in `succeeded`.
    case automatic
    /// Authorized now, captured later: a successful confirmation ends in `requires_capture`.
    case manual
}

/// Shipping details of an intent (Stripe's `shipping`: name, phone, address).
public struct ShippingDetails: Hashable, Sendable, Codable {
    /// The recipient's name.
    public var name: String?
    /// The recipient's phone number.
    public var phone: String?
    /// The shipping address.
    public var address: Address

    /// Shipping details with an address and, optionally, a name and a phone number.
    public init(name: String? = nil, phone: String? = nil, address: Address) {
        self.name = name
        self.phone = phone
        self.address = address
    }

    /// The shipping details of a contact with a postal address.
    public init?(_ contact: Contact?) {
        guard let contact, let address = contact.postalAddress else { return nil }
        self.init(name: contact.name, phone: contact.phoneNumber, address: address)
    }
}

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

/// What the pay context needs of Stripe (spec P8): create a payment method from an Apple Pay
/// payment, retrieve an intent by its client secret, confirm an intent with a payment method.
///
/// Each call throws a ``StripeError`` on failure; a confirmation that declines throws the card
/// error (with its decline code) and leaves the intent in `requires_payment_method`.
public protocol PaymentBackend: Sendable {
    /// Creates a PaymentMethod from the payment's token.
    func createPaymentMethod(from payment: Payment) async throws -> StripePaymentMethod

    /// Retrieves the intent the secret belongs to.
    func retrieveIntent(_ secret: IntentClientSecret) async throws -> StripeIntent

    /// Confirms the intent with the payment method; `shipping` is sent when it differs from the
    /// intent's.
    func confirmIntent(
        _ secret: IntentClientSecret,
        paymentMethodID: String,
        shipping: ShippingDetails?
    ) async throws -> StripeIntent
}

// MARK: - Decoding: the property names, an unknown key refused with its path (spec W2)

extension StripePaymentMethod {
    private enum CodingKeys: String, CodingKey {
        case id, brand, last4
    }

    /// Decodes `{"id", "brand", "last4"}`, all required; an unknown key is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "StripePaymentMethod")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            brand: try container.decode(String.self, forKey: .brand),
            last4: try container.decode(String.self, forKey: .last4)
        )
    }
}

extension ShippingDetails {
    private enum CodingKeys: String, CodingKey {
        case name, phone, address
    }

    /// Decodes `{"name", "phone", "address"}`; only `address` is required, an unknown key is
    /// refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "ShippingDetails")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decodeIfPresent(String.self, forKey: .name),
            phone: try container.decodeIfPresent(String.self, forKey: .phone),
            address: try container.decode(Address.self, forKey: .address)
        )
    }
}

extension StripeIntent {
    private enum CodingKeys: String, CodingKey {
        case id, kind, status, amount, confirmationMethod, captureMethod, paymentMethodID, shipping, lastError
    }

    /// Decodes the property names; `amount`, `paymentMethodID`, `shipping` and `lastError` may be
    /// absent, an unknown key is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "StripeIntent")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            kind: try container.decode(IntentClientSecret.Kind.self, forKey: .kind),
            status: try container.decode(IntentStatus.self, forKey: .status),
            amount: try container.decodeIfPresent(Money.self, forKey: .amount),
            confirmationMethod: try container.decode(ConfirmationMethod.self, forKey: .confirmationMethod),
            captureMethod: try container.decode(CaptureMethod.self, forKey: .captureMethod),
            paymentMethodID: try container.decodeIfPresent(String.self, forKey: .paymentMethodID),
            shipping: try container.decodeIfPresent(ShippingDetails.self, forKey: .shipping),
            lastError: try container.decodeIfPresent(StripeError.self, forKey: .lastError)
        )
    }
}
