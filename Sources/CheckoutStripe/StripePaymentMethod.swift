import CheckoutCore

/// A Stripe PaymentMethod (`object: "payment_method"`), as Stripe's JSON has it.
///
/// The package models `id`, `type`, `card`, `billing_details`, `customer`, `metadata`, `livemode`
/// and `created`; every other field is kept in ``unmodeledFields`` and written back (read any
/// with ``StripeFieldReading/field(_:)``).
public struct StripePaymentMethod: Hashable, Sendable, Codable, StripeFieldReading {
    /// `pm_…`.
    public var id: String
    /// The payment method's type: `card` for every payment method this package makes.
    public var type: String
    /// The card's details, for a `card` payment method.
    public var card: StripeCard?
    /// Whether the payment method lives in live mode.
    public var livemode: Bool
    /// When it was created, in seconds since 1970; nil when unknown.
    public var created: Int64?
    /// The billing details (`billing_details`): name, email, phone, address.
    public var billingDetails: StripeBillingDetails?
    /// The customer it is attached to (`customer`), by id.
    public var customerID: String?
    /// The merchant's key-value pairs (`metadata`).
    public var metadata: [String: String]?
    /// Every field of Stripe's JSON not modeled above, as Stripe sent it.
    public var unmodeledFields: [String: JSONValue] = [:]

    /// A payment method of any type.
    public init(id: String, type: String = "card", card: StripeCard?, livemode: Bool = false, created: Int64? = nil) {
        self.id = id
        self.type = type
        self.card = card
        self.livemode = livemode
        self.created = created
    }

    /// A card payment method with its id, brand and last four digits.
    public init(id: String, brand: String, last4: String) {
        self.init(id: id, card: StripeCard(brand: brand, last4: last4))
    }

    /// The card's brand (Stripe's value, such as `visa` or `amex`); empty for a payment method
    /// that is not a card.
    public var brand: String { card?.brand ?? "" }
    /// The card's last four digits; empty for a payment method that is not a card.
    public var last4: String { card?.last4 ?? "" }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, object, type, card, livemode, created, customer, metadata
        case billingDetails = "billing_details"
    }

    /// Decodes Stripe's PaymentMethod; `object` must be `payment_method` when present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try StripeObjectName.check(container, .object, expected: ["payment_method"])
        self.init(
            id: try container.decode(String.self, forKey: .id),
            type: try container.decode(String.self, forKey: .type),
            card: try container.decodeIfPresent(StripeCard.self, forKey: .card),
            livemode: try container.decodeIfPresent(Bool.self, forKey: .livemode) ?? false,
            created: try container.decodeIfPresent(Int64.self, forKey: .created)
        )
        billingDetails = try container.decodeIfPresent(StripeBillingDetails.self, forKey: .billingDetails)
        customerID = try container.decodeIfPresent(StripeExpandable.self, forKey: .customer)?.id
        metadata = try container.decodeIfPresent([String: String].self, forKey: .metadata)
        unmodeledFields = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
        if let customer = try container.decodeIfPresent(JSONValue.self, forKey: .customer), customer.objectValue != nil
        {
            unmodeledFields["customer"] = customer
        }
    }

    /// Encodes Stripe's PaymentMethod, with `object: "payment_method"`.
    public func encode(to encoder: any Encoder) throws {
        try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode("payment_method", forKey: .object)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(card, forKey: .card)
        try container.encode(livemode, forKey: .livemode)
        try container.encodeIfPresent(created, forKey: .created)
        try container.encodeIfPresent(billingDetails, forKey: .billingDetails)
        if unmodeledFields["customer"]?.value(at: "id")?.stringValue != customerID {
            try container.encodeIfPresent(customerID, forKey: .customer)
        }
        try container.encodeIfPresent(metadata, forKey: .metadata)
    }
}

