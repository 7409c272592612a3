/// Which of Stripe Radar's built-in rules an account has on: they decide whether a failed CVC or
/// postal-code check, or a payment of the highest risk, is blocked.
///
/// ``stripeDefault`` is how Stripe sets up an account, per Radar's rules page
/// (docs.stripe.com/radar/rules, "Built-in rules"): `Block if :risk_level: = 'highest'` is
/// "enabled by default", `Block if CVC verification fails` is on, and `Block if postal code
/// verification fails` "might not be enabled for your account by default" (the testing page's
/// older wording: "with default account settings, charge will succeed but address_zip_check will
/// fail"). An account that turned the postal-code rule on is ``blockingFailedPostalCodes``; one
/// that turned every block off is ``permissive``.
public struct StripeRadarRules: Hashable, Sendable, Codable {
    /// Blocks a payment whose CVC check fails (`incorrect_cvc`).
    public var blocksFailedCVCCheck: Bool
    /// Blocks a payment whose postal-code check fails (`incorrect_zip`).
    public var blocksFailedPostalCodeCheck: Bool
    /// Blocks a payment Radar rates at the highest risk (`card_declined` / `fraudulent`).
    public var blocksHighestRisk: Bool

    /// Rules with each block on or off.
    public init(blocksFailedCVCCheck: Bool, blocksFailedPostalCodeCheck: Bool, blocksHighestRisk: Bool) {
        self.blocksFailedCVCCheck = blocksFailedCVCCheck
        self.blocksFailedPostalCodeCheck = blocksFailedPostalCodeCheck
        self.blocksHighestRisk = blocksHighestRisk
    }

    /// Stripe's default: the highest risk and failed CVC checks blocked, failed postal-code
    /// checks only reported.
    public static let stripeDefault = StripeRadarRules(
        blocksFailedCVCCheck: true, blocksFailedPostalCodeCheck: false, blocksHighestRisk: true)

    /// Stripe's default with the postal-code rule turned on: a failed postal-code check is
    /// declined with `incorrect_zip`.
    public static let blockingFailedPostalCodes = StripeRadarRules(
        blocksFailedCVCCheck: true, blocksFailedPostalCodeCheck: true, blocksHighestRisk: true)

    /// Every built-in block off: failed checks are only reported in the card's `checks`.
    public static let permissive = StripeRadarRules(
        blocksFailedCVCCheck: false, blocksFailedPostalCodeCheck: false, blocksHighestRisk: false)
}
