import CheckoutCore
import CheckoutFlows
import CheckoutPayContext

/// The built-in scenarios `checkout-sim demo` runs: one per flow.
public enum DemoScenarios {
    private static let usd = CurrencyCode.usd

    private static func money(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: usd) }

    private static func country(_ code: String) -> CountryCode {
        guard let country = try? CountryCode(code) else { preconditionFailure("\(code) is a known country") }
        return country
    }

    static let ground = ShippingMethod(identifier: "ground", label: "Ground", detail: "5-7 days", amount: money(0))
    static let express = ShippingMethod(
        identifier: "express", label: "Express", detail: "1-2 days", amount: money(1_500))

    static let austin = Contact(
        name: "Grace Hopper",
        emailAddress: "grace@example.com",
        phoneNumber: "+1 512 555 0100",
        postalAddress: Address(
            line1: "1 Congress Ave", city: "Austin", state: "TX", postalCode: "78701-1234", country: country("US"))
    )

    static let anchorage = Contact(
        name: "Grace Hopper",
        emailAddress: "grace@example.com",
        postalAddress: Address(
            line1: "2 Harbor Rd", city: "Anchorage", state: "AK", postalCode: "99501", country: country("US"))
    )

    static let toronto = Contact(
        name: "Grace Hopper",
        postalAddress: Address(
            line1: "3 King St W", city: "Toronto", state: "ON", postalCode: "M5V 2T6", country: country("CA"))
    )

    static let merchant = MerchantSpec(
        shippingRates: [.init(region: .init(country: country("US")), methods: [ground, express])],
        unserviceable: [.init(country: country("US"), state: "AK")],
        taxRate: "0.0825",
        coupons: [.init(code: "TEN", percentOff: "10"), .init(code: "SUMMER", expired: true)],
        surcharges: [.init(network: .amex, amount: money(100))]
    )

    static let request = PaymentRequest(
        merchantIdentifier: "merchant.com.example.tea",
        countryCode: "US",
        currencyCode: "USD",
        requiredShippingContactFields: [.name, .postalAddress],
        shippingMethods: [ground, express],
        summaryItems: [
            SummaryItem(label: "Oolong tea", amount: money(2_400)),
            SummaryItem(label: "Tea Shop", amount: money(2_400)),
        ],
        supportsCouponCode: true
    )

    /// Shipping address: Canada is refused, Austin gets two methods, the customer picks express.
    public static let shippingAddress = Scenario(
        name: "demo: shipping address",
        flow: .shippingAddress,
        shippingConfiguration: ShippingAddressConfiguration(requiredShippingAddressFields: [.name, .postalAddress]),
        merchant: merchant,
        steps: [.enterAddress(toronto), .enterAddress(austin), .selectShippingMethod("express"), .done]
    )

    /// Payment authorization: an unserviceable contact, then Austin; express shipping; a coupon;
    /// an Amex surcharge; an authorization the ZIP check fails, retried with another card.
    public static let paymentAuthorization = Scenario(
        name: "demo: payment authorization",
        flow: .paymentAuthorization,
        paymentRequest: request,
        merchant: merchant,
        steps: [
            .selectShippingContact(anchorage),
            .selectShippingContact(austin),
            .selectShippingMethod("express"),
            .changeCouponCode("TEN"),
            .selectPaymentMethod(PaymentMethod(displayName: "Amex 0005", network: .amex, type: .credit)),
            .authorize(card: StripeTestCard.incorrectZIP.rawValue, network: .amex, billingContact: nil),
            .authorize(card: StripeTestCard.success.rawValue, network: .visa, billingContact: nil),
        ]
    )

    /// Pay context: Austin, then an authorization the in-memory Stripe backend confirms.
    public static let payContext = Scenario(
        name: "demo: pay context",
        flow: .payContext,
        paymentRequest: request,
        merchant: merchant,
        steps: [
            .selectShippingContact(austin),
            .authorize(card: StripeTestCard.success.rawValue, network: .visa, billingContact: nil),
        ]
    )

    /// The three, in order.
    public static let all = [shippingAddress, paymentAuthorization, payContext]
}