/// A PaymentMethod's `card` hash: brand, last four digits, expiry, funding, wallet, checks,
/// networks, display brand, 3-D Secure support and fingerprint; other fields are kept in
/// ``unmodeledFields``.
public struct StripeCard: Hashable, Sendable, Codable {
    /// Stripe's brand value: `amex`, `diners`, `discover`, `eftpos_au`, `jcb`, `link`,
    /// `mastercard`, `unionpay`, `visa` or `unknown`.
    public var brand: String
    /// The last four digits.
    public var last4: String
    /// The expiry month, 1 to 12.
    public var expMonth: Int
    /// The four-digit expiry year.
    public var expYear: Int
    /// `credit`, `debit`, `prepaid` or `unknown`.
    public var funding: String
    /// The issuing country, two letters, when known.
    public var country: String?
    /// The wallet the card came from, such as Apple Pay.
    public var wallet: Wallet?
    /// The results of the address and CVC checks.
    public var checks: Checks?
    /// The brand to show (`display_brand`), such as `cartes_bancaires` for a co-badged card.
    public var displayBrand: String?
    /// The networks the card can be processed on (`networks.available`).
    public var availableNetworks: [String]?
    /// The network the customer preferred (`networks.preferred`), for a co-badged card.
    public var preferredNetwork: String?
    /// Whether the card supports 3-D Secure (`three_d_secure_usage.supported`).
    public var threeDSecureSupported: Bool?
    /// The card number's fingerprint, the same for every payment method of the number.
    public var fingerprint: String?
    /// Every field of Stripe's hash not modeled above, as Stripe sent it (`networks` beyond the
    /// two modeled, `generated_from`, `regulated_status`, ...).
    public var unmodeledFields: [String: JSONValue] = [:]

    /// A card; it expires in December 2034 (the date Stripe's testing page suggests) unless told
    /// otherwise.
    public init(
        brand: String,
        last4: String,
        expMonth: Int = 12,
        expYear: Int = 2034,
        funding: String = "credit",
        country: String? = nil,
        wallet: Wallet? = nil,
        checks: Checks? = nil
    ) {
        self.brand = brand
        self.last4 = last4
        self.expMonth = expMonth
        self.expYear = expYear
        self.funding = funding
        self.country = country
        self.wallet = wallet
        self.checks = checks
    }

    /// The card's `wallet` hash: `type` (`apple_pay`, `google_pay`, `link`, ...) and the device
    /// number's last four digits; the wallet's own hash (`apple_pay: {...}`) is kept.
    public struct Wallet: Hashable, Sendable, Codable {
        /// `apple_pay`, `google_pay`, `link`, ...
        public var type: String
        /// The last four digits of the device account number (`dynamic_last4`).
        public var dynamicLast4: String?
        /// Every field of Stripe's hash not modeled above, as Stripe sent it.
        public var unmodeledFields: [String: JSONValue] = [:]

        /// A wallet of this type.
        public init(type: String, dynamicLast4: String? = nil) {
            self.type = type
            self.dynamicLast4 = dynamicLast4
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case type
            case dynamicLast4 = "dynamic_last4"
        }

