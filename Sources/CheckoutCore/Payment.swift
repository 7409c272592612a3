/// A card network (PassKit's `PKPaymentNetwork`), an open set of names.
public struct PaymentNetwork: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let amex = PaymentNetwork(rawValue: "amex")
    public static let cartesBancaires = PaymentNetwork(rawValue: "cartesBancaires")
    public static let chinaUnionPay = PaymentNetwork(rawValue: "chinaUnionPay")
    public static let discover = PaymentNetwork(rawValue: "discover")
    public static let eftpos = PaymentNetwork(rawValue: "eftpos")
    public static let interac = PaymentNetwork(rawValue: "interac")
    public static let jcb = PaymentNetwork(rawValue: "jcb")
    public static let maestro = PaymentNetwork(rawValue: "maestro")
    public static let masterCard = PaymentNetwork(rawValue: "masterCard")
    public static let visa = PaymentNetwork(rawValue: "visa")

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// What the merchant's payment processor supports (PassKit's `PKMerchantCapability`, same raw
/// bits). JSON: an array of names, `["threeDSecure", "emv", "credit", "debit"]`.
public struct MerchantCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// 3-D Secure.
    public static let threeDSecure = MerchantCapabilities(rawValue: 1 << 0)
    /// EMV.
    public static let emv = MerchantCapabilities(rawValue: 1 << 1)
    /// Credit cards.
    public static let credit = MerchantCapabilities(rawValue: 1 << 2)
    /// Debit cards.
    public static let debit = MerchantCapabilities(rawValue: 1 << 3)

    private static let names: [(String, MerchantCapabilities)] = [
        ("threeDSecure", .threeDSecure), ("emv", .emv), ("credit", .credit), ("debit", .debit),
    ]
}

extension MerchantCapabilities: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var result: MerchantCapabilities = []
        while !container.isAtEnd {
            let name = try container.decode(String.self)
            guard let capability = Self.names.first(where: { $0.0 == name })?.1 else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "unknown merchant capability \(name.quotedForMessage); "
                        + "expected one of threeDSecure, emv, credit, debit"
                )
            }
            result.insert(capability)
        }
        self = result
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for (name, capability) in Self.names where contains(capability) {
            try container.encode(name)
        }
    }
}

/// The kind of card (PassKit's `PKPaymentMethodType`).
public enum PaymentMethodType: String, Hashable, Sendable, Codable, CaseIterable {
    case unknown
    case debit
    case credit
    case prepaid
    case store
    case eMoney
}

/// The card the customer chose (PassKit's `PKPaymentMethod`).
public struct PaymentMethod: Hashable, Sendable, Codable {
    /// A name for display, such as "Visa 4242".
    public var displayName: String?
    /// The card's network.
    public var network: PaymentNetwork?
    /// Debit, credit, ...
    public var type: PaymentMethodType

    public init(displayName: String? = nil, network: PaymentNetwork? = nil, type: PaymentMethodType = .unknown) {
        self.displayName = displayName
        self.network = network
        self.type = type
    }
}

/// The encrypted payment data of an authorized payment (PassKit's `PKPaymentToken`).
///
/// ``paymentData`` is opaque to the flows; with the in-memory Stripe backend it names a test
/// card. The ``description`` masks it.
public struct PaymentToken: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The card used.
    public var paymentMethod: PaymentMethod
    /// The transaction's identifier.
    public var transactionIdentifier: String
    /// The payment data for the processor, opaque here.
    public var paymentData: String

    public init(paymentMethod: PaymentMethod, transactionIdentifier: String, paymentData: String) {
        self.paymentMethod = paymentMethod
        self.transactionIdentifier = transactionIdentifier
        self.paymentData = paymentData
    }

    public var description: String {
        "PaymentToken(\(paymentMethod.displayName ?? paymentMethod.type.rawValue), "
            + "transaction: \(transactionIdentifier), data: •••)"
    }
}

/// An authorized payment (PassKit's `PKPayment`): the token, and the contacts and shipping
/// method the customer chose, limited to the fields the request asked for.
public struct Payment: Hashable, Sendable, Codable {
    public var token: PaymentToken
    public var billingContact: Contact?
    public var shippingContact: Contact?
    public var shippingMethod: ShippingMethod?

