import CheckoutCore

/// Apple Pay on the web's `ApplePayErrorCode`.
public enum ApplePayErrorCode: String, Codable, Hashable, Sendable, CaseIterable {
    /// An error of no particular kind.
    case unknown
    /// A field of the shipping contact is not valid.
    case shippingContactInvalid
    /// A field of the billing contact is not valid.
    case billingContactInvalid
    /// The merchant cannot ship to the address.
    case addressUnserviceable
    /// The coupon code is not valid.
    case couponCodeInvalid
    /// The coupon code has expired.
    case couponCodeExpired
}

/// Apple Pay on the web's `ApplePayErrorContactField`: the field an error points at.
public enum ApplePayErrorContactField: String, Codable, Hashable, Sendable, CaseIterable {
    /// The phone number.
    case phoneNumber
    /// The email address.
    case emailAddress
    /// The name.
    case name
    /// The phonetic name.
    case phoneticName
    /// The postal address as a whole.
    case postalAddress
    /// The street lines.
    case addressLines
    /// The city.
    case locality
    /// A part of the city.
    case subLocality
    /// The postal code.
    case postalCode
    /// The state or province.
    case administrativeArea
    /// A subdivision of the state.
    case subAdministrativeArea
    /// The country's name.
    case country
    /// The country's code.
    case countryCode
}

/// Apple Pay on the web's `ApplePayError`, as the page builds it for the session's `complete…`
/// methods: `{code, contactField, message}`.
///
/// Codes, both ways: `unknown` ↔ ``/CheckoutCore/PaymentError/Code/unknown``, `shippingContactInvalid` ↔
/// ``/CheckoutCore/PaymentError/Code/shippingContactInvalid``, `billingContactInvalid` ↔
/// ``/CheckoutCore/PaymentError/Code/billingContactInvalid``, `addressUnserviceable` ↔
/// ``/CheckoutCore/PaymentError/Code/shippingAddressUnserviceable``, `couponCodeInvalid` and
/// `couponCodeExpired` ↔ the core codes of the same names. A core code outside these has no
/// Apple counterpart: ``init(_:)`` refuses it (the browser would throw a `TypeError`).
///
/// Contact fields, both ways: `name`, `emailAddress`, `phoneNumber`, `postalAddress`,
/// `postalCode`, `subLocality`, `subAdministrativeArea` ↔ the core fields of the same names;
/// `addressLines` ↔ ``/CheckoutCore/PaymentErrorField/street``; `locality` ↔
/// ``/CheckoutCore/PaymentErrorField/city``; `administrativeArea` ↔ ``/CheckoutCore/PaymentErrorField/state``;
/// `countryCode` ↔ ``/CheckoutCore/PaymentErrorField/country``. One way, Apple to core (the core has no finer
/// field): `phoneticName` → `name`, `country` → `country`. One way, core to Apple (Apple Pay has no
/// field for them): ``/CheckoutCore/PaymentErrorField/sortingCode`` and
/// ``/CheckoutCore/PaymentErrorField/organizationName`` → `postalAddress`.
public struct ApplePayError: Codable, Hashable, Sendable, Error {
    /// What kind of error this is.
    public var code: ApplePayErrorCode
    /// The contact field at fault, for the contact errors.
    public var contactField: ApplePayErrorContactField?
    /// What the sheet shows (`""` when the page gives none).
    public var message: String

    /// An error with its code, field and message.
    public init(code: ApplePayErrorCode, contactField: ApplePayErrorContactField? = nil, message: String = "") {
        self.code = code
        self.contactField = contactField
        self.message = message
    }

    private enum CodingKeys: String, CodingKey {
        case code, contactField, message
    }

    /// Decodes `{code, contactField, message}`; `message` may be absent (the constructor's
    /// default is `""`), `code` may not.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            code: try container.decode(ApplePayErrorCode.self, forKey: .code),
            contactField: try container.decodeIfPresent(ApplePayErrorContactField.self, forKey: .contactField),
            message: try container.decodeIfPresent(String.self, forKey: .message) ?? ""
        )
    }

    /// The core error (see the type's discussion for the mapping).
    public func core() -> PaymentError {
        let coreCode: PaymentError.Code =
            switch code {
            case .unknown: .unknown
            case .shippingContactInvalid: .shippingContactInvalid
            case .billingContactInvalid: .billingContactInvalid
            case .addressUnserviceable: .shippingAddressUnserviceable
            case .couponCodeInvalid: .couponCodeInvalid
            case .couponCodeExpired: .couponCodeExpired
            }
        let field: PaymentErrorField? = contactField.map { field in
            switch field {
            case .phoneNumber: .phoneNumber
            case .emailAddress: .emailAddress
            case .name, .phoneticName: .name
            case .postalAddress: .postalAddress
            case .addressLines: .street
            case .subLocality: .subLocality
            case .locality: .city
            case .postalCode: .postalCode
            case .subAdministrativeArea: .subAdministrativeArea
            case .administrativeArea: .state
            case .country, .countryCode: .country
            }
        }
        return PaymentError(code: coreCode, field: field, message: message)
    }

    /// The core error in Apple's terms (see the type's discussion).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/invalidField`` naming `code` for a
    ///   core code Apple Pay does not have.
    public init(_ core: PaymentError) throws {
        let code: ApplePayErrorCode
        switch core.code {
        case .unknown: code = .unknown
        case .shippingContactInvalid: code = .shippingContactInvalid
        case .billingContactInvalid: code = .billingContactInvalid
        case .shippingAddressUnserviceable: code = .addressUnserviceable
        case .couponCodeInvalid: code = .couponCodeInvalid
        case .couponCodeExpired: code = .couponCodeExpired
        default:
            throw unmappable("code", core.code.rawValue, "has no ApplePayErrorCode counterpart")
        }
        let field: ApplePayErrorContactField? = core.field.map { field in
            switch field {
            case .name: .name
            case .emailAddress: .emailAddress
            case .phoneNumber: .phoneNumber
            case .postalAddress: .postalAddress
            case .street: .addressLines
            case .subLocality: .subLocality
            case .city: .locality
            case .subAdministrativeArea: .subAdministrativeArea
            case .state: .administrativeArea
            case .postalCode: .postalCode
            case .country: .countryCode
            // Apple Pay has no field of its own for these: the address as a whole.
            case .sortingCode, .organizationName: .postalAddress
            }
        }
        self.init(code: code, contactField: field, message: core.message)
    }
}

extension [ApplePayError] {
    /// The errors in the core's terms.
    func core() -> [PaymentError] { map { $0.core() } }
}

/// Core errors in Apple's terms, each refusal naming `path[index].code`.
func appleErrors(_ errors: [PaymentError], path: String) throws -> [ApplePayError] {
    try errors.enumerated().map { index, error in
        // The path is made for a refusal only, not for every error.
        do {
            return try ApplePayError(error)
        } catch let refusal as CheckoutError {
            throw refusal.nested(under: "\(path)[\(index)]")
        }
    }
}
