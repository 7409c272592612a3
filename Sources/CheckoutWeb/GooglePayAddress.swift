import CheckoutCore

/// Google Pay's `Address` (reference "Response objects"): the full address `PaymentData` carries
/// after authorization, for shipping and, in `CardInfo`, billing.
///
/// To the core (``core()``): `name` and `phoneNumber` are the contact's; `address1` is
/// ``/CheckoutCore/Address/line1``, `address2` and `address3` joined by a line feed
/// ``/CheckoutCore/Address/line2``; `locality` the city, `administrativeArea` the state, `postalCode`,
/// `countryCode` the country, `sortingCode` ``/CheckoutCore/Address/sortingCode``: every member
/// has a core counterpart (``membersWithoutCoreCounterpart`` is empty). From the core
/// (``init(_:)``): the same, `line2` split at line feeds into `address2` and `address3` (a third
/// line and beyond stay in `address3`); Google's address has no member for the core's
/// organisation, sub-locality and sub-administrative area (``coreMembersWithoutCounterpart(_:)``
/// names them), nor for its email, which Google gives beside the address.
public struct GooglePayAddress: Codable, Hashable, Sendable {
    /// The recipient's name.
    public var name: String?
    /// The first street line.
    public var address1: String?
    /// The second street line.
    public var address2: String?
    /// The third street line.
    public var address3: String?
    /// The city or town.
    public var locality: String?
    /// The state, province or region.
    public var administrativeArea: String?
    /// The ISO 3166-1 alpha-2 country code.
    public var countryCode: String?
    /// The postal code.
    public var postalCode: String?
    /// The sorting code (CEDEX in France, ...).
    public var sortingCode: String?
    /// The phone number, when the request asked for it.
    public var phoneNumber: String?

    /// An address; every member is optional.
    public init(
        name: String? = nil, address1: String? = nil, address2: String? = nil, address3: String? = nil,
        locality: String? = nil, administrativeArea: String? = nil, countryCode: String? = nil,
        postalCode: String? = nil, sortingCode: String? = nil, phoneNumber: String? = nil
    ) {
        self.name = name
        self.address1 = address1
        self.address2 = address2
        self.address3 = address3
        self.locality = locality
        self.administrativeArea = administrativeArea
        self.countryCode = countryCode
        self.postalCode = postalCode
        self.sortingCode = sortingCode
        self.phoneNumber = phoneNumber
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, address1, address2, address3, locality, administrativeArea, countryCode, postalCode
        case sortingCode, phoneNumber
    }

    /// Decodes the members; an object with keys but none of them is refused (spec W2).
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "Address")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func string(_ key: CodingKeys) throws -> String? { try container.decodeIfPresent(String.self, forKey: key) }
        self.init(
            name: try string(.name), address1: try string(.address1), address2: try string(.address2),
            address3: try string(.address3), locality: try string(.locality),
            administrativeArea: try string(.administrativeArea), countryCode: try string(.countryCode),
            postalCode: try string(.postalCode), sortingCode: try string(.sortingCode),
            phoneNumber: try string(.phoneNumber))
    }

    /// The contact in the core's terms (see the type's discussion).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `countryCode` when it is not an ISO 3166-1
    ///   alpha-2 code.
    public func core() throws -> Contact {
        let extra = [address2.nonEmpty, address3.nonEmpty].compactMap { $0 }
        let address = Address(
            line1: address1.nonEmpty, line2: extra.isEmpty ? nil : extra.joined(separator: "\n"),
            city: locality.nonEmpty, state: administrativeArea.nonEmpty, postalCode: postalCode.nonEmpty,
            country: try googleCountry(countryCode, path: "countryCode"), sortingCode: sortingCode.nonEmpty)
        return Contact(
            name: name.nonEmpty, phoneNumber: phoneNumber.nonEmpty,
            postalAddress: address == Address() ? nil : address)
    }

    /// The members present that ``core()`` has no place for: none, every member has its place
    /// in the core.
    public var membersWithoutCoreCounterpart: [String] { [] }

    /// The members of `core` that ``init(_:)`` has no place for, by their core paths:
    /// `organization_name`, `address.sub_locality`, `address.sub_administrative_area`, when
    /// present and not blank.
    public static func coreMembersWithoutCounterpart(_ core: Contact) -> [String] {
        let address = core.postalAddress
        let members: [(String, String?)] = [
            ("organization_name", core.organizationName), ("address.sub_locality", address?.subLocality),
            ("address.sub_administrative_area", address?.subAdministrativeArea),
        ]
        return members.compactMap { $0.1.isBlank ? nil : $0.0 }
    }

    /// The core contact's name, phone and address in Google's members (see the type's discussion).
    public init(_ core: Contact) {
        let address = core.postalAddress
        let extra = address?.line2?.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) ?? []
        self.init(
            name: core.name, address1: address?.line1, address2: extra.first,
            address3: extra.count > 1 ? extra.dropFirst().joined(separator: "\n") : nil, locality: address?.city,
            administrativeArea: address?.state, countryCode: address?.country?.code, postalCode: address?.postalCode,
            sortingCode: address?.sortingCode, phoneNumber: core.phoneNumber)
    }
}