        /// Decodes Stripe's `wallet` hash.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                type: try container.decode(String.self, forKey: .type),
                dynamicLast4: try container.decodeIfPresent(String.self, forKey: .dynamicLast4))
            unmodeledFields = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
        }

        /// Encodes Stripe's `wallet` hash.
        public func encode(to encoder: any Encoder) throws {
            try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encodeIfPresent(dynamicLast4, forKey: .dynamicLast4)
        }
    }

    /// The card's `checks` hash: each is `pass`, `fail`, `unavailable`, `unchecked` or absent.
    public struct Checks: Hashable, Sendable, Codable {
        /// The street line check (`address_line1_check`).
        public var addressLine1Check: String?
        /// The postal code check (`address_postal_code_check`).
        public var addressPostalCodeCheck: String?
        /// The CVC check (`cvc_check`).
        public var cvcCheck: String?
        /// Every field of Stripe's hash not modeled above (its `null` checks among them).
        public var unmodeledFields: [String: JSONValue] = [:]

        /// Check results; nil where a check did not run.
        public init(addressLine1Check: String? = nil, addressPostalCodeCheck: String? = nil, cvcCheck: String? = nil) {
            self.addressLine1Check = addressLine1Check
            self.addressPostalCodeCheck = addressPostalCodeCheck
            self.cvcCheck = cvcCheck
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case addressLine1Check = "address_line1_check"
            case addressPostalCodeCheck = "address_postal_code_check"
            case cvcCheck = "cvc_check"
        }

        /// Decodes Stripe's `checks` hash.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                addressLine1Check: try container.decodeIfPresent(String.self, forKey: .addressLine1Check),
                addressPostalCodeCheck: try container.decodeIfPresent(String.self, forKey: .addressPostalCodeCheck),
                cvcCheck: try container.decodeIfPresent(String.self, forKey: .cvcCheck))
            unmodeledFields = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
        }

        /// Encodes Stripe's `checks` hash.
        public func encode(to encoder: any Encoder) throws {
            try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(addressLine1Check, forKey: .addressLine1Check)
            try container.encodeIfPresent(addressPostalCodeCheck, forKey: .addressPostalCodeCheck)
            try container.encodeIfPresent(cvcCheck, forKey: .cvcCheck)
        }
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case brand, last4, funding, country, wallet, checks, networks, fingerprint
        case expMonth = "exp_month"
        case expYear = "exp_year"
        case displayBrand = "display_brand"
        case threeDSecureUsage = "three_d_secure_usage"
    }

    private struct Networks: Codable {
        var available: [String]?
        var preferred: String?
    }

    private struct ThreeDSecureUsage: Codable {
        var supported: Bool?
    }

    /// Decodes Stripe's `card` hash.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            brand: try container.decode(String.self, forKey: .brand),
            last4: try container.decode(String.self, forKey: .last4),
            expMonth: try container.decode(Int.self, forKey: .expMonth),
            expYear: try container.decode(Int.self, forKey: .expYear),
            funding: try container.decode(String.self, forKey: .funding),
            country: try container.decodeIfPresent(String.self, forKey: .country),
            wallet: try container.decodeIfPresent(Wallet.self, forKey: .wallet),
            checks: try container.decodeIfPresent(Checks.self, forKey: .checks))
        displayBrand = try container.decodeIfPresent(String.self, forKey: .displayBrand)
        fingerprint = try container.decodeIfPresent(String.self, forKey: .fingerprint)
        unmodeledFields = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
        // `networks` and `three_d_secure_usage` are kept whole, each with its typed member beside.
        if let networks = try container.decodeIfPresent(JSONValue.self, forKey: .networks) {
            unmodeledFields["networks"] = networks
            let typed = try container.decode(Networks.self, forKey: .networks)
            (availableNetworks, preferredNetwork) = (typed.available, typed.preferred)
        }
        if let usage = try container.decodeIfPresent(JSONValue.self, forKey: .threeDSecureUsage) {
            unmodeledFields["three_d_secure_usage"] = usage
            threeDSecureSupported = try container.decode(ThreeDSecureUsage.self, forKey: .threeDSecureUsage).supported
        }
    }

    /// Encodes Stripe's `card` hash.
    public func encode(to encoder: any Encoder) throws {
        var kept = unmodeledFields
        if availableNetworks != nil || preferredNetwork != nil {
            var networks = kept["networks"]?.objectValue ?? [:]
            networks["available"] = availableNetworks.map { .array($0.map(JSONValue.string)) } ?? networks["available"]
            networks["preferred"] = preferredNetwork.map(JSONValue.string) ?? networks["preferred"]
            kept["networks"] = .object(networks)
        }
        if let threeDSecureSupported {
            var usage = kept["three_d_secure_usage"]?.objectValue ?? [:]
            usage["supported"] = .bool(threeDSecureSupported)
            kept["three_d_secure_usage"] = .object(usage)
        }
        try StripeUnmodeledFields.write(kept, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(brand, forKey: .brand)
        try container.encode(last4, forKey: .last4)
        try container.encode(expMonth, forKey: .expMonth)
        try container.encode(expYear, forKey: .expYear)
        try container.encode(funding, forKey: .funding)
        try container.encodeIfPresent(country, forKey: .country)
        try container.encodeIfPresent(wallet, forKey: .wallet)
        try container.encodeIfPresent(checks, forKey: .checks)
        try container.encodeIfPresent(displayBrand, forKey: .displayBrand)
        try container.encodeIfPresent(fingerprint, forKey: .fingerprint)
    }
}
