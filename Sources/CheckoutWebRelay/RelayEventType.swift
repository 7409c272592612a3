import CheckoutFlows

/// The browser events a relay handles: `ApplePaySession`'s, named as Apple names them without
/// `on`, and the W3C `PaymentRequest`'s: its three update events, the `PaymentResponse` that
/// `show()` resolves with, and the response's `payerdetailchange` (spec W7); and Stripe's Express
/// Checkout Element's, named `expresscheckout.` and the element's name (spec W9); the element's
/// `cancel` is `cancel`.
public enum RelayEventType: String, Codable, Hashable, Sendable, CaseIterable {
    /// `onvalidatemerchant`, with `validationURL` (spec W5).
    case validateMerchant = "validatemerchant"
    /// `onshippingcontactselected`, with `shippingContact`.
    case shippingContactSelected = "shippingcontactselected"
    /// `onshippingmethodselected`, with `shippingMethod`.
    case shippingMethodSelected = "shippingmethodselected"
    /// `onpaymentmethodselected`, with `paymentMethod`.
    case paymentMethodSelected = "paymentmethodselected"
    /// `oncouponcodechanged`, with `couponCode`.
    case couponCodeChanged = "couponcodechanged"
    /// `onpaymentauthorized`, with `payment`.
    case paymentAuthorized = "paymentauthorized"
    /// `oncancel`, with no member.
    case cancel
    /// W3C `shippingaddresschange`, with the request's `shippingAddress`.
    case shippingAddressChange = "shippingaddresschange"
    /// W3C `shippingoptionchange`, with the request's `shippingOption` (an identifier).
    case shippingOptionChange = "shippingoptionchange"
    /// W3C `paymentmethodchange`, with `methodName` and `methodDetails`.
    case paymentMethodChange = "paymentmethodchange"
    /// W3C `show()` resolved, with the `PaymentResponse`'s `toJSON()` as `response` (spec W7).
    case paymentResponse = "paymentresponse"
    /// W3C `payerdetailchange` on the response (after a retry), with `payerName`, `payerEmail`,
    /// `payerPhone` (spec W7).
    case payerDetailChange = "payerdetailchange"
    // Google Pay
    /// Google Pay's `onPaymentDataChanged`, with `intermediatePaymentData` (spec W9).
    case googlePayPaymentDataChanged = "googlepay.paymentdatachanged"
    /// Google Pay's `onPaymentAuthorized`, with `paymentData` (spec W9).
    case googlePayPaymentAuthorized = "googlepay.paymentauthorized"

    // Express Checkout Element
    /// Stripe's Express Checkout Element `click`, with the event as `event`; the relay answers
    /// `resolve` itself from the session's request (spec W9).
    case expressCheckoutClick = "expresscheckout.click"
    /// The element's `shippingaddresschange`, with the event (`name`, partial `address`) as `event`.
    case expressCheckoutShippingAddressChange = "expresscheckout.shippingaddresschange"
    /// The element's `shippingratechange`, with the event (`shippingRate`) as `event`.
    case expressCheckoutShippingRateChange = "expresscheckout.shippingratechange"
    /// The element's `confirm`, with the event as `event` and the PaymentMethod the page created
    /// as `paymentMethod` (spec W9).
    case expressCheckoutConfirm = "expresscheckout.confirm"

    /// The name of the page's method that takes this event's answer (`completeShippingContactSelection`,
    /// `updateWith`, ...; for Google Pay the callback whose promise resolves with it,
    /// `onPaymentDataChanged` or `onPaymentAuthorized`); nil for `cancel`, which takes none. A
    /// `paymentresponse` is answered `complete` or, when the payer has something to fix, `retry`
    /// (spec W7). The Express Checkout Element's events are answered `resolve` (or `reject()`), and
    /// its `confirm` `paymentFailed` when the payment failed (spec W9).
    public var completionMethod: String? {
        switch self {
        case .validateMerchant: "completeMerchantValidation"
        case .shippingContactSelected: "completeShippingContactSelection"
        case .shippingMethodSelected: "completeShippingMethodSelection"
        case .paymentMethodSelected: "completePaymentMethodSelection"
        case .couponCodeChanged: "completeCouponCodeChange"
        case .paymentAuthorized: "completePayment"
        case .cancel: nil
        case .shippingAddressChange, .shippingOptionChange, .paymentMethodChange, .payerDetailChange: "updateWith"
        case .paymentResponse: "complete"
        // Express Checkout Element
        case .expressCheckoutClick, .expressCheckoutShippingAddressChange, .expressCheckoutShippingRateChange:
            "resolve"
        case .expressCheckoutConfirm: "paymentFailed"
        // Google Pay
        case .googlePayPaymentDataChanged: "onPaymentDataChanged"
        case .googlePayPaymentAuthorized: "onPaymentAuthorized"
        }
    }

    /// The flow's callback the event leads to, as refusals name it (spec W4, E1).
    var callback: String {
        switch self {
        case .validateMerchant: DelegateMethod.didRequestMerchantSessionUpdate.name
        case .shippingContactSelected, .shippingAddressChange, .payerDetailChange:
            DelegateMethod.didSelectShippingContact.name
        case .shippingMethodSelected, .shippingOptionChange: DelegateMethod.didSelectShippingMethod.name
        case .paymentMethodSelected, .paymentMethodChange: DelegateMethod.didSelectPaymentMethod.name
        case .couponCodeChanged: DelegateMethod.didChangeCouponCode.name
        case .paymentAuthorized, .paymentResponse: DelegateMethod.didAuthorizePayment.name
        case .cancel: "cancel"
        // Express Checkout Element
        case .expressCheckoutClick: "expresscheckout.click"
        case .expressCheckoutShippingAddressChange: DelegateMethod.didSelectShippingContact.name
        case .expressCheckoutShippingRateChange: DelegateMethod.didSelectShippingMethod.name
        case .expressCheckoutConfirm: DelegateMethod.didAuthorizePayment.name
        // Google Pay
        case .googlePayPaymentDataChanged: "onPaymentDataChanged"
        case .googlePayPaymentAuthorized: DelegateMethod.didAuthorizePayment.name
        }
    }

    /// The browser API whose events a page sends: one a session (spec W10).
    enum Wire: String, Sendable {
        case applePay = "ApplePaySession"
        case paymentRequest = "PaymentRequest"
        // Express Checkout Element
        case expressCheckout = "ExpressCheckoutElement"
        // Google Pay
        case googlePay = "PaymentsClient"
    }

    /// The API only this event belongs to; nil for `validatemerchant` and `cancel`, which both
    /// have.
    var wire: Wire? {
        switch self {
        case .shippingContactSelected, .shippingMethodSelected, .paymentMethodSelected, .couponCodeChanged,
            .paymentAuthorized:
            .applePay
        case .shippingAddressChange, .shippingOptionChange, .paymentMethodChange, .paymentResponse, .payerDetailChange:
            .paymentRequest
        case .validateMerchant, .cancel: nil
        // Express Checkout Element
        case .expressCheckoutClick, .expressCheckoutShippingAddressChange, .expressCheckoutShippingRateChange,
            .expressCheckoutConfirm:
            .expressCheckout
        // Google Pay
        case .googlePayPaymentDataChanged, .googlePayPaymentAuthorized: .googlePay
        }
    }
}
