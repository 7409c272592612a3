import CheckoutCore

/// Apple Pay on the web's `ApplePayPaymentContact`: a billing or shipping contact as the page's
/// `ApplePaySession` hands it over (`onshippingcontactselected`, `onpaymentauthorized`), member
/// for member as WebKit's IDL declares it. Every member is optional.
///
/// Decoding tolerates members it does not know, but refuses an object none of whose keys is a
/// member of this dictionary (spec W2): such a payload is not a contact and is never read as an
/// empty one.
///
/// Conversion to ``/CheckoutCore/Contact`` (``core()``):
/// - `givenName` and `familyName` become ``/CheckoutCore/Contact/name``, joined by one space (either alone
///   when the other is absent or empty).
/// - `addressLines[0]` becomes ``/CheckoutCore/Address/line1``; the further lines become ``/CheckoutCore/Address/line2``,
///   joined by a line feed.
/// - `locality` → ``/CheckoutCore/Address/city``, `administrativeArea` → ``/CheckoutCore/Address/state``, `postalCode` →
///   ``/CheckoutCore/Address/postalCode``, `countryCode` → ``/CheckoutCore/Address/country`` (an ISO 3166-1 code, checked;
///   a code that is not one is an error naming `countryCode`).
/// - `subLocality` → ``/CheckoutCore/Address/subLocality``, `subAdministrativeArea` →
///   ``/CheckoutCore/Address/subAdministrativeArea`` (`CNPostalAddress`'s names).
/// - An empty string is read as absent, as the browser sends `""` for what it does not have.
/// - The core has no place for `phoneticGivenName`, `phoneticFamilyName` and the country's
///   display name `country`: they stay on this value (``membersWithoutCoreCounterpart`` lists
///   those present) and are not in the `Contact`.
///
/// Conversion from ``/CheckoutCore/Contact`` (``init(_:)``): the name is split at its first space into
/// `givenName` and `familyName` (a one-word name is the `givenName`), `line2` is split at line
/// feeds into further address lines, the country becomes `countryCode`, the sub-locality and the
/// sub-administrative area their members. A contact that went through `core()` comes back with
/// the same name, lines and address. Apple's dictionary has no member for the core's
/// ``/CheckoutCore/Contact/organizationName`` and ``/CheckoutCore/Address/sortingCode`` (WebKit's
/// own conversion of this dictionary to a W3C `PaymentAddress`, `convert(const
/// ApplePayPaymentContact&)` in `Source/WebCore/Modules/applepay/paymentrequest/ApplePayPaymentHandler.cpp`,
/// leaves `organization` and `sortingCode` empty): ``coreMembersWithoutCounterpart(_:)`` names
/// those a contact has, so a caller can refuse or keep them rather than lose them.
public struct ApplePayPaymentContact: Codable, Hashable, Sendable {
    /// The phone number.
    public var phoneNumber: String?
    /// The email address.
    public var emailAddress: String?
    /// The given (first) name.
    public var givenName: String?
    /// The family (last) name.
    public var familyName: String?
    /// The phonetic spelling of the given name.
    public var phoneticGivenName: String?
    /// The phonetic spelling of the family name.
    public var phoneticFamilyName: String?
    /// The street lines of the address.
    public var addressLines: [String]?
    /// A part of the city, such as a neighbourhood.
    public var subLocality: String?
    /// The city.
    public var locality: String?
    /// The postal code.
    public var postalCode: String?
    /// A subdivision of the state, such as a county.
    public var subAdministrativeArea: String?
    /// The state, province or region.
    public var administrativeArea: String?
    /// The country's name, for display.
    public var country: String?
    /// The country's ISO 3166-1 alpha-2 code.
    public var countryCode: String?

    /// A contact with the given members, every one optional.
    public init(
        phoneNumber: String? = nil,
        emailAddress: String? = nil,
        givenName: String? = nil,
        familyName: String? = nil,
        phoneticGivenName: String? = nil,
        phoneticFamilyName: String? = nil,
        addressLines: [String]? = nil,
        subLocality: String? = nil,
        locality: String? = nil,
        postalCode: String? = nil,
        subAdministrativeArea: String? = nil,
        administrativeArea: String? = nil,
        country: String? = nil,
        countryCode: String? = nil
    ) {
        self.phoneNumber = phoneNumber
        self.emailAddress = emailAddress
        self.givenName = givenName
        self.familyName = familyName
        self.phoneticGivenName = phoneticGivenName
        self.phoneticFamilyName = phoneticFamilyName
        self.addressLines = addressLines
        self.subLocality = subLocality
        self.locality = locality
        self.postalCode = postalCode
        self.subAdministrativeArea = subAdministrativeArea
        self.administrativeArea = administrativeArea
        self.country = country
        self.countryCode = countryCode
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case phoneNumber, emailAddress, givenName, familyName, phoneticGivenName, phoneticFamilyName
        case addressLines, subLocality, locality, postalCode, subAdministrativeArea, administrativeArea
        case country, countryCode
    }

