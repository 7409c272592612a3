import CheckoutCore
import Foundation

/// Today's Apple Pay members, valid for a USD request whose grand total is at least 25.00: what
/// the tests of their models, their validation, the flows and the relay share.
public enum TodaysApplePay {
    /// `value` changed by `change`: an update with new terms, set on its members as on PassKit's.
    public static func with<Value>(_ value: Value, _ change: (inout Value) -> Void) -> Value {
        var value = value
        change(&value)
        return value
    }

    /// 2025-01-08T00:00:00Z.
    public static let start = Date(timeIntervalSince1970: 1_736_294_400)
    /// A year after ``start``.
    public static let end = Date(timeIntervalSince1970: 1_767_830_400)
    /// The page where subscriptions are managed.
    public static let managementURL = URL(string: "https://shop.example/account/subscriptions")!

    /// A monthly tea club with a free first month.
    public static let recurring = RecurringPaymentRequest(
        paymentDescription: "Tea club",
        regularBilling: RecurringPaymentSummaryItem(
            label: "Tea club, monthly", amount: Money(9.99, .usd), startDate: start, intervalUnit: .month,
            intervalCount: 1, endDate: end),
        managementURL: managementURL,
        trialBilling: RecurringPaymentSummaryItem(
            label: "First month free", amount: Money(0, .usd), intervalUnit: .day, intervalCount: 30),
        billingAgreement: "Billed monthly until cancelled.",
        tokenNotificationURL: URL(string: "https://shop.example/apple-pay/tokens")!
    )

    /// A stay paid at check-in, cancellable for free until the day before.
    public static let deferred = DeferredPaymentRequest(
        paymentDescription: "Tea house stay",
        deferredBilling: DeferredPaymentSummaryItem(label: "Stay", amount: Money(25, .usd), deferredDate: end),
        managementURL: managementURL,
        billingAgreement: "Charged at check-in.",
        freeCancellationDate: start,
        freeCancellationDateTimeZone: TimeZone(identifier: "Europe/Paris")!
    )

    /// A tea card topped up with 20.00 when it falls below 5.00.
    public static let automaticReload = AutomaticReloadPaymentRequest(
        paymentDescription: "Tea card top-up",
        automaticReloadBilling: AutomaticReloadPaymentSummaryItem(
            label: "Top-up", amount: Money(20, .usd), thresholdAmount: Money(5, .usd)),
        managementURL: managementURL
    )

    /// Two merchants sharing a 25.00 order.
    public static let contexts = [
        PaymentTokenContext(
            merchantIdentifier: "merchant.com.example.tea", externalIdentifier: "tea-1", merchantName: "Tea Shop",
            merchantDomain: "tea.example", amount: Money(15, .usd)),
        PaymentTokenContext(
            merchantIdentifier: "merchant.com.example.cups", externalIdentifier: "cups-1", merchantName: "Cup Shop",
            amount: Money(10, .usd)),
    ]
}
