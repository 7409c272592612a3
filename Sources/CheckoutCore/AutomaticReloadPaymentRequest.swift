import Foundation

/// A request to set up automatic reloads of a stored balance (PassKit's
/// `PKAutomaticReloadPaymentRequest`, Apple Pay on the web's
/// `ApplePayAutomaticReloadPaymentRequest`), such as a transit card's top-up.
public struct AutomaticReloadPaymentRequest: Hashable, Sendable {
    /// What the sheet says the payment is for.
    public var paymentDescription: String
    /// The reload and its threshold.
    public var automaticReloadBilling: AutomaticReloadPaymentSummaryItem
    /// A billing agreement the sheet shows before the customer authorizes.
    public var billingAgreement: String?
    /// The web page where the customer manages the reloads.
    public var managementURL: URL
    /// Where Apple's servers send the merchant token's life-cycle notifications.
    public var tokenNotificationURL: URL?

    /// An automatic-reload request, with PassKit's labels.
    public init(
        paymentDescription: String,
        automaticReloadBilling: AutomaticReloadPaymentSummaryItem,
        managementURL: URL,
        billingAgreement: String? = nil,
        tokenNotificationURL: URL? = nil
    ) {
        self.paymentDescription = paymentDescription
        self.automaticReloadBilling = automaticReloadBilling
        self.billingAgreement = billingAgreement
        self.managementURL = managementURL
        self.tokenNotificationURL = tokenNotificationURL
    }

    /// Every reason the request is not acceptable, with paths under `path`: its billing item's.
    package func problems(currency: CurrencyCode?, path: String) -> [CheckoutError] {
        automaticReloadBilling.problems(currency: currency, path: path + ".automaticReloadBilling")
    }
}

extension AutomaticReloadPaymentRequest: Codable {
    private enum CodingKeys: String, CodingKey {
        case paymentDescription, automaticReloadBilling, billingAgreement, managementURL, tokenNotificationURL
    }

    /// Decodes the members by their names, URLs as absolute URL strings. An unknown key is refused
    /// with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "AutomaticReloadPaymentRequest")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            paymentDescription: try container.decode(String.self, forKey: .paymentDescription),
            automaticReloadBilling: try container.decode(
                AutomaticReloadPaymentSummaryItem.self, forKey: .automaticReloadBilling),
            managementURL: try container.decodeAbsoluteURL(forKey: .managementURL),
            billingAgreement: try container.decodeIfPresent(String.self, forKey: .billingAgreement),
            tokenNotificationURL: try container.decodeAbsoluteURLIfPresent(forKey: .tokenNotificationURL)
        )
    }

    /// Encodes every member, URLs as strings; absent ones are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(paymentDescription, forKey: .paymentDescription)
        try container.encode(automaticReloadBilling, forKey: .automaticReloadBilling)
        try container.encodeIfPresent(billingAgreement, forKey: .billingAgreement)
        try container.encode(managementURL.absoluteString, forKey: .managementURL)
        try container.encodeIfPresent(tokenNotificationURL?.absoluteString, forKey: .tokenNotificationURL)
    }
}
