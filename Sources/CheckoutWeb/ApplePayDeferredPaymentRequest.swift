import CheckoutCore
import Foundation

/// Apple Pay on the web's `ApplePayDeferredPaymentRequest`: a payment taken at a later date, on a
/// request (`deferredPaymentRequest`) or an update (`newDeferredPaymentRequest`).
///
/// To the core ``/CheckoutCore/DeferredPaymentRequest`` (``core(currency:)``): the billing item as
/// ``ApplePayLineItem`` reads deferred items, URLs absolute, the free-cancellation date an ISO 8601
/// string and its time zone an identifier Foundation knows. From it (``init(_:)``): the reverse.
public struct ApplePayDeferredPaymentRequest: Codable, Hashable, Sendable {
    /// What the sheet says the payment is for.
    public var paymentDescription: String
    /// The deferred payment, a `deferred` line item.
    public var deferredBilling: ApplePayLineItem
    /// A billing agreement shown before the customer authorizes.
    public var billingAgreement: String?
    /// Where the customer manages the payment.
    public var managementURL: String
    /// Where Apple's servers send the merchant token's life-cycle notifications.
    public var tokenNotificationURL: String?
    /// Until when the customer may cancel for free.
    public var freeCancellationDate: String?
    /// The time zone of ``freeCancellationDate``, such as `America/Los_Angeles`.
    public var freeCancellationDateTimeZone: String?

    /// A deferred payment request.
    public init(
        paymentDescription: String, deferredBilling: ApplePayLineItem, billingAgreement: String? = nil,
        managementURL: String, tokenNotificationURL: String? = nil, freeCancellationDate: String? = nil,
        freeCancellationDateTimeZone: String? = nil
    ) {
        self.paymentDescription = paymentDescription
        self.deferredBilling = deferredBilling
        self.billingAgreement = billingAgreement
        self.managementURL = managementURL
        self.tokenNotificationURL = tokenNotificationURL
        self.freeCancellationDate = freeCancellationDate
        self.freeCancellationDateTimeZone = freeCancellationDateTimeZone
    }

    /// The core request, amounts read in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path
    ///   (`deferredBilling.deferredPaymentDate`, `freeCancellationDateTimeZone`, ...).
    public func core(currency: CurrencyCode) throws -> DeferredPaymentRequest {
        var timeZone: TimeZone?
        if let freeCancellationDateTimeZone {
            guard let known = TimeZone(identifier: freeCancellationDateTimeZone) else {
                throw unmappable(
                    "freeCancellationDateTimeZone", freeCancellationDateTimeZone, "is not a time zone identifier")
            }
            timeZone = known
        }
        return DeferredPaymentRequest(
            paymentDescription: paymentDescription,
            deferredBilling: try inside("deferredBilling") { try deferredBilling.deferredCore(currency: currency) },
            managementURL: try absoluteURL(managementURL, path: "managementURL"),
            billingAgreement: billingAgreement,
            tokenNotificationURL: try tokenNotificationURL.map { try absoluteURL($0, path: "tokenNotificationURL") },
            freeCancellationDate: try freeCancellationDate.map {
                try ISO8601Date.parse($0, path: "freeCancellationDate")
            },
            freeCancellationDateTimeZone: timeZone)
    }

    /// The core request in Apple's members.
    public init(_ core: DeferredPaymentRequest) {
        self.init(
            paymentDescription: core.paymentDescription, deferredBilling: ApplePayLineItem(core.deferredBilling),
            billingAgreement: core.billingAgreement, managementURL: core.managementURL.absoluteString,
            tokenNotificationURL: core.tokenNotificationURL?.absoluteString,
            freeCancellationDate: core.freeCancellationDate.map(ISO8601Date.string),
            freeCancellationDateTimeZone: core.freeCancellationDateTimeZone?.identifier)
    }
}
