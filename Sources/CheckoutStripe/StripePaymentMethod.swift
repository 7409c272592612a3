/// A Stripe PaymentMethod (`object: "payment_method"`), as Stripe's JSON has it.
///
/// The package models `id`, `type`, `card`, `livemode` and `created`; other fields are
/// accepted and not kept.
public struct StripePaymentMethod: Hashable, Sendable, Codable {
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

    private enum CodingKeys: String, CodingKey {
        case id, object, type, card, livemode, created
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
    }

    /// Encodes Stripe's PaymentMethod, with `object: "payment_method"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode("payment_method", forKey: .object)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(card, forKey: .card)
        try container.encode(livemode, forKey: .livemode)
        try container.encodeIfPresent(created, forKey: .created)
    }
}

/// A PaymentMethod's `card` hash: brand, last four digits, expiry, funding, wallet, checks.
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
    /// number's last four digits.
    public struct Wallet: Hashable, Sendable, Codable {
        /// `apple_pay`, `google_pay`, `link`, ...
        public var type: String
        /// The last four digits of the device account number (`dynamic_last4`).
        public var dynamicLast4: String?

        /// A wallet of this type.
        public init(type: String, dynamicLast4: String? = nil) {
            self.type = type
            self.dynamicLast4 = dynamicLast4
        }

        private enum CodingKeys: String, CodingKey {
            case type
            case dynamicLast4 = "dynamic_last4"
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

        /// Check results; nil where a check did not run.
        public init(addressLine1Check: String? = nil, addressPostalCodeCheck: String? = nil, cvcCheck: String? = nil) {
            self.addressLine1Check = addressLine1Check
            self.addressPostalCodeCheck = addressPostalCodeCheck
            self.cvcCheck = cvcCheck
        }

        private enum CodingKeys: String, CodingKey {
            case addressLine1Check = "address_line1_check"
            case addressPostalCodeCheck = "address_postal_code_check"
            case cvcCheck = "cvc_check"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case brand, last4, funding, country, wallet, checks
        case expMonth = "exp_month"
        case expYear = "exp_year"
    }
}
