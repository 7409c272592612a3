import CheckoutCore
import Foundation

/// Apple Pay on the web's `ApplePayAutomaticReloadPaymentRequest`: automatic reloads of a balance,
/// on a request (`automaticReloadPaymentRequest`) or an update
/// (`newAutomaticReloadPaymentRequest`).
///
/// To the core ``/CheckoutCore/AutomaticReloadPaymentRequest`` (``core(currency:)``): the billing
/// item as ``ApplePayLineItem`` reads automatic-reload items, URLs absolute. From it
/// (``init(_:)``): the reverse.
public struct ApplePayAutomaticReloadPaymentRequest: Codable, Hashable, Sendable {
    /// What the sheet says the payment is for.
    public var paymentDescription: String
    /// The reload, an `automaticReload` line item with its threshold.
    public var automaticReloadBilling: ApplePayLineItem
    /// A billing agreement shown before the customer authorizes.
    public var billingAgreement: String?
    /// Where the customer manages the reloads.
    public var managementURL: String
    /// Where Apple's servers send the merchant token's life-cycle notifications.
    public var tokenNotificationURL: String?

    /// An automatic-reload request.
    public init(
        paymentDescription: String, automaticReloadBilling: ApplePayLineItem, billingAgreement: String? = nil,
        managementURL: String, tokenNotificationURL: String? = nil
    ) {
        self.paymentDescription = paymentDescription
        self.automaticReloadBilling = automaticReloadBilling
        self.billingAgreement = billingAgreement
        self.managementURL = managementURL
        self.tokenNotificationURL = tokenNotificationURL
    }

    /// The core request, amounts read in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path.
    public func core(currency: CurrencyCode) throws -> AutomaticReloadPaymentRequest {
        AutomaticReloadPaymentRequest(
            paymentDescription: paymentDescription,
            automaticReloadBilling: try inside("automaticReloadBilling") {
                try automaticReloadBilling.automaticReloadCore(currency: currency)
            },
            managementURL: try absoluteURL(managementURL, path: "managementURL"),
            billingAgreement: billingAgreement,
            tokenNotificationURL: try tokenNotificationURL.map { try absoluteURL($0, path: "tokenNotificationURL") })
    }

    /// The core request in Apple's members.
    public init(_ core: AutomaticReloadPaymentRequest) {
        self.init(
            paymentDescription: core.paymentDescription,
            automaticReloadBilling: ApplePayLineItem(core.automaticReloadBilling),
            billingAgreement: core.billingAgreement, managementURL: core.managementURL.absoluteString,
            tokenNotificationURL: core.tokenNotificationURL?.absoluteString)
    }
}
