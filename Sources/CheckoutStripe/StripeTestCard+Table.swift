// The card numbers, codes and behaviours below are data from Stripe's testing page,
// https://docs.stripe.com/testing (its Markdown, docs.stripe.com/testing.md, read 2026-12-01; see
// StripeTestCard.pageSource and StripeTestCard.pageVersion).

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
    /// BCcard and DinaCard: succeeds (on the Discover network).
    public static let bcCardDinaCard = StripeTestCard("6555900000604105", "BCcard and DinaCard", .brands)
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

    // MARK: Cards by country (the page's list but for United States, 4242424242424242 above)

    /// Argentina (AR): succeeds.
    public static let argentina = StripeTestCard("4000000320000021", "Argentina (AR)", .countries, country: "AR")
    /// Brazil (BR): succeeds.
    public static let brazil = StripeTestCard("4000000760000002", "Brazil (BR)", .countries, country: "BR")
    /// Canada (CA): succeeds.
    public static let canada = StripeTestCard("4000001240000000", "Canada (CA)", .countries, country: "CA")
    /// Chile (CL): succeeds.
    public static let chile = StripeTestCard("4000001520000001", "Chile (CL)", .countries, country: "CL")
    /// Colombia (CO): succeeds.
    public static let colombia = StripeTestCard("4000001700000003", "Colombia (CO)", .countries, country: "CO")
    /// Costa Rica (CR): succeeds.
    public static let costaRica = StripeTestCard("4000001880000005", "Costa Rica (CR)", .countries, country: "CR")
    /// Ecuador (EC): succeeds.
    public static let ecuador = StripeTestCard("4000002180000000", "Ecuador (EC)", .countries, country: "EC")
    /// Mexico (MX): succeeds.
    public static let mexico = StripeTestCard("4000004840008001", "Mexico (MX)", .countries, country: "MX")
    /// Mexico (MX), Carnet: succeeds. Carnet is none of Stripe's `card.brand` values, so its brand
    /// reads `unknown` (``StripeCardBrand/of(_:)``).
    public static let mexicoCarnet = StripeTestCard(
        "5062210000000009", "Mexico (MX) Carnet", .countries, country: "MX")
    /// Panama (PA): succeeds.
    public static let panama = StripeTestCard("4000005910000000", "Panama (PA)", .countries, country: "PA")
    /// Paraguay (PY): succeeds.
    public static let paraguay = StripeTestCard("4000006000000066", "Paraguay (PY)", .countries, country: "PY")
    /// Peru (PE): succeeds.
    public static let peru = StripeTestCard("4000006040000068", "Peru (PE)", .countries, country: "PE")
    /// Uruguay (UY): succeeds.
    public static let uruguay = StripeTestCard("4000008580000003", "Uruguay (UY)", .countries, country: "UY")
    /// United Arab Emirates (AE): succeeds.
    public static let unitedArabEmirates = StripeTestCard(
        "4000007840000001", "United Arab Emirates (AE)", .countries, country: "AE")
    /// United Arab Emirates (AE), Mastercard: succeeds.
    public static let unitedArabEmiratesMastercard = StripeTestCard(
        "5200007840000022", "United Arab Emirates (AE), Mastercard", .countries, country: "AE")
    /// Austria (AT): succeeds.
    public static let austria = StripeTestCard("4000000400000008", "Austria (AT)", .countries, country: "AT")
    /// Belgium (BE): succeeds.
    public static let belgium = StripeTestCard("4000000560000004", "Belgium (BE)", .countries, country: "BE")
    /// Bulgaria (BG): succeeds.
    public static let bulgaria = StripeTestCard("4000001000000000", "Bulgaria (BG)", .countries, country: "BG")
    /// Belarus (BY): succeeds.
    public static let belarus = StripeTestCard("4000001120000005", "Belarus (BY)", .countries, country: "BY")
    /// Croatia (HR): succeeds.
    public static let croatia = StripeTestCard("4000001910000009", "Croatia (HR)", .countries, country: "HR")
    /// Cyprus (CY): succeeds.
    public static let cyprus = StripeTestCard("4000001960000008", "Cyprus (CY)", .countries, country: "CY")
    /// Czech Republic (CZ): succeeds.
    public static let czechRepublic = StripeTestCard(
        "4000002030000002", "Czech Republic (CZ)", .countries, country: "CZ")
    /// Denmark (DK): succeeds.
    public static let denmark = StripeTestCard("4000002080000001", "Denmark (DK)", .countries, country: "DK")
    /// Estonia (EE): succeeds.
    public static let estonia = StripeTestCard("4000002330000009", "Estonia (EE)", .countries, country: "EE")
    /// Finland (FI): succeeds.
    public static let finland = StripeTestCard("4000002460000001", "Finland (FI)", .countries, country: "FI")
    /// France (FR): succeeds.
    public static let france = StripeTestCard("4000002500000003", "France (FR)", .countries, country: "FR")
    /// Germany (DE): succeeds.
    public static let germany = StripeTestCard("4000002760000016", "Germany (DE)", .countries, country: "DE")
    /// Gibraltar (GI): succeeds.
    public static let gibraltar = StripeTestCard("4000002920000005", "Gibraltar (GI)", .countries, country: "GI")
    /// Greece (GR): succeeds.
    public static let greece = StripeTestCard("4000003000000030", "Greece (GR)", .countries, country: "GR")
    /// Hungary (HU): succeeds.
    public static let hungary = StripeTestCard("4000003480000005", "Hungary (HU)", .countries, country: "HU")
    /// Ireland (IE): succeeds.
    public static let ireland = StripeTestCard("4000003720000005", "Ireland (IE)", .countries, country: "IE")
    /// Italy (IT): succeeds.
    public static let italy = StripeTestCard("4000003800000008", "Italy (IT)", .countries, country: "IT")
    /// Latvia (LV): succeeds.
    public static let latvia = StripeTestCard("4000004280000005", "Latvia (LV)", .countries, country: "LV")
    /// Liechtenstein (LI): succeeds.
    public static let liechtenstein = StripeTestCard(
        "4000004380000004", "Liechtenstein (LI)", .countries, country: "LI")
    /// Lithuania (LT): succeeds.
    public static let lithuania = StripeTestCard("4000004400000000", "Lithuania (LT)", .countries, country: "LT")
    /// Luxembourg (LU): succeeds.
    public static let luxembourg = StripeTestCard("4000004420000006", "Luxembourg (LU)", .countries, country: "LU")
    /// Malta (MT): succeeds.
    public static let malta = StripeTestCard("4000004700000007", "Malta (MT)", .countries, country: "MT")
    /// Netherlands (NL): succeeds.
    public static let netherlands = StripeTestCard("4000005280000002", "Netherlands (NL)", .countries, country: "NL")
    /// Norway (NO): succeeds.
    public static let norway = StripeTestCard("4000005780000007", "Norway (NO)", .countries, country: "NO")
    /// Poland (PL): succeeds.
    public static let poland = StripeTestCard("4000006160000005", "Poland (PL)", .countries, country: "PL")
    /// Portugal (PT): succeeds.
    public static let portugal = StripeTestCard("4000006200000007", "Portugal (PT)", .countries, country: "PT")
    /// Romania (RO): succeeds.
    public static let romania = StripeTestCard("4000006420000001", "Romania (RO)", .countries, country: "RO")
    /// Saudi Arabia (SA): succeeds.
    public static let saudiArabia = StripeTestCard("4000006820000007", "Saudi Arabia (SA)", .countries, country: "SA")
    /// Slovenia (SI): succeeds.
    public static let slovenia = StripeTestCard("4000007050000006", "Slovenia (SI)", .countries, country: "SI")
    /// Slovakia (SK): succeeds.
    public static let slovakia = StripeTestCard("4000007030000001", "Slovakia (SK)", .countries, country: "SK")
    /// Spain (ES): succeeds.
    public static let spain = StripeTestCard("4000007240000007", "Spain (ES)", .countries, country: "ES")
    /// Sweden (SE): succeeds.
    public static let sweden = StripeTestCard("4000007520000008", "Sweden (SE)", .countries, country: "SE")
    /// Switzerland (CH): succeeds.
    public static let switzerland = StripeTestCard("4000007560000009", "Switzerland (CH)", .countries, country: "CH")
    /// United Kingdom (GB): succeeds.
    public static let unitedKingdom = StripeTestCard(
        "4000008260000000", "United Kingdom (GB)", .countries, country: "GB")
    /// United Kingdom (GB), Visa (debit): succeeds.
    public static let unitedKingdomDebit = StripeTestCard(
        "4000058260000005", "United Kingdom (GB), Visa (debit)", .countries, funding: "debit", country: "GB")
    /// United Kingdom (GB), Mastercard: succeeds.
    public static let unitedKingdomMastercard = StripeTestCard(
        "5555558265554449", "United Kingdom (GB), Mastercard", .countries, country: "GB")
    /// Australia (AU): succeeds.
    public static let australia = StripeTestCard("4000000360000006", "Australia (AU)", .countries, country: "AU")
    /// China (CN): succeeds.
    public static let china = StripeTestCard("4000001560000002", "China (CN)", .countries, country: "CN")
    /// Hong Kong (HK): succeeds.
    public static let hongKong = StripeTestCard("4000003440000004", "Hong Kong (HK)", .countries, country: "HK")
    /// India (IN): succeeds.
    public static let india = StripeTestCard("4000003560000008", "India (IN)", .countries, country: "IN")
    /// Japan (JP): succeeds.
    public static let japan = StripeTestCard("4000003920000003", "Japan (JP)", .countries, country: "JP")
    /// Japan (JP), JCB: succeeds.
    public static let japanJCB = StripeTestCard("3530111333300000", "Japan (JP), JCB", .countries, country: "JP")
    /// Malaysia (MY): succeeds.
    public static let malaysia = StripeTestCard("4000004580000002", "Malaysia (MY)", .countries, country: "MY")
    /// New Zealand (NZ): succeeds.
    public static let newZealand = StripeTestCard("4000005540000008", "New Zealand (NZ)", .countries, country: "NZ")
    /// Singapore (SG): succeeds.
    public static let singapore = StripeTestCard("4000007020000003", "Singapore (SG)", .countries, country: "SG")
    /// Taiwan (TW): succeeds.
    public static let taiwan = StripeTestCard("4000001580000008", "Taiwan (TW)", .countries, country: "TW")
    /// Thailand (TH), Visa (credit): succeeds.
    public static let thailandCredit = StripeTestCard(
        "4000007640000003", "Thailand (TH), Visa (credit)", .countries, country: "TH")
    /// Thailand (TH), Visa (debit): succeeds.
    public static let thailandDebit = StripeTestCard(
        "4000057640000008", "Thailand (TH), Visa (debit)", .countries, funding: "debit", country: "TH")

    // MARK: HSA and FSA cards

    /// Visa FSA and Visa HSA (the page gives both the same number): succeeds.
    public static let visaFSA = StripeTestCard("4000051230000072", "Visa FSA / Visa HSA", .hsaFSA, funding: "debit")
    /// Mastercard FSA: succeeds.
    public static let mastercardFSA = StripeTestCard(
        "5200828282828897", "Mastercard FSA", .hsaFSA, funding: "debit")

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
    /// Highest risk: blocked when Radar blocks the highest risk (on by default).
    public static let highestRisk = StripeTestCard(
        "4000000000004954", "Highest risk", .fraudPrevention, riskLevel: "highest")
    /// Elevated risk: succeeds; Radar for Fraud Teams may place it in review.
    public static let elevatedRisk = StripeTestCard(
        "4000000000009235", "Elevated risk", .fraudPrevention, riskLevel: "elevated")
    /// High fraud dispute score: succeeds unless the account's risk settings block it.
    public static let highFraudDisputeScore = StripeTestCard(
        "4000008400000407", "High fraud dispute score", .fraudPrevention)
    /// High early fraud warning score: succeeds unless the account's risk settings block it.
    public static let highEarlyFraudWarningScore = StripeTestCard(
        "4000008400000159", "High early fraud warning score", .fraudPrevention)
    /// Dynamic risk thresholds: succeeds unless the account turned that Radar control on.
    public static let dynamicRiskThresholds = StripeTestCard(
        "4000008400001017", "Dynamic risk thresholds", .fraudPrevention)
    /// Adaptive 3DS: succeeds unless the account turned that Radar control on (then 3-D Secure).
    public static let adaptive3DS = StripeTestCard("4000008405600003", "Adaptive 3DS", .fraudPrevention)
    /// CVC check fails when a CVC is given; Radar's CVC rule blocks it (Apple Pay gives none).
    public static let cvcCheckFails = StripeTestCard(
        "4000000000000101", "CVC check fails", .fraudPrevention, cvcCheck: .fail)
    /// Postal code check fails; Radar blocks it (`incorrect_zip`) only where the account turned its
    /// postal-code rule on, which is not Stripe's default.
    public static let incorrectZIP = StripeTestCard(
        "4000000000000036", "Postal code check fails", .fraudPrevention, postalCodeCheck: .fail)
    /// CVC check fails with an elevated risk level.
    public static let cvcCheckFailsElevatedRisk = StripeTestCard(
        "4000058400307872", "CVC check fails with elevated risk", .fraudPrevention, cvcCheck: .fail,
        riskLevel: "elevated")
    /// Postal code check fails with an elevated risk level.
    public static let incorrectZIPElevatedRisk = StripeTestCard(
        "4000058400306072", "Postal code check fails with elevated risk", .fraudPrevention, postalCodeCheck: .fail,
        riskLevel: "elevated")
    /// Street line check fails: succeeds unless a custom Radar rule blocks it.
    public static let line1CheckFails = StripeTestCard(
        "4000000000000028", "Line1 check fails", .fraudPrevention, line1Check: .fail)
    /// Both address checks fail; blocked (`incorrect_zip`) only under the postal-code rule.
    public static let addressChecksFail = StripeTestCard(
        "4000000000000010", "Address checks fail", .fraudPrevention, postalCodeCheck: .fail, line1Check: .fail)
    /// Address checks unavailable: succeeds unless a custom Radar rule blocks it.
    public static let addressUnavailable = StripeTestCard(
        "4000000000000044", "Address unavailable", .fraudPrevention,
        postalCodeCheck: .unavailable, line1Check: .unavailable)

    // MARK: Invalid data

    /// Incorrect number (fails the Luhn check): `incorrect_number` when the payment method is
    /// created.
    public static let incorrectNumber = StripeTestCard(
        "4242424242424241", "Incorrect number", .invalidData, creationError: incorrectNumberError)

    // MARK: Disputes

    /// Disputed as fraudulent after the payment.
    public static let disputeFraudulent = StripeTestCard(
        "4000000000000259", "Fraudulent", .disputes, afterPayment: "dispute: fraudulent")
    /// Disputed as product not received after the payment.
    public static let disputeNotReceived = StripeTestCard(
        "4000000000002685", "Not received", .disputes, afterPayment: "dispute: product not received")
    /// Disputed as an inquiry after the payment.
    public static let disputeInquiry = StripeTestCard(
        "4000000000001976", "Inquiry", .disputes, afterPayment: "dispute: an inquiry")
    /// An early fraud warning after the payment.
    public static let earlyFraudWarning = StripeTestCard(
        "4000000000005423", "Warning", .disputes, afterPayment: "early fraud warning")
    /// Disputed several times after the payment.
    public static let multipleDisputes = StripeTestCard(
        "4000000404000079", "Multiple disputes", .disputes, afterPayment: "disputed multiple times")
    /// A Visa Compelling Evidence 3.0 eligible dispute after the payment.
    public static let visaCompellingEvidence3 = StripeTestCard(
        "4000000404000038", "Visa Compelling Evidence 3.0", .disputes,
        afterPayment: "dispute: Visa Compelling Evidence 3.0 eligible")
    /// A Visa compliance dispute after the payment.
    public static let visaCompliance = StripeTestCard(
        "4000008400000779", "Visa compliance", .disputes, afterPayment: "dispute: Visa compliance")
    /// A Mastercard compliance dispute after the payment.
    public static let mastercardCompliance = StripeTestCard(
        "5105008400000002", "Mastercard compliance", .disputes, afterPayment: "dispute: Mastercard compliance")
    /// A Smart Disputes eligible dispute after the payment.
    public static let smartDisputes = StripeTestCard(
        "4000000001000043", "Smart disputes", .disputes, afterPayment: "dispute: Smart Disputes eligible")
    /// Visa Rapid Dispute Resolution prevents the dispute where the account has Dispute Resolution.
    public static let visaRapidDisputeResolution = StripeTestCard(
        "4000000404004816", "Visa Rapid Dispute Resolution", .disputes,
        afterPayment: "dispute, prevented by Visa RDR with Dispute Resolution")
    /// Compelling Evidence 3.0 blocks the dispute where the account has Dispute Deflection.
    public static let verifiCE3Block = StripeTestCard(
        "4000000404005649", "Verifi CE3 block", .disputes,
        afterPayment: "dispute, blocked by CE 3.0 with Dispute Deflection")
    /// Ethoca Alerts prevents the dispute where the account has Dispute Resolution.
    public static let ethocaAlert = StripeTestCard(
        "5105000300000018", "Ethoca alert", .disputes,
        afterPayment: "dispute, prevented by Ethoca Alerts with Dispute Resolution")

    // MARK: Refunds

    /// A refund starts `pending` and later succeeds (`refund.updated`).
    public static let refundPending = StripeTestCard(
        "4000000000007726", "Asynchronous success", .refunds,
        afterPayment: "a refund starts pending, then succeeds")
    /// A refund starts `succeeded` and later fails (`refund.failed`).
    public static let refundFails = StripeTestCard(
        "4000000000005126", "Asynchronous failure", .refunds,
        afterPayment: "a refund starts succeeded, then fails")

    // MARK: Available balance

    /// The US charge's funds go straight to the available balance.
    public static let bypassPending = StripeTestCard(
        "4000000000000077", "Bypass pending balance", .balance, afterPayment: "funds available at once")
    /// The international charge's funds go straight to the available balance.
    public static let bypassPendingInternational = StripeTestCard(
        "4000003720000278", "Bypass pending balance (international)", .balance,
        afterPayment: "funds available at once")

    // MARK: 3-D Secure

    /// Authenticate unless set up: on-session payments and setting the card up need 3-D Secure.
    public static let threeDSecureRequired = StripeTestCard(
        "4000002500003155", "Authenticate unless set up", .threeDSecure, authentication: .unlessSetUp)
    /// Always authenticate: 3-D Secure required every time.
    public static let alwaysAuthenticate = StripeTestCard(
        "4000002760003184", "Always authenticate", .threeDSecure, authentication: .always)
    /// Already set up: one-time and other on-session payments need 3-D Secure; off-session ones
    /// succeed as if the card had been set up.
    public static let alreadySetUp = StripeTestCard(
        "4000003800000446", "Already set up", .threeDSecure, authentication: .onSessionPayments)
    /// Insufficient funds: 3-D Secure required, then declined with `insufficient_funds`.
    public static let authenticateThenInsufficientFunds = StripeTestCard(
        "4000008260003178", "Insufficient funds", .threeDSecure,
        decline: declined("insufficient_funds", "Your card has insufficient funds."), authentication: .always)
    /// 3DS Required, OK (Ireland-issued): 3-D Secure must be completed.
    public static let threeDSecure2Required = StripeTestCard(
        "4000000000003220", "3DS Required, OK (IE)", .threeDSecure, country: "IE", authentication: .always)
    /// 3DS Required, OK (US-issued): 3-D Secure must be completed.
    public static let threeDSecure2RequiredUS = StripeTestCard(
        "4000008400000027", "3DS Required, OK (US)", .threeDSecure, authentication: .always)
    /// 3DS Required, Declined: 3-D Secure required, then declined with `card_declined`.
    public static let authenticateThenDecline = StripeTestCard(
        "4000008400001629", "3DS Required, Declined", .threeDSecure, decline: declinedWithoutReason(),
        authentication: .always)
    /// 3DS Required, Error: the 3-D Secure lookup fails; declined with `card_declined`.
    public static let threeDSecureLookupError = StripeTestCard(
        "4000008400001280", "3DS Required, Error", .threeDSecure, decline: declinedWithoutReason())
    /// 3DS Supported, OK: 3-D Secure supported, not required: succeeds.
    public static let threeDSecureSupported = StripeTestCard(
        "4000000000003055", "3DS Supported, OK", .threeDSecure)
    /// 3DS Supported, Error: an attempt at 3-D Secure fails, and Radar requests none by default:
    /// succeeds.
    public static let threeDSecureSupportedError = StripeTestCard(
        "4000000000003097", "3DS Supported, Error", .threeDSecure)
    /// 3DS Frictionless flow: 3-D Secure on every transaction, passed without a challenge.
    public static let threeDSecureFrictionless = StripeTestCard(
        "4000000032200000", "3DS Frictionless flow", .threeDSecure, authentication: .always)
    /// Mobile challenge flow, out of band: 3-D Secure on every transaction.
    public static let challengeOutOfBand = StripeTestCard(
        "4000582600000094", "Mobile challenge: out of band", .threeDSecure, authentication: .always)
    /// Mobile challenge flow, one-time passcode: 3-D Secure on every transaction.
    public static let challengeOneTimePasscode = StripeTestCard(
        "4000582600000045", "Mobile challenge: one time passcode", .threeDSecure, authentication: .always)
    /// Mobile challenge flow, single select: 3-D Secure on every transaction.
    public static let challengeSingleSelect = StripeTestCard(
        "4000582600000102", "Mobile challenge: single select", .threeDSecure, authentication: .always)
    /// Mobile challenge flow, multi select: 3-D Secure on every transaction.
    public static let challengeMultiSelect = StripeTestCard(
        "4000582600000110", "Mobile challenge: multi select", .threeDSecure, authentication: .always)

    // MARK: Captcha challenge

    /// A captcha on Stripe's payment page; none is shown in the pay context: succeeds.
    public static let captcha = StripeTestCard("4000000000001208", "Captcha challenge", .captcha)
    /// A captcha on Stripe's payment page; none is shown in the pay context: succeeds.
    public static let captcha2 = StripeTestCard("4000000000003725", "Captcha challenge", .captcha)

    /// Every card of the page this table follows, in the page's order, but for the in-person
    /// (Terminal) PIN cards, which only a card reader can present.
    public static let allCases: [StripeTestCard] = [
        success, visaDebit, mastercard, mastercard2Series, mastercardDebit, mastercardPrepaid, amex, amex2, discover,
        discover2, discoverDebit, diners, diners14, bcCardDinaCard, jcb, unionPay, unionPayDebit, unionPay19,
        cartesBancairesVisa, cartesBancairesMastercard, eftposVisa, eftposMastercard,
        argentina, brazil, canada, chile, colombia, costaRica, ecuador, mexico, mexicoCarnet, panama, paraguay, peru,
        uruguay,
        unitedArabEmirates, unitedArabEmiratesMastercard, austria, belgium, bulgaria, belarus, croatia, cyprus,
        czechRepublic, denmark, estonia, finland, france, germany, gibraltar, greece, hungary, ireland, italy,
        latvia, liechtenstein, lithuania, luxembourg, malta, netherlands, norway, poland, portugal, romania,
        saudiArabia, slovenia, slovakia, spain, sweden, switzerland, unitedKingdom, unitedKingdomDebit,
        unitedKingdomMastercard, australia, china, hongKong, india, japan, japanJCB, malaysia, newZealand,
        singapore, taiwan, thailandCredit, thailandDebit,
        visaFSA, mastercardFSA,
        genericDecline, insufficientFunds, lostCard, stolenCard, expiredCard, incorrectCVC, processingError,
        velocityExceeded, chargeFails,
        alwaysBlocked, highestRisk, elevatedRisk, highFraudDisputeScore, highEarlyFraudWarningScore,
        dynamicRiskThresholds, adaptive3DS, cvcCheckFails, incorrectZIP, cvcCheckFailsElevatedRisk,
        incorrectZIPElevatedRisk, line1CheckFails, addressChecksFail, addressUnavailable,
        incorrectNumber,
        disputeFraudulent, disputeNotReceived, disputeInquiry, earlyFraudWarning, multipleDisputes,
        visaCompellingEvidence3, visaCompliance, mastercardCompliance, smartDisputes, visaRapidDisputeResolution,
        verifiCE3Block, ethocaAlert,
        refundPending, refundFails,
        bypassPending, bypassPendingInternational,
        threeDSecureRequired, alwaysAuthenticate, alreadySetUp, authenticateThenInsufficientFunds,
        threeDSecure2Required, threeDSecure2RequiredUS, authenticateThenDecline, threeDSecureLookupError,
        threeDSecureSupported, threeDSecureSupportedError, threeDSecureFrictionless, challengeOutOfBand,
        challengeOneTimePasscode, challengeSingleSelect, challengeMultiSelect,
        captcha, captcha2,
    ]
}
