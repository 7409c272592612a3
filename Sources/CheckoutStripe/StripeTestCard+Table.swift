// The card numbers, codes and behaviours below are data from Stripe's testing page,
// docs.stripe.com/testing (read 2026-12-01; see StripeTestCard.pageVersion).

extension StripeTestCard {
    // MARK: Cards by brand

    /// Visa: succeeds.
    public static let success = StripeTestCard("4242424242424242", "Visa", .brands)
    /// Visa (debit): succeeds.
    public static let visaDebit = StripeTestCard("4000056655665556", "Visa (debit)", .brands, funding: "debit")
    /// Mastercard: succeeds.
    public static let mastercard = StripeTestCard("5555555555554444", "Mastercard", .brands)
    /// Mastercard (2-series): succeeds.
    public static let mastercard2Series = StripeTestCard("2223003122003222", "Mastercard (2-series)", .brands)
    /// Mastercard (debit): succeeds.
    public static let mastercardDebit = StripeTestCard(
        "5200828282828210", "Mastercard (debit)", .brands, funding: "debit")
    /// Mastercard (prepaid): succeeds.
    public static let mastercardPrepaid = StripeTestCard(
        "5105105105105100", "Mastercard (prepaid)", .brands, funding: "prepaid")
    /// American Express: succeeds; no 3-D Secure.
    public static let amex = StripeTestCard(
        "378282246310005", "American Express", .brands, authentication: .notSupported)
    /// American Express: succeeds.
    public static let amex2 = StripeTestCard("371449635398431", "American Express", .brands)
    /// Discover: succeeds.
    public static let discover = StripeTestCard("6011111111111117", "Discover", .brands)
    /// Discover: succeeds.
    public static let discover2 = StripeTestCard("6011000990139424", "Discover", .brands)
    /// Discover (debit): succeeds.
    public static let discoverDebit = StripeTestCard("6011981111111113", "Discover (debit)", .brands, funding: "debit")
    /// Diners Club: succeeds.
    public static let diners = StripeTestCard("3056930009020004", "Diners Club", .brands)
    /// Diners Club (14-digit card): succeeds.
    public static let diners14 = StripeTestCard("36227206271667", "Diners Club (14-digit card)", .brands)
    /// JCB: succeeds.
    public static let jcb = StripeTestCard("3566002020360505", "JCB", .brands, country: "JP")
    /// UnionPay: succeeds.
    public static let unionPay = StripeTestCard("6200000000000005", "UnionPay", .brands, country: "CN")
    /// UnionPay (debit): succeeds.
    public static let unionPayDebit = StripeTestCard(
        "6200000000000047", "UnionPay (debit)", .brands, funding: "debit", country: "CN")
    /// UnionPay (19-digit card): succeeds.
    public static let unionPay19 = StripeTestCard(
        "6205500000000000004", "UnionPay (19-digit card)", .brands, country: "CN")
    /// Cartes Bancaires / Visa (co-badged): succeeds.
    public static let cartesBancairesVisa = StripeTestCard(
        "4000002500001001", "Cartes Bancaires / Visa", .brands, country: "FR")
    /// Cartes Bancaires / Mastercard (co-badged): succeeds.
    public static let cartesBancairesMastercard = StripeTestCard(
        "5555552500001001", "Cartes Bancaires / Mastercard", .brands, country: "FR")
    /// eftpos Australia / Visa (co-badged): succeeds.
    public static let eftposVisa = StripeTestCard(
        "4000050360000001", "eftpos Australia / Visa", .brands, funding: "debit", country: "AU")
    /// eftpos Australia / Mastercard (co-badged): succeeds.
    public static let eftposMastercard = StripeTestCard(
        "5555050360000080", "eftpos Australia / Mastercard", .brands, funding: "debit", country: "AU")

    // MARK: Cards by country (a selection of the page's list)

    /// Brazil (BR): succeeds.
    public static let brazil = StripeTestCard("4000000760000002", "Brazil (BR)", .countries, country: "BR")
    /// Canada (CA): succeeds.
    public static let canada = StripeTestCard("4000001240000000", "Canada (CA)", .countries, country: "CA")
    /// Mexico (MX): succeeds.
    public static let mexico = StripeTestCard("4000004840008001", "Mexico (MX)", .countries, country: "MX")
    /// United Kingdom (GB): succeeds.
    public static let unitedKingdom = StripeTestCard(
        "4000008260000000", "United Kingdom (GB)", .countries, country: "GB")
    /// France (FR): succeeds.
    public static let france = StripeTestCard("4000002500000003", "France (FR)", .countries, country: "FR")
    /// Germany (DE): succeeds.
    public static let germany = StripeTestCard("4000002760000016", "Germany (DE)", .countries, country: "DE")
    /// Japan (JP): succeeds.
    public static let japan = StripeTestCard("4000003920000003", "Japan (JP)", .countries, country: "JP")
    /// India (IN): succeeds.
    public static let india = StripeTestCard("4000003560000008", "India (IN)", .countries, country: "IN")
    /// Australia (AU): succeeds.
    public static let australia = StripeTestCard("4000000360000006", "Australia (AU)", .countries, country: "AU")
    /// Singapore (SG): succeeds.
    public static let singapore = StripeTestCard("4000007020000003", "Singapore (SG)", .countries, country: "SG")
    /// Italy (IT): succeeds.
    public static let italy = StripeTestCard("4000003800000008", "Italy (IT)", .countries, country: "IT")
    /// Spain (ES): succeeds.
    public static let spain = StripeTestCard("4000007240000007", "Spain (ES)", .countries, country: "ES")
    /// Netherlands (NL): succeeds.
    public static let netherlands = StripeTestCard("4000005280000002", "Netherlands (NL)", .countries, country: "NL")

