/// A request built up step by step, as a `PKPaymentRequest` is: start empty, set what the
/// merchant needs, and let the flow validate it when it is presented (spec A1 lists every
/// problem at once, each with its field).
///
/// ```swift
/// var request = PaymentRequest()
/// request.merchantIdentifier = "merchant.com.example"
/// request.countryCode = "US"
/// request.currencyCode = "USD"
/// request.paymentSummaryItems = [SummaryItem(label: "Tea Shop", amount: Money(12.50, .usd))]
/// ```
extension PaymentRequest {
    /// An empty request, as `PKPaymentRequest()` is: no merchant, country, currency or summary
    /// items yet; the other fields have ``init(merchantIdentifier:countryCode:currencyCode:supportedNetworks:merchantCapabilities:requiredBillingContactFields:requiredShippingContactFields:shippingType:shippingMethods:summaryItems:couponCode:supportsCouponCode:shippingContactEditingMode:applePayLaterAvailability:merchantCategoryCode:recurringPaymentRequest:automaticReloadPaymentRequest:deferredPaymentRequest:multiTokenContexts:)``'s
    /// defaults. Presenting it as it is fails with every missing field (``problems``).
    public init() {
        self.init(merchantIdentifier: "", countryCode: "", currencyCode: "", summaryItems: [])
    }

    /// ``summaryItems`` under PassKit's name (`PKPaymentRequest.paymentSummaryItems`).
    public var paymentSummaryItems: [SummaryItem] {
        get { summaryItems }
        set { summaryItems = newValue }
    }
}
