import CheckoutCore
import Foundation

/// Apple Pay on the web's `ApplePayRecurringPaymentRequest`: a subscription's terms on a request
/// (`recurringPaymentRequest`) or an update (`newRecurringPaymentRequest`).
///
/// To the core ``/CheckoutCore/RecurringPaymentRequest`` (``core(currency:)``): the billing items
/// as ``ApplePayLineItem`` reads recurring items, URLs absolute. From it (``init(_:)``): the
/// reverse.
public struct ApplePayRecurringPaymentRequest: Codable, Hashable, Sendable {
    /// What the sheet says the payment is for.
    public var paymentDescription: String
    /// The regular billing cycle, a `recurring` line item.
    public var regularBilling: ApplePayLineItem
    /// A trial billing cycle, a `recurring` line item.
    public var trialBilling: ApplePayLineItem?
    /// A billing agreement shown before the customer authorizes.
    public var billingAgreement: String?
    /// Where the customer manages the payment.
    public var managementURL: String
    /// Where Apple's servers send the merchant token's life-cycle notifications.
    public var tokenNotificationURL: String?

    /// A recurring payment request.
    public init(
        paymentDescription: String, regularBilling: ApplePayLineItem, trialBilling: ApplePayLineItem? = nil,
        billingAgreement: String? = nil, managementURL: String, tokenNotificationURL: String? = nil
    ) {
        self.paymentDescription = paymentDescription
        self.regularBilling = regularBilling
        self.trialBilling = trialBilling
        self.billingAgreement = billingAgreement
        self.managementURL = managementURL
        self.tokenNotificationURL = tokenNotificationURL
    }

    /// The core request, amounts read in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path (`regularBilling.amount`,
    ///   `managementURL`, ...).
    public func core(currency: CurrencyCode) throws -> RecurringPaymentRequest {
        RecurringPaymentRequest(
            paymentDescription: paymentDescription,
            regularBilling: try inside("regularBilling") { try regularBilling.recurringCore(currency: currency) },
            managementURL: try absoluteURL(managementURL, path: "managementURL"),
            trialBilling: try trialBilling.map { item in
                try inside("trialBilling") { try item.recurringCore(currency: currency) }
            },
            billingAgreement: billingAgreement,
            tokenNotificationURL: try tokenNotificationURL.map { try absoluteURL($0, path: "tokenNotificationURL") })
    }

    /// The core request in Apple's members.
    public init(_ core: RecurringPaymentRequest) {
        self.init(
            paymentDescription: core.paymentDescription, regularBilling: ApplePayLineItem(core.regularBilling),
            trialBilling: core.trialBilling.map(ApplePayLineItem.init), billingAgreement: core.billingAgreement,
            managementURL: core.managementURL.absoluteString,
            tokenNotificationURL: core.tokenNotificationURL?.absoluteString)
    }
}

/// `text` as an absolute URL, or an error naming `path`.
func absoluteURL(_ text: String, path: String) throws -> URL {
    guard let url = URL(string: text), url.scheme != nil else {
        throw unmappable(path, text, "is not an absolute URL")
    }
    return url
}