    // MARK: Declined payments

    /// Generic decline: `card_declined` / `generic_decline`.
    public static let genericDecline = StripeTestCard(
        "4000000000000002", "Generic decline", .declines, decline: declined("generic_decline"))
    /// Insufficient funds: `card_declined` / `insufficient_funds`.
    public static let insufficientFunds = StripeTestCard(
        "4000000000009995", "Insufficient funds decline", .declines,
        decline: declined("insufficient_funds", "Your card has insufficient funds."))
    /// Lost card: `card_declined` / `lost_card`.
    public static let lostCard = StripeTestCard(
        "4000000000009987", "Lost card decline", .declines, decline: declined("lost_card"))
    /// Stolen card: `card_declined` / `stolen_card`.
    public static let stolenCard = StripeTestCard(
        "4000000000009979", "Stolen card decline", .declines, decline: declined("stolen_card"))
    /// Expired card: `expired_card`, no decline code.
    public static let expiredCard = StripeTestCard(
        "4000000000000069", "Expired card decline", .declines,
        decline: cardError("expired_card", "Your card has expired.", param: "exp_month"))
    /// Incorrect CVC: `incorrect_cvc`, no decline code.
    public static let incorrectCVC = StripeTestCard(
        "4000000000000127", "Incorrect CVC decline", .declines,
        decline: cardError("incorrect_cvc", "Your card's security code is incorrect.", param: "cvc"))
    /// Processing error: `processing_error`, no decline code.
    public static let processingError = StripeTestCard(
        "4000000000000119", "Processing error decline", .declines,
        decline: cardError(
            "processing_error", "An error occurred while processing your card. Try again in a little bit."))
    /// Exceeding velocity limit: `card_declined` / `card_velocity_exceeded`.
    public static let velocityExceeded = StripeTestCard(
        "4000000000006975", "Exceeding velocity limit decline", .declines,
        decline: declined(
            "card_velocity_exceeded",
            "Your card was declined for making repeated attempts too frequently or exceeding its amount limit."))
    /// Attaching to a customer (setting it up) succeeds, charging fails: `card_declined` /
    /// `generic_decline`.
    public static let chargeFails = StripeTestCard(
        "4000000000000341", "Decline after attaching", .declines, decline: declined("generic_decline"),
        declinesSetup: false)

    // MARK: Fraud prevention

    /// Always blocked by Radar: `card_declined` / `fraudulent`.
    public static let alwaysBlocked = StripeTestCard(
        "4100000000000019", "Always blocked", .fraudPrevention, decline: declined("fraudulent"), riskLevel: "highest")
    /// Highest risk: blocked when Radar blocks the highest risk (Stripe's default).
    public static let highestRisk = StripeTestCard(
        "4000000000004954", "Highest risk", .fraudPrevention, riskLevel: "highest")
    /// Elevated risk: succeeds; Radar for Fraud Teams may place it in review.
    public static let elevatedRisk = StripeTestCard(
        "4000000000009235", "Elevated risk", .fraudPrevention, riskLevel: "elevated")
    /// CVC check fails when a CVC is given; Radar may block it.
    public static let cvcCheckFails = StripeTestCard(
        "4000000000000101", "CVC check fails", .fraudPrevention, cvcCheck: .fail)
    /// Postal code check fails; Radar may block it (`incorrect_zip`), as Stripe's default rule does.
    public static let incorrectZIP = StripeTestCard(
        "4000000000000036", "Postal code check fails", .fraudPrevention, postalCodeCheck: .fail)
    /// Street line check fails: succeeds, the check reported.
    public static let line1CheckFails = StripeTestCard(
        "4000000000000028", "Line1 check fails", .fraudPrevention, line1Check: .fail)
    /// Both address checks fail; Radar may block it (`incorrect_zip`).
    public static let addressChecksFail = StripeTestCard(
        "4000000000000010", "Address checks fail", .fraudPrevention, postalCodeCheck: .fail, line1Check: .fail)
    /// Address checks unavailable: succeeds.
    public static let addressUnavailable = StripeTestCard(
        "4000000000000044", "Address unavailable", .fraudPrevention,
        postalCodeCheck: .unavailable, line1Check: .unavailable)

    // MARK: Invalid data

    /// Incorrect number (fails the Luhn check): `incorrect_number` when the payment method is
    /// created.
    public static let incorrectNumber = StripeTestCard(
        "4242424242424241", "Incorrect number", .invalidData, creationError: incorrectNumberError)

