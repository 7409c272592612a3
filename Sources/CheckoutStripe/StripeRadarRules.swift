/// Which of Stripe Radar's built-in rules an account has on: they decide whether a failed CVC or
/// postal-code check, or a payment of the highest risk, is blocked.
///
/// ``stripeDefault`` is how Stripe sets up an account: the built-in rules that block failed CVC
/// and postal-code checks and payments of the highest risk are on. A test of an account that
/// turned them off passes ``permissive``.
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

    /// Stripe's default: every built-in block on.
    public static let stripeDefault = StripeRadarRules(
        blocksFailedCVCCheck: true, blocksFailedPostalCodeCheck: true, blocksHighestRisk: true)

    /// Every built-in block off: failed checks are only reported in the card's `checks`.
    public static let permissive = StripeRadarRules(
        blocksFailedCVCCheck: false, blocksFailedPostalCodeCheck: false, blocksHighestRisk: false)
}