    public init(
        token: PaymentToken,
        billingContact: Contact? = nil,
        shippingContact: Contact? = nil,
        shippingMethod: ShippingMethod? = nil
    ) {
        self.token = token
        self.billingContact = billingContact
        self.shippingContact = shippingContact
        self.shippingMethod = shippingMethod
    }
}

/// How a pay-context payment ended (Stripe's `STPPaymentStatus`).
public enum PaymentStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// The payment succeeded.
    case success
    /// The payment failed.
    case error
    /// The customer cancelled.
    case userCancellation
}

/// The merchant's verdict on an authorization (PassKit's `PKPaymentAuthorizationStatus`, with its
/// raw values 0-7).
public enum PaymentAuthorizationStatus: Int, Hashable, Sendable, Codable, CaseIterable {
    case success = 0
    case failure = 1
    case invalidBillingPostalAddress = 2
    case invalidShippingPostalAddress = 3
    case invalidShippingContact = 4
    case pinRequired = 5
    case pinIncorrect = 6
    case pinLockout = 7
}

/// A field an error points at (PassKit's contact field plus the `CNPostalAddress` keys).
public enum PaymentErrorField: String, Hashable, Sendable, Codable, CaseIterable {
    case name
    case emailAddress
    case phoneNumber
    case postalAddress
    case street
    case city
    case state
    case postalCode
    case country
}

/// An error the merchant shows on the payment sheet (PassKit's `PKPaymentError` codes).
public struct PaymentError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kind of error, an open set of names.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let unknown = Code(rawValue: "unknown")
        public static let shippingContactInvalid = Code(rawValue: "shippingContactInvalid")
        public static let billingContactInvalid = Code(rawValue: "billingContactInvalid")
        public static let shippingAddressUnserviceable = Code(rawValue: "shippingAddressUnserviceable")
        public static let couponCodeInvalid = Code(rawValue: "couponCodeInvalid")
        public static let couponCodeExpired = Code(rawValue: "couponCodeExpired")

        public init(from decoder: any Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    public var code: Code
    /// The contact field at fault, for the contact errors.
    public var field: PaymentErrorField?
    /// What the sheet shows.
    public var message: String

    public init(code: Code, field: PaymentErrorField? = nil, message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    /// A shipping contact's field is invalid.
    public static func shippingContactInvalid(_ field: PaymentErrorField, _ message: String) -> PaymentError {
        PaymentError(code: .shippingContactInvalid, field: field, message: message)
    }

    /// A billing contact's field is invalid.
    public static func billingContactInvalid(_ field: PaymentErrorField, _ message: String) -> PaymentError {
        PaymentError(code: .billingContactInvalid, field: field, message: message)
    }

    /// The merchant cannot ship to the address.
    public static func shippingAddressUnserviceable(_ message: String) -> PaymentError {
        PaymentError(code: .shippingAddressUnserviceable, message: message)
    }

    /// The coupon code is not valid.
    public static func couponCodeInvalid(_ message: String) -> PaymentError {
        PaymentError(code: .couponCodeInvalid, message: message)
    }

    /// The coupon code has expired.
    public static func couponCodeExpired(_ message: String) -> PaymentError {
        PaymentError(code: .couponCodeExpired, message: message)
    }

    /// Whether the error concerns the shipping contact and so blocks authorization until the
    /// customer selects another one (spec A2, A7).
    public var isShippingContactError: Bool {
        code == .shippingContactInvalid || code == .shippingAddressUnserviceable
    }

    public var description: String {
        "\(code)" + (field.map { "(\($0.rawValue))" } ?? "") + ": \(message)"
    }
}

/// The merchant's answer to an authorization (PassKit's `PKPaymentAuthorizationResult`).
public struct PaymentAuthorizationResult: Hashable, Sendable, Codable {
    public var status: PaymentAuthorizationStatus
    public var errors: [PaymentError]

    public init(status: PaymentAuthorizationStatus, errors: [PaymentError] = []) {
        self.status = status
        self.errors = errors
    }

    /// `success` with no errors.
    public static let success = PaymentAuthorizationResult(status: .success)
}
