/// A card network (PassKit's `PKPaymentNetwork`), an open set of names.
public struct PaymentNetwork: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The network's name as PassKit spells it, such as `masterCard`.
    public var rawValue: String
    /// A network with this name, for networks that have no constant here.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The network's name.
    public var description: String { rawValue }

    /// American Express (`PKPaymentNetwork.amex`).
    public static let amex = PaymentNetwork(rawValue: "amex")
    /// Cartes Bancaires (`PKPaymentNetwork.cartesBancaires`).
    public static let cartesBancaires = PaymentNetwork(rawValue: "cartesBancaires")
    /// China UnionPay (`PKPaymentNetwork.chinaUnionPay`).
    public static let chinaUnionPay = PaymentNetwork(rawValue: "chinaUnionPay")
    /// Discover (`PKPaymentNetwork.discover`).
    public static let discover = PaymentNetwork(rawValue: "discover")
    /// eftpos, Australia (`PKPaymentNetwork.eftpos`).
    public static let eftpos = PaymentNetwork(rawValue: "eftpos")
    /// Interac, Canada (`PKPaymentNetwork.interac`).
    public static let interac = PaymentNetwork(rawValue: "interac")
    /// JCB (`PKPaymentNetwork.JCB`).
    public static let jcb = PaymentNetwork(rawValue: "jcb")
    /// Maestro (`PKPaymentNetwork.maestro`).
    public static let maestro = PaymentNetwork(rawValue: "maestro")
    /// Mastercard (`PKPaymentNetwork.masterCard`).
    public static let masterCard = PaymentNetwork(rawValue: "masterCard")
    /// Visa (`PKPaymentNetwork.visa`).
    public static let visa = PaymentNetwork(rawValue: "visa")

    /// Decodes from the network's name as a bare string; any name is accepted.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes as the network's name, a bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// What the merchant's payment processor supports (PassKit's `PKMerchantCapability`, same raw
/// bits). JSON: an array of names, `["threeDSecure", "emv", "credit", "debit"]`.
public struct MerchantCapabilities: OptionSet, Hashable, Sendable {
    /// The bits, the same as `PKMerchantCapability`'s.
    public let rawValue: UInt
    /// Capabilities from `PKMerchantCapability`'s bits.
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
    /// Decodes an array of names (`threeDSecure`, `emv`, `credit`, `debit`); any other name
    /// is a `DecodingError`.
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

    /// Encodes as an array of names, in the order `threeDSecure`, `emv`, `credit`, `debit`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for (name, capability) in Self.names where contains(capability) {
            try container.encode(name)
        }
    }
}

/// The kind of card (PassKit's `PKPaymentMethodType`).
public enum PaymentMethodType: String, Hashable, Sendable, Codable, CaseIterable {
    /// The kind of card is not known.
    case unknown
    /// A debit card.
    case debit
    /// A credit card.
    case credit
    /// A prepaid card.
    case prepaid
    /// A store card.
    case store
    /// An electronic money card, such as a transit card.
    case eMoney
}

/// The card the customer chose (PassKit's `PKPaymentMethod`).
public struct PaymentMethod: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A name for display, such as "Visa 4242".
    public var displayName: String?
    /// The card's network.
    public var network: PaymentNetwork?
    /// Debit, credit, ...
    public var type: PaymentMethodType

    /// A payment method; the kind of card defaults to ``PaymentMethodType/unknown``.
    public init(displayName: String? = nil, network: PaymentNetwork? = nil, type: PaymentMethodType = .unknown) {
        self.displayName = displayName
        self.network = network
        self.type = type
    }

    /// A short description: `PaymentMethod(Visa 4242, visa, credit)`, leaving out what is unknown.
    public var description: String {
        let parts = [displayName, network?.rawValue, type == .unknown ? nil : type.rawValue].compactMap { $0 }
        return "PaymentMethod(\(parts.joined(separator: ", ")))"
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

    /// A token for a payment made with `paymentMethod`. With the in-memory Stripe backend of
    /// `CheckoutFlows`, `paymentData` names a Stripe test card.
    public init(paymentMethod: PaymentMethod, transactionIdentifier: String, paymentData: String) {
        self.paymentMethod = paymentMethod
        self.transactionIdentifier = transactionIdentifier
        self.paymentData = paymentData
    }

    /// The card's name and the transaction's identifier; the payment data is masked.
    public var description: String {
        "PaymentToken(\(paymentMethod.displayName ?? paymentMethod.type.rawValue), "
            + "transaction: \(transactionIdentifier), data: •••)"
    }
}

