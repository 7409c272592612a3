/// A test card from Stripe's testing page (docs.stripe.com/testing), with what the page says it
/// does; ``allCases`` is the page's card-number list and the one table both the in-memory backend
/// and the generated docs table (`docs/stripe-test-cards.md`) read.
///
/// The table follows the page as read on 2026-12-01 (``pageVersion``). A card behaves as the
/// page documents it: its brand comes from its number; a decline carries the page's error code
/// and decline code; a 3-D Secure card asks for authentication as its row says; address, postal
/// code and CVC checks report their result and are blocked or not by ``StripeRadarRules``.
/// Disputes and refunds happen after a successful payment, where the flows do not go: those
/// cards succeed and ``afterPayment`` says what Stripe does next.
public struct StripeTestCard: Hashable, Sendable, CustomStringConvertible {
    /// The date of the version of Stripe's testing page this table follows.
    public static let pageVersion = "2026-12-01"
    /// The page this table follows.
    public static let pageSource = "https://docs.stripe.com/testing"

    /// The section of the testing page a card is listed in.
    public enum Section: String, Hashable, Sendable, CaseIterable {
        /// Cards by brand.
        case brands
        /// Cards by country.
        case countries
        /// HSA and FSA cards.
        case hsaFSA
        /// Declined payments.
        case declines
        /// Fraud prevention (Radar, address and CVC checks).
        case fraudPrevention
        /// Invalid data.
        case invalidData
        /// 3-D Secure (regulatory cards).
        case threeDSecure
        /// Disputes.
        case disputes
        /// Refunds.
        case refunds
        /// Funds sent to the available balance.
        case balance
        /// Captcha challenge.
        case captcha
    }

    /// The result of one of the card's checks (Stripe's `checks` values).
    public enum Check: String, Hashable, Sendable {
        /// The check passes.
        case pass
        /// The check fails.
        case fail
        /// The issuer cannot check.
        case unavailable
    }

    /// When the card asks for 3-D Secure authentication.
    public enum Authentication: String, Hashable, Sendable {
        /// The card does not support 3-D Secure.
        case notSupported
        /// 3-D Secure is supported and not required: the payment succeeds without it.
        case supported
        /// "Authenticate unless set up": on-session payments and setups need authentication.
        case unlessSetUp
        /// "Always authenticate": every payment and setup needs authentication.
        case always
        /// "Already set up": one-time and other on-session payments need authentication; the card
        /// counts as set up, so off-session payments and setting it up do not.
        case onSessionPayments
    }

    /// The card number, digits only.
    public let number: String
    /// The card number (compatibility name).
    public var rawValue: String { number }
    /// What the page calls the card.
    public let name: String
    /// The page's section.
    public let section: Section
    /// `credit`, `debit` or `prepaid`.
    public let funding: String
    /// The issuing country, two letters.
    public let country: String
    /// The error creating a payment method with the number gives (invalid data), if any.
    public let creationError: StripeError?
    /// The decline a confirmation (after authentication, if any) gives, if any.
    public let decline: StripeError?
    /// Whether ``decline`` also declines setting the card up (false for a card that can be saved
    /// but not charged).
    public let declinesSetup: Bool
    /// When the card asks for 3-D Secure.
    public let authentication: Authentication
    /// The postal-code check's result.
    public let postalCodeCheck: Check
    /// The street line check's result.
    public let line1Check: Check
    /// The CVC check's result when a CVC is given (Apple Pay gives none).
    public let cvcCheck: Check
    /// Radar's risk level: `normal`, `elevated` or `highest`.
    public let riskLevel: String
    /// What Stripe does after a successful payment (a dispute, a refund's fate), if anything.
    public let afterPayment: String?

    /// The card's brand, from its number (``StripeCardBrand/of(_:)``).
    public var brand: String { StripeCardBrand.of(number) }
    /// The last four digits.
    public var last4: String { String(number.suffix(4)) }
    /// `name (number)`.
    public var description: String { "\(name) (\(number))" }

    init(
        _ number: String,
        _ name: String,
        _ section: Section,
        funding: String = "credit",
        country: String = "US",
        creationError: StripeError? = nil,
        decline: StripeError? = nil,
        declinesSetup: Bool = true,
        authentication: Authentication = .supported,
        postalCodeCheck: Check = .pass,
        line1Check: Check = .pass,
        cvcCheck: Check = .pass,
        riskLevel: String = "normal",
        afterPayment: String? = nil
    ) {
        self.number = number
        self.name = name
        self.section = section
        self.funding = funding
        self.country = country
        self.creationError = creationError
        self.decline = decline
        self.declinesSetup = declinesSetup
        self.authentication = authentication
        self.postalCodeCheck = postalCodeCheck
        self.line1Check = line1Check
        self.cvcCheck = cvcCheck
        self.riskLevel = riskLevel
        self.afterPayment = afterPayment
    }

