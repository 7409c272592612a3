import Foundation

/// A request to set up a recurring payment, typically a subscription (PassKit's
/// `PKRecurringPaymentRequest`, Apple Pay on the web's `ApplePayRecurringPaymentRequest`): Apple
/// Pay issues a merchant token for it where the card's network supports one.
///
/// Set on ``PaymentRequest/recurringPaymentRequest``; an update replaces it with its own
/// (``ShippingContactUpdate/recurringPaymentRequest`` and the other updates').
public struct RecurringPaymentRequest: Hashable, Sendable {
    /// What the sheet says the payment is for.
    public var paymentDescription: String
    /// The regular billing cycle.
    public var regularBilling: RecurringPaymentSummaryItem
    /// A trial billing cycle before it, if any.
    public var trialBilling: RecurringPaymentSummaryItem?
    /// A billing agreement the sheet shows before the customer authorizes.
    public var billingAgreement: String?
    /// The web page where the customer manages the payment.
    public var managementURL: URL
    /// Where Apple's servers send the merchant token's life-cycle notifications.
    public var tokenNotificationURL: URL?

    /// A recurring payment request, with PassKit's labels.
    public init(
        paymentDescription: String,
        regularBilling: RecurringPaymentSummaryItem,
        managementURL: URL,
        trialBilling: RecurringPaymentSummaryItem? = nil,
        billingAgreement: String? = nil,
        tokenNotificationURL: URL? = nil
    ) {
        self.paymentDescription = paymentDescription
        self.regularBilling = regularBilling
        self.trialBilling = trialBilling
        self.billingAgreement = billingAgreement
        self.managementURL = managementURL
        self.tokenNotificationURL = tokenNotificationURL
    }

    /// Every reason the request is not acceptable, with paths under `path`: its billing items'.
    package func problems(currency: CurrencyCode?, path: String) -> [CheckoutError] {
        regularBilling.problems(currency: currency, path: path + ".regularBilling")
            + (trialBilling?.problems(currency: currency, path: path + ".trialBilling") ?? [])
    }
}

extension RecurringPaymentRequest: Codable {
    private enum CodingKeys: String, CodingKey {
        case paymentDescription, regularBilling, trialBilling, billingAgreement, managementURL, tokenNotificationURL
    }

    /// Decodes the members by their names, URLs as absolute URL strings. An unknown key is refused
    /// with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "RecurringPaymentRequest")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            paymentDescription: try container.decode(String.self, forKey: .paymentDescription),
            regularBilling: try container.decode(RecurringPaymentSummaryItem.self, forKey: .regularBilling),
            managementURL: try container.decodeAbsoluteURL(forKey: .managementURL),
            trialBilling: try container.decodeIfPresent(RecurringPaymentSummaryItem.self, forKey: .trialBilling),
            billingAgreement: try container.decodeIfPresent(String.self, forKey: .billingAgreement),
            tokenNotificationURL: try container.decodeAbsoluteURLIfPresent(forKey: .tokenNotificationURL)
        )
    }

    /// Encodes every member, URLs as strings; absent ones are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(paymentDescription, forKey: .paymentDescription)
        try container.encode(regularBilling, forKey: .regularBilling)
        try container.encodeIfPresent(trialBilling, forKey: .trialBilling)
        try container.encodeIfPresent(billingAgreement, forKey: .billingAgreement)
        try container.encode(managementURL.absoluteString, forKey: .managementURL)
        try container.encodeIfPresent(tokenNotificationURL?.absoluteString, forKey: .tokenNotificationURL)
    }
}
