import CheckoutCore
import CheckoutFlows
import CheckoutPayContext

/// A merchant declared by its rules: where it ships and for how much, what it refuses, taxes,
/// coupons, surcharges, how it creates Stripe intents, and which misbehaviour to rehearse.
public struct MerchantSpec: Sendable, Codable, Hashable {
    /// Shipping methods offered for a region; the first rule whose region matches wins.
    public struct ShippingRate: Sendable, Codable, Hashable {
        public var region: Region
        public var methods: [ShippingMethod]

        public init(region: Region, methods: [ShippingMethod]) {
            self.region = region
            self.methods = methods
        }

        private enum CodingKeys: String, CodingKey {
            case country
            case state
            case methods
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            region = Region(
                country: try container.decode(CountryCode.self, forKey: .country),
                state: try container.decodeIfPresent(String.self, forKey: .state)
            )
            methods = try container.decode([ShippingMethod].self, forKey: .methods)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(region.country, forKey: .country)
            try container.encodeIfPresent(region.state, forKey: .state)
            try container.encode(methods, forKey: .methods)
        }
    }

    /// A country, or a state of one.
    public struct Region: Sendable, Codable, Hashable {
        public var country: CountryCode
        public var state: String?

        public init(country: CountryCode, state: String? = nil) {
            self.country = country
            self.state = state
        }

        package func contains(_ address: Address?) -> Bool {
            guard let address, address.country == country else { return false }
            guard let state else { return true }
            guard let other = address.state else { return false }
            // Two ASCII strings compare the same ignoring case exactly when their bytes do with
            // ASCII letters folded; other text goes to Foundation.
            if let same = Self.asciiEqualIgnoringCase(other, state) { return same }
            return other.caseInsensitiveCompare(state) == .orderedSame
        }

