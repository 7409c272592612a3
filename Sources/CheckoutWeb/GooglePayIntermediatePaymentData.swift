import CheckoutCore

/// Google Pay's `callbackTrigger`: what made the sheet call `onPaymentDataChanged` (Google Pay API
/// for the web, reference "Response objects", `IntermediatePaymentData`).
public enum GooglePayCallbackTrigger: String, Codable, Hashable, Sendable, CaseIterable {
    /// The sheet opened: the data carries what the sheet starts with.
    case initialize = "INITIALIZE"
    /// The customer chose another shipping address.
    case shippingAddress = "SHIPPING_ADDRESS"
    /// The customer chose another shipping option.
    case shippingOption = "SHIPPING_OPTION"
    /// The customer entered or removed a redemption code.
    case offer = "OFFER"
    /// The customer chose another payment method.
    case paymentMethod = "PAYMENT_METHOD"
}

/// Google Pay's `IntermediatePaymentData`, what the sheet gives `onPaymentDataChanged`
/// (reference "Response objects"): the trigger and the sheet's data as it stands, the address
/// redacted.
///
/// Decoding follows the wire rules (spec W2): members Google adds are tolerated, a known member
/// that cannot be read is refused with its path, and `callbackTrigger` is required.
public struct GooglePayIntermediatePaymentData: Codable, Hashable, Sendable {
    /// What made the sheet call.
    public var callbackTrigger: GooglePayCallbackTrigger
    /// The selected shipping address, redacted.
    public var shippingAddress: GooglePayIntermediateAddress?
    /// The selected shipping option.
    public var shippingOptionData: GooglePaySelectionOptionData?
    /// The redemption codes entered.
    public var offerData: GooglePayOfferData?
    /// The selected payment method, as far as Google shows it before authorization.
    public var paymentMethodData: GooglePayIntermediatePaymentMethodData?

    /// Data with its trigger and any of the members.
    public init(
        callbackTrigger: GooglePayCallbackTrigger,
        shippingAddress: GooglePayIntermediateAddress? = nil,
        shippingOptionData: GooglePaySelectionOptionData? = nil,
        offerData: GooglePayOfferData? = nil,
        paymentMethodData: GooglePayIntermediatePaymentMethodData? = nil
    ) {
        self.callbackTrigger = callbackTrigger
        self.shippingAddress = shippingAddress
        self.shippingOptionData = shippingOptionData
        self.offerData = offerData
        self.paymentMethodData = paymentMethodData
    }
}

/// Google Pay's `IntermediateAddress` (reference "Response objects"): the redacted shipping
/// address `onPaymentDataChanged` gets, four members.
///
/// To the core (``core()``): a redacted ``/CheckoutCore/Contact`` whose address holds `locality` as
/// `city`, `administrativeArea` as `state`, `postalCode` and `countryCode`; an empty string is
/// absent, as for Apple Pay's contact.
public struct GooglePayIntermediateAddress: Codable, Hashable, Sendable {
    /// The state, province or region.
    public var administrativeArea: String?
    /// The ISO 3166-1 alpha-2 country code.
    public var countryCode: String?
    /// The city or town.
    public var locality: String?
    /// The postal code, redacted as Google redacts it.
    public var postalCode: String?

    /// An address with any of the four members.
    public init(
        administrativeArea: String? = nil, countryCode: String? = nil, locality: String? = nil,
        postalCode: String? = nil
    ) {
        self.administrativeArea = administrativeArea
        self.countryCode = countryCode
        self.locality = locality
        self.postalCode = postalCode
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case administrativeArea, countryCode, locality, postalCode
    }

    /// Decodes the four members; an object with none of them is refused (spec W2).
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "IntermediateAddress")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            administrativeArea: try container.decodeIfPresent(String.self, forKey: .administrativeArea),
            countryCode: try container.decodeIfPresent(String.self, forKey: .countryCode),
            locality: try container.decodeIfPresent(String.self, forKey: .locality),
            postalCode: try container.decodeIfPresent(String.self, forKey: .postalCode))
    }

    /// The redacted contact in the core's terms.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `countryCode` when it is not an ISO 3166-1
    ///   alpha-2 code.
    public func core() throws -> Contact {
        let address = Address(
            city: locality.nonEmpty, state: administrativeArea.nonEmpty, postalCode: postalCode.nonEmpty,
            country: try googleCountry(countryCode, path: "countryCode"))
        return Contact(postalAddress: address == Address() ? nil : address, isRedacted: true)
    }

    /// The core contact's address in Google's four members; the street, name, email and phone have
    /// no place here (Google redacts them).
    public init(_ core: Contact) {
        let address = core.postalAddress
        self.init(
            administrativeArea: address?.state, countryCode: address?.country?.code, locality: address?.city,
            postalCode: address?.postalCode)
    }
}

/// Google Pay's `SelectionOptionData` (reference "Response objects"): the selected option's `id`.
public struct GooglePaySelectionOptionData: Codable, Hashable, Sendable {
    /// The selected ``GooglePaySelectionOption/id``.
    public var id: String

    /// The data of the option `id`.
    public init(id: String) { self.id = id }
}

/// Google Pay's `OfferData` (reference "Response objects"): the redemption codes the customer
/// entered, in the order the sheet lists them.
public struct GooglePayOfferData: Codable, Hashable, Sendable {
    /// The codes.
    public var redemptionCodes: [String]

    /// Offer data with these codes.
    public init(redemptionCodes: [String]) { self.redemptionCodes = redemptionCodes }
}

/// Google Pay's `IntermediatePaymentMethodData` (reference "Response objects"): the payment
/// method's `type` (`CARD`) and, for a card, `info` with its network, before authorization.
///
/// To the core (``core()``): a ``/CheckoutCore/PaymentMethod`` with the network as
/// ``GooglePayCardNetwork`` maps it and type `unknown` (Google does not say debit or credit).
public struct GooglePayIntermediatePaymentMethodData: Codable, Hashable, Sendable {
    /// The method's type, such as `CARD`.
    public var type: String?
    /// For a card: its network.
    public var info: GooglePayIntermediateCardInfo?

    /// Payment method data.
    public init(type: String? = nil, info: GooglePayIntermediateCardInfo? = nil) {
        self.type = type
        self.info = info
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case type, info }

    /// Decodes `{type, info}`; an object with neither is refused (spec W2).
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "IntermediatePaymentMethodData")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            type: try container.decodeIfPresent(String.self, forKey: .type),
            info: try container.decodeIfPresent(GooglePayIntermediateCardInfo.self, forKey: .info))
    }

    /// The method in the core's terms.
    public func core() -> PaymentMethod {
        PaymentMethod(displayName: nil, network: info?.cardNetwork.map(GooglePayCardNetwork.core), type: .unknown)
    }
}

/// The `info` of Google Pay's `IntermediatePaymentMethodData`: the card's network.
public struct GooglePayIntermediateCardInfo: Codable, Hashable, Sendable {
    /// The card's network, such as `VISA`.
    public var cardNetwork: String?

    /// Card info.
    public init(cardNetwork: String? = nil) { self.cardNetwork = cardNetwork }
}

/// A country code of Google's, checked as ISO 3166-1 alpha-2; nil for absent or empty.
func googleCountry(_ code: String?, path: String) throws -> CountryCode? {
    guard let code = code.nonEmpty else { return nil }
    do {
        return try CountryCode(code)
    } catch var error as CheckoutError {
        error.field = path
        throw error
    }
}