/// An authorized payment (PassKit's `PKPayment`): the token, and the contacts and shipping
/// method the customer chose, limited to the fields the request asked for.
public struct Payment: Hashable, Sendable, Codable {
    /// The token for the merchant's payment processor.
    public var token: PaymentToken
    /// The billing contact, limited to the requested billing fields; nil when none was
    /// requested.
    public var billingContact: Contact?
    /// The shipping contact in full (not redacted), limited to the requested shipping fields;
    /// nil when none was requested.
    public var shippingContact: Contact?
    /// The shipping method selected when the customer authorized, if any.
    public var shippingMethod: ShippingMethod?

    /// An authorized payment.
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
public enum PaymentAuthorizationStatus: Int, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    /// The payment was authorized (raw value 0); the sheet finishes.
    case success = 0
    /// The payment failed (1); the sheet stays and the customer may try again.
    case failure = 1
    /// The billing address is not valid (2); the sheet stays and shows the error, which does
    /// not block another authorization.
    case invalidBillingPostalAddress = 2
    /// The shipping address is not valid (3); it blocks authorization until another shipping
    /// contact is selected.
    case invalidShippingPostalAddress = 3
    /// The shipping contact is not valid (4); it blocks authorization until another shipping
    /// contact is selected.
    case invalidShippingContact = 4
    /// The card needs its PIN (5); the next authorization is the PIN's entry.
    case pinRequired = 5
    /// The PIN was wrong (6); the next authorization is a new entry.
    case pinIncorrect = 6
    /// Too many wrong PINs (7); the authorization flow ends as failed.
    case pinLockout = 7

    /// The case's name qualified by its type, `CheckoutCore.PaymentAuthorizationStatus.success`:
    /// what `debugPrint`, and a status inside an array, an optional or a struct's description,
    /// printed by default.
    public var debugDescription: String { "CheckoutCore.PaymentAuthorizationStatus." + description }

    /// The case's name, such as `pinRequired`: what an enum with raw values prints by default,
    /// written out, as the default reads it by reflection (transcripts print a status on every
    /// authorization).
    public var description: String {
        switch self {
        case .success: "success"
        case .failure: "failure"
        case .invalidBillingPostalAddress: "invalidBillingPostalAddress"
        case .invalidShippingPostalAddress: "invalidShippingPostalAddress"
        case .invalidShippingContact: "invalidShippingContact"
        case .pinRequired: "pinRequired"
        case .pinIncorrect: "pinIncorrect"
        case .pinLockout: "pinLockout"
        }
    }
}

/// A field an error points at (PassKit's contact field plus the `CNPostalAddress` keys).
public enum PaymentErrorField: String, Hashable, Sendable, Codable, CaseIterable {
    /// The contact's name (`PKContactField.name`).
    case name
    /// The contact's email address (`PKContactField.emailAddress`).
    case emailAddress
    /// The contact's phone number (`PKContactField.phoneNumber`).
    case phoneNumber
    /// The contact's postal address as a whole (`PKContactField.postalAddress`).
    case postalAddress
    /// The street lines (`CNPostalAddressStreetKey`).
    case street
    /// The part of the city (`CNPostalAddressSubLocalityKey`; ``Address/subLocality``).
    case subLocality
    /// The city (`CNPostalAddressCityKey`).
    case city
    /// The subdivision of the state (`CNPostalAddressSubAdministrativeAreaKey`;
    /// ``Address/subAdministrativeArea``).
    case subAdministrativeArea
    /// The state or province (`CNPostalAddressStateKey`).
    case state
    /// The postal code (`CNPostalAddressPostalCodeKey`).
    case postalCode
    /// The sorting code (the W3C `AddressErrors.sortingCode`; ``Address/sortingCode``). PassKit has
    /// no key for it.
    case sortingCode
    /// The country (`CNPostalAddressCountryKey`).
    case country
    /// The organization (the W3C `AddressErrors.organization`; ``Contact/organizationName``).
    /// PassKit has no key for it.
    case organizationName
}

