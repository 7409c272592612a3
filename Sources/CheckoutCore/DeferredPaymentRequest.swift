import Foundation

/// A request for a payment taken at a later date (PassKit's `PKDeferredPaymentRequest`, Apple Pay
/// on the web's `ApplePayDeferredPaymentRequest`), such as a hotel booking.
public struct DeferredPaymentRequest: Hashable, Sendable {
    /// What the sheet says the payment is for.
    public var paymentDescription: String
    /// The deferred payment.
    public var deferredBilling: DeferredPaymentSummaryItem
    /// A billing agreement the sheet shows before the customer authorizes.
    public var billingAgreement: String?
    /// The web page where the customer manages the payment.
    public var managementURL: URL
    /// Where Apple's servers send the merchant token's life-cycle notifications.
    public var tokenNotificationURL: URL?
    /// Until when the customer may cancel for free.
    public var freeCancellationDate: Date?
    /// The time zone the sheet shows ``freeCancellationDate`` in.
    public var freeCancellationDateTimeZone: TimeZone?

    /// A deferred payment request, with PassKit's labels.
    public init(
        paymentDescription: String,
        deferredBilling: DeferredPaymentSummaryItem,
        managementURL: URL,
        billingAgreement: String? = nil,
        tokenNotificationURL: URL? = nil,
        freeCancellationDate: Date? = nil,
        freeCancellationDateTimeZone: TimeZone? = nil
    ) {
        self.paymentDescription = paymentDescription
        self.deferredBilling = deferredBilling
        self.billingAgreement = billingAgreement
        self.managementURL = managementURL
        self.tokenNotificationURL = tokenNotificationURL
        self.freeCancellationDate = freeCancellationDate
        self.freeCancellationDateTimeZone = freeCancellationDateTimeZone
    }

    /// Every reason the request is not acceptable, with paths under `path`: its billing item's.
    package func problems(currency: CurrencyCode?, path: String) -> [CheckoutError] {
        deferredBilling.problems(currency: currency, path: path + ".deferredBilling")
    }
}

extension DeferredPaymentRequest: Codable {
    private enum CodingKeys: String, CodingKey {
        case paymentDescription, deferredBilling, billingAgreement, managementURL, tokenNotificationURL
        case freeCancellationDate, freeCancellationDateTimeZone
    }

    /// Decodes the members by their names: URLs as absolute URL strings, the date as ISO 8601, the
    /// time zone by its identifier (`Europe/Paris`). An unknown key is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "DeferredPaymentRequest")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var timeZone: TimeZone?
        if let identifier = try container.decodeIfPresent(String.self, forKey: .freeCancellationDateTimeZone) {
            guard let known = TimeZone(identifier: identifier) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .freeCancellationDateTimeZone, in: container,
                    debugDescription: "\(identifier.quotedForMessage) is not a time zone identifier")
            }
            timeZone = known
        }
        self.init(
            paymentDescription: try container.decode(String.self, forKey: .paymentDescription),
            deferredBilling: try container.decode(DeferredPaymentSummaryItem.self, forKey: .deferredBilling),
            managementURL: try container.decodeAbsoluteURL(forKey: .managementURL),
            billingAgreement: try container.decodeIfPresent(String.self, forKey: .billingAgreement),
            tokenNotificationURL: try container.decodeAbsoluteURLIfPresent(forKey: .tokenNotificationURL),
            freeCancellationDate: try container.decodeISO8601DateIfPresent(forKey: .freeCancellationDate),
            freeCancellationDateTimeZone: timeZone
        )
    }

    /// Encodes every member (URLs as strings, the time zone by its identifier); absent ones are
    /// left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(paymentDescription, forKey: .paymentDescription)
        try container.encode(deferredBilling, forKey: .deferredBilling)
        try container.encodeIfPresent(billingAgreement, forKey: .billingAgreement)
        try container.encode(managementURL.absoluteString, forKey: .managementURL)
        try container.encodeIfPresent(tokenNotificationURL?.absoluteString, forKey: .tokenNotificationURL)
        try container.encodeISO8601DateIfPresent(freeCancellationDate, forKey: .freeCancellationDate)
        try container.encodeIfPresent(freeCancellationDateTimeZone?.identifier, forKey: .freeCancellationDateTimeZone)
    }
}
