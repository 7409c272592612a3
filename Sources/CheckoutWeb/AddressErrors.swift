import CheckoutCore

/// The W3C Payment Request `AddressErrors`: a message per field of the shipping address that
/// the merchant cannot accept. Every member is optional; an object with keys and none of these
/// is refused (spec W2).
public struct AddressErrors: Codable, Hashable, Sendable {
    /// About the street lines.
    public var addressLine: String?
    /// About the city.
    public var city: String?
    /// About the country.
    public var country: String?
    /// About the dependent locality.
    public var dependentLocality: String?
    /// About the organisation.
    public var organization: String?
    /// About the phone number.
    public var phone: String?
    /// About the postal code.
    public var postalCode: String?
    /// About the recipient.
    public var recipient: String?
    /// About the region.
    public var region: String?
    /// About the sorting code.
    public var sortingCode: String?

    /// Errors, every one optional.
    public init(
        addressLine: String? = nil,
        city: String? = nil,
        country: String? = nil,
        dependentLocality: String? = nil,
        organization: String? = nil,
        phone: String? = nil,
        postalCode: String? = nil,
        recipient: String? = nil,
        region: String? = nil,
        sortingCode: String? = nil
    ) {
        self.addressLine = addressLine
        self.city = city
        self.country = country
        self.dependentLocality = dependentLocality
        self.organization = organization
        self.phone = phone
        self.postalCode = postalCode
        self.recipient = recipient
        self.region = region
        self.sortingCode = sortingCode
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case addressLine, city, country, dependentLocality, organization, phone, postalCode, recipient, region
        case sortingCode
    }

    /// Decodes every member; an object with keys and none of them is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "AddressErrors")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func string(_ key: CodingKeys) throws -> String? { try container.decodeIfPresent(String.self, forKey: key) }
        self.init(
            addressLine: try string(.addressLine),
            city: try string(.city),
            country: try string(.country),
            dependentLocality: try string(.dependentLocality),
            organization: try string(.organization),
            phone: try string(.phone),
            postalCode: try string(.postalCode),
            recipient: try string(.recipient),
            region: try string(.region),
            sortingCode: try string(.sortingCode)
        )
    }

    /// Whether no member is set.
    public var isEmpty: Bool { self == AddressErrors() }
}

/// The W3C Payment Request `PayerErrors`: a message per payer field the merchant cannot accept.
/// Every member is optional; an object with keys and none of these is refused (spec W2).
public struct PayerErrors: Codable, Hashable, Sendable {
    /// About the payer's email address.
    public var email: String?
    /// About the payer's name.
    public var name: String?
    /// About the payer's phone number.
    public var phone: String?

    /// Errors, every one optional.
    public init(email: String? = nil, name: String? = nil, phone: String? = nil) {
        self.email = email
        self.name = name
        self.phone = phone
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case email, name, phone
    }

    /// Decodes the three members; an object with keys and none of them is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "PayerErrors")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            email: try container.decodeIfPresent(String.self, forKey: .email),
            name: try container.decodeIfPresent(String.self, forKey: .name),
            phone: try container.decodeIfPresent(String.self, forKey: .phone)
        )
    }

    /// Whether no member is set.
    public var isEmpty: Bool { self == PayerErrors() }
}

extension AddressErrors {
    /// Adds `message` to the member for the core's postal-address `field` (a sub-administrative
    /// area, which the W3C has no member for, to `region`); false for a field that is not part of a
    /// postal address (a contact field, or the address as a whole).
    mutating func append(_ message: String, forAddressField field: PaymentErrorField) -> Bool {
        switch field {
        case .street: CheckoutWeb.append(message, to: &addressLine)
        case .subLocality: CheckoutWeb.append(message, to: &dependentLocality)
        case .city: CheckoutWeb.append(message, to: &city)
        case .subAdministrativeArea, .state: CheckoutWeb.append(message, to: &region)
        case .postalCode: CheckoutWeb.append(message, to: &postalCode)
        case .sortingCode: CheckoutWeb.append(message, to: &sortingCode)
        case .organizationName: CheckoutWeb.append(message, to: &organization)
        case .country: CheckoutWeb.append(message, to: &country)
        case .name, .emailAddress, .phoneNumber, .postalAddress: return false
        }
        return true
    }
}
