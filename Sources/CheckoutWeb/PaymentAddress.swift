import CheckoutCore

/// The W3C Payment Request `PaymentAddress`, in the JSON shape of its `toJSON()`: the shipping
/// address a `shippingaddresschange` or the `PaymentResponse` carries. Every member is optional
/// here (a redacted address lacks most); an object with keys and none of these is refused (spec
/// W2).
///
/// Conversion to ``/CheckoutCore/Contact`` (``core()``): `recipient` → ``/CheckoutCore/Contact/name``, `phone` →
/// ``/CheckoutCore/Contact/phoneNumber``; `addressLine[0]` → ``/CheckoutCore/Address/line1``, the further lines joined by a
/// line feed → ``/CheckoutCore/Address/line2``; `city` → ``/CheckoutCore/Address/city``, `region` → ``/CheckoutCore/Address/state``,
/// `postalCode` → ``/CheckoutCore/Address/postalCode``, `country` (checked, ISO 3166-1) → ``/CheckoutCore/Address/country``.
/// `dependentLocality` → ``/CheckoutCore/Address/subLocality`` (the same concept: WebKit fills
/// `dependentLocality` from Apple Pay's `subLocality`, `convert(const ApplePayPaymentContact&)` in
/// `Source/WebCore/Modules/applepay/paymentrequest/ApplePayPaymentHandler.cpp`), `sortingCode` →
/// ``/CheckoutCore/Address/sortingCode``, `organization` → ``/CheckoutCore/Contact/organizationName``.
/// An empty string is absent, as browsers send `""` for what they redact; every member has a
/// core counterpart (``membersWithoutCoreCounterpart`` is empty). From the core (``init(_:)``):
/// the reverse, `line2` split at line feeds; the core's email address and
/// ``/CheckoutCore/Address/subAdministrativeArea`` have no member here
/// (``coreMembersWithoutCounterpart(_:)`` names them).
public struct PaymentAddress: Codable, Hashable, Sendable {
    /// The ISO 3166-1 alpha-2 country code.
    public var country: String?
    /// The street lines.
    public var addressLine: [String]?
    /// The state, province or region.
    public var region: String?
    /// The city.
    public var city: String?
    /// A part of the city, such as a neighbourhood.
    public var dependentLocality: String?
    /// The postal code.
    public var postalCode: String?
    /// A sorting code, such as France's CEDEX.
    public var sortingCode: String?
    /// The organisation at the address.
    public var organization: String?
    /// The person the goods are for.
    public var recipient: String?
    /// The recipient's phone number.
    public var phone: String?

    /// An address, every member optional.
    public init(
        country: String? = nil,
        addressLine: [String]? = nil,
        region: String? = nil,
        city: String? = nil,
        dependentLocality: String? = nil,
        postalCode: String? = nil,
        sortingCode: String? = nil,
        organization: String? = nil,
        recipient: String? = nil,
        phone: String? = nil
    ) {
        self.country = country
        self.addressLine = addressLine
        self.region = region
        self.city = city
        self.dependentLocality = dependentLocality
        self.postalCode = postalCode
        self.sortingCode = sortingCode
        self.organization = organization
        self.recipient = recipient
        self.phone = phone
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case country, addressLine, region, city, dependentLocality, postalCode, sortingCode, organization
        case recipient, phone
    }

    /// Decodes every member; an object with keys and none of them is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "PaymentAddress")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func string(_ key: CodingKeys) throws -> String? { try container.decodeIfPresent(String.self, forKey: key) }
        self.init(
            country: try string(.country),
            addressLine: try container.decodeIfPresent([String].self, forKey: .addressLine),
            region: try string(.region),
            city: try string(.city),
            dependentLocality: try string(.dependentLocality),
            postalCode: try string(.postalCode),
            sortingCode: try string(.sortingCode),
            organization: try string(.organization),
            recipient: try string(.recipient),
            phone: try string(.phone)
        )
    }

    /// The address as a core contact (see the type's discussion).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/unknownCountry`` naming `country`.
    public func core() throws -> Contact {
        var countryCode: CountryCode?
        if let code = country.nonEmpty {
            do {
                countryCode = try CountryCode(code)
            } catch var error as CheckoutError {
                error.field = CodingKeys.country.rawValue
                throw error
            }
        }
        let lines = (addressLine ?? []).filter { !$0.isEmpty }
        let address = Address(
            line1: lines.first,
            line2: lines.count > 1 ? lines.dropFirst().joined(separator: "\n") : nil,
            city: city.nonEmpty,
            state: region.nonEmpty,
            postalCode: postalCode.nonEmpty,
            country: countryCode,
            subLocality: dependentLocality.nonEmpty,
            sortingCode: sortingCode.nonEmpty
        )
        return Contact(
            name: recipient.nonEmpty,
            organizationName: organization.nonEmpty,
            phoneNumber: phone.nonEmpty,
            postalAddress: address == Address() ? nil : address
        )
    }

    /// The members present here that ``core()`` has no place for, by their wire names: none,
    /// every member of the dictionary has its place in the core.
    public var membersWithoutCoreCounterpart: [String] { [] }

    /// The members of `core` that ``init(_:)`` has no place for, by their core paths: `email`
    /// and `address.sub_administrative_area`, when present and not blank.
    public static func coreMembersWithoutCounterpart(_ core: Contact) -> [String] {
        var paths: [String] = []
        if !core.emailAddress.isBlank { paths.append("email") }
        if !(core.postalAddress?.subAdministrativeArea).isBlank { paths.append("address.sub_administrative_area") }
        return paths
    }

    /// The core contact's address, organisation, recipient and phone (see the type's discussion).
    public init(_ core: Contact) {
        let address = core.postalAddress
        var lines: [String] = []
        if let line1 = address?.line1 { lines.append(line1) }
        if let line2 = address?.line2 {
            lines += line2.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        self.init(
            country: address?.country?.code,
            addressLine: lines.isEmpty ? nil : lines,
            region: address?.state,
            city: address?.city,
            dependentLocality: address?.subLocality,
            postalCode: address?.postalCode,
            sortingCode: address?.sortingCode,
            organization: core.organizationName,
            recipient: core.name,
            phone: core.phoneNumber
        )
    }
}