/// An error the merchant shows on the payment sheet (PassKit's `PKPaymentError` codes).
public struct PaymentError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kind of error, an open set of names.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The code's name, such as `shippingContactInvalid`.
        public var rawValue: String
        /// A code with this name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// An error of no particular kind (`PKPaymentError.Code.unknownError`).
        public static let unknown = Code(rawValue: "unknown")
        /// A field of the shipping contact is not valid
        /// (`PKPaymentError.Code.shippingContactInvalidError`); it blocks authorization.
        public static let shippingContactInvalid = Code(rawValue: "shippingContactInvalid")
        /// A field of the billing contact is not valid
        /// (`PKPaymentError.Code.billingContactInvalidError`); it does not block.
        public static let billingContactInvalid = Code(rawValue: "billingContactInvalid")
        /// The merchant cannot ship to the address
        /// (`PKPaymentError.Code.shippingAddressUnserviceableError`); it blocks authorization.
        public static let shippingAddressUnserviceable = Code(rawValue: "shippingAddressUnserviceable")
        /// The coupon code is not valid (`PKPaymentError.Code.couponCodeInvalidError`); it does not
        /// block.
        public static let couponCodeInvalid = Code(rawValue: "couponCodeInvalid")
        /// The coupon code has expired (`PKPaymentError.Code.couponCodeExpiredError`); it does not
        /// block.
        public static let couponCodeExpired = Code(rawValue: "couponCodeExpired")

        /// Decodes from the code's name as a bare string; any name is accepted.
        public init(from decoder: any Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
        }

        /// Encodes as the code's name, a bare string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// What kind of error this is.
    public var code: Code
    /// The contact field at fault, for the contact errors.
    public var field: PaymentErrorField?
    /// What the sheet shows.
    public var message: String

    /// An error with its code, the contact field at fault (for the contact errors) and the
    /// message the sheet shows.
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

    /// An error of no particular kind (`PKPaymentError.Code.unknownError`), such as the payment
    /// processor's error that ends a payment, carried in the result as its message (stripe-ios
    /// hands the sheet Stripe's error unchanged).
    public static func unknown(_ message: String) -> PaymentError {
        PaymentError(code: .unknown, message: message)
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

    /// `code(field): message`, such as `shippingContactInvalid(postalCode): Unknown ZIP code`.
    public var description: String {
        "\(code)" + (field.map { "(\($0.rawValue))" } ?? "") + ": \(message)"
    }
}

/// The merchant's answer to an authorization (PassKit's `PKPaymentAuthorizationResult`).
public struct PaymentAuthorizationResult: Hashable, Sendable, Codable {
    /// The merchant's verdict.
    public var status: PaymentAuthorizationStatus
    /// Errors to show on the sheet, each naming its field where it has one.
    public var errors: [PaymentError]
    /// An order the customer can track in Wallet, for a successful result (PassKit's
    /// `PKPaymentAuthorizationResult.orderDetails`).
    public var orderDetails: PaymentOrderDetails? {
        get { boxedOrderDetails?.value }
        set { boxedOrderDetails = newValue.map(OrderDetailsBox.init) }
    }
    /// The order details behind one reference: every answer the flows keep (a transcript's, the
    /// answer enum's payload) is as large as its largest case, and the details inline (three
    /// strings and a URL) made each copy of every answer 64 bytes larger, measured as 164 more
    /// instructions a delegate round trip with transcripts on (`Scripts/profile.sh roundtrip-on`).
    private var boxedOrderDetails: OrderDetailsBox?

    /// A result with this status, these errors and, for a success, the order to track.
    public init(
        status: PaymentAuthorizationStatus, errors: [PaymentError] = [], orderDetails: PaymentOrderDetails? = nil
    ) {
        self.status = status
        self.errors = errors
        self.orderDetails = orderDetails
    }