    /// The card with this number, if it is one of the page's.
    public init?(rawValue: String) {
        guard let card = Self.byNumber[rawValue] else { return nil }
        self = card
    }

    /// ``allCases`` by number, the first card of each number: a token's card is looked up on
    /// every authorization, where a walk of the table cost about 28,000 instructions.
    private static let byNumber: [String: StripeTestCard] = Dictionary(
        allCases.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })

    /// The card a payment token's data names: the number with spaces or dashes, or one of the
    /// test ids Stripe's testing page (docs.stripe.com/testing) gives for the cards: the token
    /// `tok_visa` and the PaymentMethods `pm_card_visa` (4242 4242 4242 4242) and
    /// `pm_card_chargeDeclined` (4000 0000 0000 0002), which a page's Stripe.js stands in for in
    /// tests of the Express Checkout Element.
    public init?(paymentData: String) {
        let digits: String
        switch paymentData {
        case "tok_visa", "pm_card_visa": digits = Self.success.number
        case "pm_card_chargeDeclined": digits = Self.genericDecline.number
        default: digits = paymentData.filter(\.isNumber)
        }
        self.init(rawValue: digits)
    }

    // MARK: Outcomes

    /// What confirming an intent with this card does.
    public enum Outcome: Hashable, Sendable {
        /// The payment or setup succeeds (`succeeded`, or `requires_capture` for manual capture).
        case succeeds
        /// 3-D Secure is needed: the intent goes to `requires_action`.
        case requiresAction
        /// The confirmation fails with this card error; the intent goes back to
        /// `requires_payment_method`.
        case declines(StripeError)
    }

    /// What a confirmation does on an account with these Radar rules: a SetupIntent when `setup`,
    /// else a PaymentIntent; `cvcProvided` is false for Apple Pay, which sends no CVC.
    public func outcome(setup: Bool, radar: StripeRadarRules = .stripeDefault, cvcProvided: Bool = false) -> Outcome {
        switch authentication {
        case .always, .unlessSetUp: return .requiresAction
        case .onSessionPayments where !setup: return .requiresAction
        case .onSessionPayments, .supported, .notSupported: break
        }
        if let decline, !setup || declinesSetup { return .declines(decline) }
        if radar.blocksHighestRisk, riskLevel == "highest" { return .declines(Self.fraudulent) }
        if cvcProvided, radar.blocksFailedCVCCheck, cvcCheck == .fail { return .declines(Self.incorrectCVCError) }
        if radar.blocksFailedPostalCodeCheck, postalCodeCheck == .fail { return .declines(Self.incorrectZIPError) }
        return .succeeds
    }

    /// The decline a PaymentIntent confirmation gives under Stripe's default Radar rules, if any.
    public var error: StripeError? {
        if case .declines(let error) = outcome(setup: false) { return error }
        return creationError
    }

    // MARK: Stripe's errors

    static func declined(_ decline: String, _ message: String = "Your card was declined.") -> StripeError {
        StripeError(
            type: "card_error", code: "card_declined", declineCode: decline, message: message,
            docURL: "https://stripe.com/docs/error-codes/card-declined")
    }

    /// `card_declined` with no decline code: the page gives only the error code.
    static func declinedWithoutReason() -> StripeError {
        StripeError(
            type: "card_error", code: "card_declined", message: "Your card was declined.",
            docURL: "https://stripe.com/docs/error-codes/card-declined")
    }

    static func cardError(_ code: String, _ message: String, param: String? = nil) -> StripeError {
        StripeError(
            type: "card_error", code: code, message: message, param: param,
            docURL: "https://stripe.com/docs/error-codes/\(code.replacingUnderscores())")
    }

    private static let fraudulent = declined("fraudulent")
    private static let incorrectCVCError = cardError(
        "incorrect_cvc", "Your card's security code is incorrect.", param: "cvc")
    private static let incorrectZIPError = cardError("incorrect_zip", "Your card's zip code is incorrect.")

    /// The error Stripe's test mode gives for a valid number that is not a test card.
    public static let liveCardInTestMode = declined(
        "test_mode_live_card",
        "Your card was declined. Your request was in test mode, but used a non test (live) card. "
            + "For a list of valid test cards, visit: https://stripe.com/docs/testing.")

    /// The error for a number that fails the Luhn check.
    public static let incorrectNumberError = cardError(
        "incorrect_number", "Your card number is incorrect.", param: "number")
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