        /// Whether `a` and `b` are equal ignoring ASCII case, when both are ASCII; nil otherwise.
        private static func asciiEqualIgnoringCase(_ a: String, _ b: String) -> Bool? {
            let a = a.utf8
            let b = b.utf8
            guard a.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) else { return nil }
            guard a.count == b.count else { return false }
            func folded(_ byte: UInt8) -> UInt8 {
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte
            }
            return zip(a, b).allSatisfy { folded($0) == folded($1) }
        }
    }

    /// A coupon: a percentage or an amount off, or one that has expired.
    public struct Coupon: Sendable, Codable, Hashable {
        public var code: String
        /// A decimal percentage, such as `"10"` or `"12.5"`.
        public var percentOff: String?
        public var amountOff: Money?
        public var expired: Bool?

        public init(code: String, percentOff: String? = nil, amountOff: Money? = nil, expired: Bool? = nil) {
            self.code = code
            self.percentOff = percentOff
            self.amountOff = amountOff
            self.expired = expired
        }
    }

    /// A surcharge for a card network or type: an amount, or a decimal percentage of the goods and
    /// shipping.
    public struct Surcharge: Sendable, Codable, Hashable {
        public var network: PaymentNetwork?
        public var cardType: PaymentMethodType?
        public var amount: Money?
        public var percent: String?

        public init(
            network: PaymentNetwork? = nil, cardType: PaymentMethodType? = nil, amount: Money? = nil,
            percent: String? = nil
        ) {
            self.network = network
            self.cardType = cardType
            self.amount = amount
            self.percent = percent
        }

        func applies(to method: PaymentMethod?) -> Bool {
            guard let method else { return false }
            if let network, method.network != network { return false }
            if let cardType, method.type != cardType { return false }
            return network != nil || cardType != nil
        }
    }

    /// How the merchant's server creates the Stripe intent in the pay context.
    public struct IntentSpec: Sendable, Codable, Hashable {
        public enum Kind: String, Sendable, Codable, Hashable {
            case paymentIntent
            case setupIntent
        }

        public var kind: Kind
        public var confirmationMethod: ConfirmationMethod
        public var captureMethod: CaptureMethod
        /// Confirm on the server with the payment method before answering.
        public var confirmOnServer: Bool

        public init(
            kind: Kind = .paymentIntent,
            confirmationMethod: ConfirmationMethod = .automatic,
            captureMethod: CaptureMethod = .automatic,
            confirmOnServer: Bool = false
        ) {
            self.kind = kind
            self.confirmationMethod = confirmationMethod
            self.captureMethod = captureMethod
            self.confirmOnServer = confirmOnServer
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                kind: try container.decodeIfPresent(Kind.self, forKey: .kind) ?? .paymentIntent,
                confirmationMethod: try container.decodeIfPresent(ConfirmationMethod.self, forKey: .confirmationMethod)
                    ?? .automatic,
                captureMethod: try container.decodeIfPresent(CaptureMethod.self, forKey: .captureMethod) ?? .automatic,
                confirmOnServer: try container.decodeIfPresent(Bool.self, forKey: .confirmOnServer) ?? false
            )
        }
    }

    /// Misbehaviour to rehearse on one delegate method.
    public struct Misbehaviour: Sendable, Codable, Hashable {
        public enum Kind: String, Sendable, Codable, Hashable, CaseIterable {
            /// Answer after `seconds` of virtual time.
            case late
            /// Answer twice.
            case twice
            /// Never answer.
            case never
            /// Answer with an update that does not fit the request (a negative total).
            case invalidUpdate
            /// `didCreatePaymentMethod`: answer with a string that is no client secret.
            case malformedSecret
            /// Answer from another thread.
            case fromAnotherThread
        }

        /// The delegate method: `didEnterAddress`, `didSelectShippingContact`,
        /// `didSelectShippingMethod`, `didSelectPaymentMethod`, `didChangeCouponCode`,
        /// `didAuthorizePayment`, `didCreatePaymentMethod`, `willComplete`.
        public var callback: String
        public var kind: Kind
        /// For `late`: how long.
        public var seconds: Int?
        /// Only the first `times` calls misbehave; absent: every call.
        public var times: Int?

        public init(callback: String, kind: Kind, seconds: Int? = nil, times: Int? = nil) {
            self.callback = callback
            self.kind = kind
            self.seconds = seconds
            self.times = times
        }
    }

    public var shippingRates: [ShippingRate]
    public var unserviceable: [Region]
    /// Shipping-contact fields the merchant insists on at authorization.
    public var requiredContactFields: Set<ContactField>
    /// A decimal tax rate on the goods, such as `"0.0825"`.
    public var taxRate: String?
    public var coupons: [Coupon]
    public var surcharges: [Surcharge]
    public var intent: IntentSpec
    /// The Radar rules of the merchant's account on the in-memory backend (absent: Stripe's
    /// default, ``/CheckoutStripe/StripeRadarRules/stripeDefault``); a key left out keeps Stripe's
    /// default for that rule. On `--backend stripe-http` the account's own rules decide instead.
    public var radar: StripeRadarRules?
    public var misbehaviour: [Misbehaviour]

    public init(
        shippingRates: [ShippingRate] = [],
        unserviceable: [Region] = [],
        requiredContactFields: Set<ContactField> = [],
        taxRate: String? = nil,
        coupons: [Coupon] = [],
        surcharges: [Surcharge] = [],
        intent: IntentSpec = IntentSpec(),
        radar: StripeRadarRules? = nil,
        misbehaviour: [Misbehaviour] = []
    ) {
        self.shippingRates = shippingRates
        self.unserviceable = unserviceable
        self.requiredContactFields = requiredContactFields
        self.taxRate = taxRate
        self.coupons = coupons
        self.surcharges = surcharges
        self.intent = intent
        self.radar = radar
        self.misbehaviour = misbehaviour
    }

    private enum CodingKeys: String, CodingKey {
        case shippingRates
        case unserviceable
        case requiredContactFields
        case taxRate
        case coupons
        case surcharges
        case intent
        case radar
        case misbehaviour
    }

    private enum RadarKeys: String, CodingKey {
        case blocksFailedCVCCheck
        case blocksFailedPostalCodeCheck
        case blocksHighestRisk
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        shippingRates = try container.decodeIfPresent([ShippingRate].self, forKey: .shippingRates) ?? []
        unserviceable = try container.decodeIfPresent([Region].self, forKey: .unserviceable) ?? []
        requiredContactFields =
            try container.decodeIfPresent(Set<ContactField>.self, forKey: .requiredContactFields) ?? []
        taxRate = try container.decodeIfPresent(String.self, forKey: .taxRate)
        coupons = try container.decodeIfPresent([Coupon].self, forKey: .coupons) ?? []
        surcharges = try container.decodeIfPresent([Surcharge].self, forKey: .surcharges) ?? []
        intent = try container.decodeIfPresent(IntentSpec.self, forKey: .intent) ?? IntentSpec()
        if container.contains(.radar) {
            let rules = try container.nestedContainer(keyedBy: RadarKeys.self, forKey: .radar)
            let base = StripeRadarRules.stripeDefault
            radar = StripeRadarRules(
                blocksFailedCVCCheck: try rules.decodeIfPresent(Bool.self, forKey: .blocksFailedCVCCheck)
                    ?? base.blocksFailedCVCCheck,
                blocksFailedPostalCodeCheck: try rules.decodeIfPresent(Bool.self, forKey: .blocksFailedPostalCodeCheck)
                    ?? base.blocksFailedPostalCodeCheck,
                blocksHighestRisk: try rules.decodeIfPresent(Bool.self, forKey: .blocksHighestRisk)
                    ?? base.blocksHighestRisk
            )
        } else {
            radar = nil
        }
        misbehaviour = try container.decodeIfPresent([Misbehaviour].self, forKey: .misbehaviour) ?? []
        if let taxRate, Rate(taxRate) == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .taxRate,
                in: container,
                debugDescription: "expected a decimal rate such as \"0.0825\", got \"\(taxRate)\""
            )
        }
        for (index, rule) in misbehaviour.enumerated() {
            if let seconds = rule.seconds, seconds > Scenario.maximumSeconds {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: container.codingPath + [
                            CodingKeys.misbehaviour, IndexKey(index), IndexKey("seconds"),
                        ],
                        debugDescription: "expected at most \(Scenario.maximumSeconds) seconds, got \(seconds)"
                    )
                )
            }
        }
        for (index, coupon) in coupons.enumerated() {
            if let percent = coupon.percentOff, Rate(percent) == nil {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: container.codingPath + [
                            CodingKeys.coupons, IndexKey(index), IndexKey("percentOff"),
                        ],
                        debugDescription: "expected a decimal percentage such as \"10\", got \"\(percent)\""
                    )
                )
            }
        }
    }
}

