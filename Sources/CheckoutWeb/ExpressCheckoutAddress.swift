import CheckoutCore

/// An address as Stripe's Express Checkout Element gives it: `{line1, line2, city, state,
/// postal_code, country}` (stripe-js `ExpressCheckoutAddress`), or, in a `shippingaddresschange`
/// event, the partial address the wallet shares before the customer pays: `{city, state,
/// postal_code, country}` (stripe-js `ExpressCheckoutPartialAddress`; source:
/// docs.stripe.com/js/elements_object/express_checkout_element_shippingaddresschange_event).
///
/// `country` is required; the other members may be absent (a partial address has no lines, and
/// wallets leave out what a country does not use). An empty string is read as absent, as the
/// wallets send `""` for what they do not have.
public struct ExpressCheckoutAddress: Codable, Hashable, Sendable {
    /// The first street line; absent in a partial address.
    public var line1: String?
    /// The second street line (`null` on the wire when there is none).
    public var line2: String?
    /// The city or locality.
    public var city: String?
    /// The state, province or region.
    public var state: String?
    /// The postal code (truncated by some wallets in a partial address).
    public var postalCode: String?
    /// The two-letter ISO 3166-1 country code.
    public var country: String

    /// An address.
    public init(
        line1: String? = nil, line2: String? = nil, city: String? = nil, state: String? = nil,
        postalCode: String? = nil, country: String
    ) {
        self.line1 = line1
        self.line2 = line2
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.country = country
    }

    private enum CodingKeys: String, CodingKey {
        case line1, line2, city, state, country
        case postalCode = "postal_code"
    }

    /// The core address.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `country` for a code that is not ISO
    ///   3166-1 alpha-2.
    public func core() throws -> Address {
        Address(
            line1: line1.nonEmpty, line2: line2.nonEmpty, city: city.nonEmpty, state: state.nonEmpty,
            postalCode: postalCode.nonEmpty, country: try CountryCode(country))
    }

    /// The core address as the element writes it: in Stripe's six fields, what they have no
    /// field for folded in as Stripe's own conversion folds it
    /// (``/CheckoutCore/Address/foldedForStripe``: sub-locality and sub-administrative area in
    /// `line2`, sorting code in `city`; spec W2).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `country` when the address has none (the
    ///   element's address always has one).
    public init(_ core: Address) throws {
        guard let country = core.country else { throw missingMember("country", "the element's address needs one") }
        let core = core.foldedForStripe
        self.init(
            line1: core.line1, line2: core.line2, city: core.city, state: core.state, postalCode: core.postalCode,
            country: country.code)
    }
}