    /// A result with this status and any errors, as PassKit's
    /// `PKPaymentAuthorizationResult(status:errors:)` takes them: each becomes a ``PaymentError``
    /// as ``PaymentError/init(_:)`` maps it.
    public init(status: PaymentAuthorizationStatus, errors: [any Error]?) {
        let converted: [PaymentError] = (errors ?? []).map { PaymentError($0) }
        self.init(status: status, errors: converted, orderDetails: nil)
    }

    /// `success` with no errors.
    public static let success = PaymentAuthorizationResult(status: .success)
}

// MARK: - Decoding: the property names, an unknown key refused with its path (spec W2)

extension PaymentMethod {
    private enum CodingKeys: String, CodingKey {
        case displayName, network, type
    }

    /// Decodes `{"displayName", "network", "type"}`; `type` is required, an unknown key is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "PaymentMethod")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            displayName: try container.decodeIfPresent(String.self, forKey: .displayName),
            network: try container.decodeIfPresent(PaymentNetwork.self, forKey: .network),
            type: try container.decode(PaymentMethodType.self, forKey: .type)
        )
    }
}

extension PaymentToken {
    private enum CodingKeys: String, CodingKey {
        case paymentMethod, transactionIdentifier, paymentData
    }

    /// Decodes `{"paymentMethod", "transactionIdentifier", "paymentData"}`, all required; an
    /// unknown key is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "PaymentToken")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            paymentMethod: try container.decode(PaymentMethod.self, forKey: .paymentMethod),
            transactionIdentifier: try container.decode(String.self, forKey: .transactionIdentifier),
            paymentData: try container.decode(String.self, forKey: .paymentData)
        )
    }
}

extension Payment {
    private enum CodingKeys: String, CodingKey {
        case token, billingContact, shippingContact, shippingMethod
    }

    /// Decodes `{"token", "billingContact", "shippingContact", "shippingMethod"}`; only `token` is
    /// required, an unknown key is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "Payment")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            token: try container.decode(PaymentToken.self, forKey: .token),
            billingContact: try container.decodeIfPresent(Contact.self, forKey: .billingContact),
            shippingContact: try container.decodeIfPresent(Contact.self, forKey: .shippingContact),
            shippingMethod: try container.decodeIfPresent(ShippingMethod.self, forKey: .shippingMethod)
        )
    }
}

extension PaymentError {
    private enum CodingKeys: String, CodingKey {
        case code, field, message
    }

    /// Decodes `{"code", "field", "message"}`; `field` may be absent, an unknown key is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "PaymentError")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            code: try container.decode(Code.self, forKey: .code),
            field: try container.decodeIfPresent(PaymentErrorField.self, forKey: .field),
            message: try container.decode(String.self, forKey: .message)
        )
    }
}

extension PaymentAuthorizationResult {
    private enum CodingKeys: String, CodingKey {
        case status, errors, orderDetails
    }

    /// Decodes `{"status", "errors", "orderDetails"}`: `status` and `errors` required,
    /// `orderDetails` optional; an unknown key is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "PaymentAuthorizationResult")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            status: try container.decode(PaymentAuthorizationStatus.self, forKey: .status),
            errors: try container.decode([PaymentError].self, forKey: .errors),
            orderDetails: try container.decodeIfPresent(PaymentOrderDetails.self, forKey: .orderDetails)
        )
    }

    /// Encodes `{"status", "errors"}`, and `orderDetails` when there are some.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(errors, forKey: .errors)
        try container.encodeIfPresent(orderDetails, forKey: .orderDetails)
    }
}

extension PaymentAuthorizationResult: CustomReflectable {
    /// Its members as declared: `status`, `errors`, `orderDetails` (not their storage).
    public var customMirror: Mirror {
        Mirror(
            self, children: ["status": status, "errors": errors, "orderDetails": orderDetails as Any],
            displayStyle: .struct)
    }
}

/// ``PaymentAuthorizationResult/orderDetails``'s storage: immutable, compared and hashed by value.
private final class OrderDetailsBox: Hashable, Sendable {
    let value: PaymentOrderDetails

    init(_ value: PaymentOrderDetails) { self.value = value }

    static func == (left: OrderDetailsBox, right: OrderDetailsBox) -> Bool { left.value == right.value }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