/// A coding key for paths built by hand.
struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ index: Int) {
        self.stringValue = "\(index)"
        self.intValue = index
    }
    init(_ name: String) {
        self.stringValue = name
        self.intValue = nil
    }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}

/// An exact non-negative decimal rate (`"0.0825"`, `"12.5"`) applied to money with half-up
/// rounding to the minor unit.
package struct Rate: Sendable, Hashable {
    let numerator: Int64
    let denominator: Int64

    package init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            parts.allSatisfy({ $0.allSatisfy(\.isNumber) }), text.count <= 12,
            let numerator = Int64(parts.joined())
        else { return nil }
        self.numerator = numerator
        self.denominator = (0..<(parts.count == 2 ? parts[1].count : 0)).reduce(1) { value, _ in value * 10 }
    }

    /// `amount × rate`, rounded half up; `scale` divides further (100 for a percentage).
    package func applied(to amount: Money, scale: Int64 = 1) -> Money {
        let (product, overflow) = amount.minorUnits.multipliedReportingOverflow(by: numerator)
        let divisor = denominator * scale
        // Rounding half up must not overflow either: near Int64.max, round from the remainder.
        let (rounded, roundingOverflow) = product.addingReportingOverflow(divisor / 2)
        let value =
            overflow
            ? Int64.max / divisor
            : roundingOverflow
                ? product / divisor + (product % divisor >= divisor - divisor / 2 ? 1 : 0)
                : rounded / divisor
        return Money(minorUnits: value, currency: amount.currency)
    }
}