    /// Decodes every documented member; unknown keys are ignored, but an object with keys and
    /// none of this dictionary's is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "ApplePayPaymentContact")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func string(_ key: CodingKeys) throws -> String? { try container.decodeIfPresent(String.self, forKey: key) }
        self.init(
            phoneNumber: try string(.phoneNumber),
            emailAddress: try string(.emailAddress),
            givenName: try string(.givenName),
            familyName: try string(.familyName),
            phoneticGivenName: try string(.phoneticGivenName),
            phoneticFamilyName: try string(.phoneticFamilyName),
            addressLines: try container.decodeIfPresent([String].self, forKey: .addressLines),
            subLocality: try string(.subLocality),
            locality: try string(.locality),
            postalCode: try string(.postalCode),
            subAdministrativeArea: try string(.subAdministrativeArea),
            administrativeArea: try string(.administrativeArea),
            country: try string(.country),
            countryCode: try string(.countryCode)
        )
    }

    /// The contact in the core's terms (see the type's discussion for each member).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/unknownCountry`` and field
    ///   `countryCode` when the code is not an ISO 3166-1 alpha-2 code.
    public func core() throws -> Contact {
        let name = [givenName.nonEmpty, familyName.nonEmpty].compactMap { $0 }.joined(separator: " ")
        let lines = (addressLines ?? []).filter { !$0.isEmpty }
        var country: CountryCode?
        if let code = countryCode.nonEmpty {
            do {
                country = try CountryCode(code)
            } catch var error as CheckoutError {
                error.field = CodingKeys.countryCode.rawValue
                throw error
            }
        }
        let address = Address(
            line1: lines.first,
            line2: lines.count > 1 ? lines.dropFirst().joined(separator: "\n") : nil,
            city: locality.nonEmpty,
            state: administrativeArea.nonEmpty,
            postalCode: postalCode.nonEmpty,
            country: country,
            subLocality: subLocality.nonEmpty,
            subAdministrativeArea: subAdministrativeArea.nonEmpty
        )
        return Contact(
            name: name.isEmpty ? nil : name,
            emailAddress: emailAddress.nonEmpty,
            phoneNumber: phoneNumber.nonEmpty,
            postalAddress: address == Address() ? nil : address
        )
    }

    /// The members present here that ``core()`` has no place for, by their wire names:
    /// `phoneticGivenName`, `phoneticFamilyName`, `country`. A relay that must not lose them
    /// keeps this value beside the core one.
    public var membersWithoutCoreCounterpart: [String] {
        let members: [(CodingKeys, String?)] = [
            (.phoneticGivenName, phoneticGivenName), (.phoneticFamilyName, phoneticFamilyName), (.country, country),
        ]
        return members.compactMap { $0.1.nonEmpty == nil ? nil : $0.0.rawValue }
    }

    /// The members of `core` that ``init(_:)`` has no place for, by their core paths:
    /// `organization_name` and `address.sorting_code`, when present and not blank.
    public static func coreMembersWithoutCounterpart(_ core: Contact) -> [String] {
        var paths: [String] = []
        if !core.organizationName.isBlank { paths.append("organization_name") }
        if !(core.postalAddress?.sortingCode).isBlank { paths.append("address.sorting_code") }
        return paths
    }

    /// The core contact in Apple's members (see the type's discussion). The redaction flag has
    /// no member here: a redacted contact is simply one without street, name, email and phone.
    public init(_ core: Contact) {
        var given: String?
        var family: String?
        if let name = core.name.nonEmpty {
            if let space = name.firstIndex(of: " ") {
                given = String(name[..<space])
                family = String(name[name.index(after: space)...])
            } else {
                given = name
            }
        }
        let address = core.postalAddress
        var lines: [String] = []
        if let line1 = address?.line1 { lines.append(line1) }
        if let line2 = address?.line2 {
            lines += line2.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        self.init(
            phoneNumber: core.phoneNumber,
            emailAddress: core.emailAddress,
            givenName: given,
            familyName: family,
            addressLines: lines.isEmpty ? nil : lines,
            subLocality: address?.subLocality,
            locality: address?.city,
            postalCode: address?.postalCode,
            subAdministrativeArea: address?.subAdministrativeArea,
            administrativeArea: address?.state,
            countryCode: address?.country?.code
        )
    }
}