    // MARK: 3-D Secure

    /// Authenticate unless set up: 3-D Secure required for on-session payments and setups.
    public static let threeDSecureRequired = StripeTestCard(
        "4000002500003155", "Authenticate unless set up", .threeDSecure, authentication: .unlessSetUp)
    /// Always authenticate: 3-D Secure required every time.
    public static let alwaysAuthenticate = StripeTestCard(
        "4000002760003184", "Always authenticate", .threeDSecure, authentication: .always)
    /// Already set up: setting it up needs 3-D Secure; a payment does not.
    public static let alreadySetUp = StripeTestCard(
        "4000003800000446", "Already set up", .threeDSecure, authentication: .setupOnly)
    /// Insufficient funds: 3-D Secure required, then declined with `insufficient_funds`.
    public static let authenticateThenInsufficientFunds = StripeTestCard(
        "4000008260003178", "Insufficient funds (after authentication)", .threeDSecure,
        decline: declined("insufficient_funds", "Your card has insufficient funds."), authentication: .always)
    /// 3-D Secure 2 required.
    public static let threeDSecure2Required = StripeTestCard(
        "4000000000003220", "3D Secure 2 authentication required", .threeDSecure, authentication: .always)
    /// 3-D Secure required.
    public static let threeDSecureRequired2 = StripeTestCard(
        "4000000000003063", "3D Secure authentication required", .threeDSecure, authentication: .always)
    /// 3-D Secure required, then declined with `card_declined`.
    public static let authenticateThenDecline = StripeTestCard(
        "4000008400001629", "3D Secure required, then declined", .threeDSecure,
        decline: declined("generic_decline"), authentication: .always)
    /// 3-D Secure supported, not required: succeeds.
    public static let threeDSecureSupported = StripeTestCard(
        "4000000000003055", "3D Secure supported", .threeDSecure)

    // MARK: Disputes

    /// Fraudulent dispute after the payment.
    public static let disputeFraudulent = StripeTestCard(
        "4000000000000259", "Fraudulent dispute", .disputes, afterPayment: "dispute: fraudulent")
    /// Not-received dispute after the payment.
    public static let disputeNotReceived = StripeTestCard(
        "4000000000002685", "Not received dispute", .disputes, afterPayment: "dispute: product_not_received")
    /// Inquiry after the payment.
    public static let disputeInquiry = StripeTestCard(
        "4000000000001976", "Inquiry", .disputes, afterPayment: "dispute inquiry: fraudulent")
    /// Early fraud warning after the payment.
    public static let earlyFraudWarning = StripeTestCard(
        "4000000000005423", "Early fraud warning", .disputes, afterPayment: "early fraud warning")

    // MARK: Refunds

    /// A refund stays pending.
    public static let refundPending = StripeTestCard(
        "4000000000007726", "Refund pending", .refunds, afterPayment: "a refund stays pending")
    /// A refund fails asynchronously with `expired_or_canceled_card`.
    public static let refundFails = StripeTestCard(
        "4000000000005126", "Refund fails", .refunds, afterPayment: "a refund fails: expired_or_canceled_card")

    // MARK: Available balance

    /// Funds go straight to the available balance.
    public static let bypassPending = StripeTestCard(
        "4000000000000077", "Bypass pending balance", .balance, afterPayment: "funds available at once")
    /// Funds go straight to the available balance (international).
    public static let bypassPendingInternational = StripeTestCard(
        "4000003720000278", "Bypass pending balance (international)", .balance,
        afterPayment: "funds available at once")
    /// Domestic pricing.
    public static let domesticPricing = StripeTestCard(
        "4000000000000093", "Domestic pricing", .balance, afterPayment: "domestic pricing")

    /// Every card of the page this table follows, in the page's order.
    public static let allCases: [StripeTestCard] = [
        success, visaDebit, mastercard, mastercard2Series, mastercardDebit, mastercardPrepaid, amex, amex2, discover,
        discover2, discoverDebit, diners, diners14, jcb, unionPay, unionPayDebit, unionPay19, cartesBancairesVisa,
        cartesBancairesMastercard, eftposVisa, eftposMastercard,
        brazil, canada, mexico, unitedKingdom, france, germany, japan, india, australia, singapore, italy, spain,
        netherlands,
        genericDecline, insufficientFunds, lostCard, stolenCard, expiredCard, incorrectCVC, processingError,
        velocityExceeded, chargeFails,
        alwaysBlocked, highestRisk, elevatedRisk, cvcCheckFails, incorrectZIP, line1CheckFails, addressChecksFail,
        addressUnavailable,
        incorrectNumber,
        threeDSecureRequired, alwaysAuthenticate, alreadySetUp, authenticateThenInsufficientFunds,
        threeDSecure2Required, threeDSecureRequired2, authenticateThenDecline, threeDSecureSupported,
        disputeFraudulent, disputeNotReceived, disputeInquiry, earlyFraudWarning,
        refundPending, refundFails,
        bypassPending, bypassPendingInternational, domesticPricing,
    ]
}
