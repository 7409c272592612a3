import CheckoutFlows

/// The browser events a relay handles: `ApplePaySession`'s, named as Apple names them without
/// `on`, and the W3C `PaymentRequest`'s: its three update events, the `PaymentResponse` that
/// `show()` resolves with, and the response's `payerdetailchange` (spec W7).
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

    /// The name of the page's method that takes this event's answer (`completeShippingContactSelection`,
    /// `updateWith`, ...; for Google Pay the callback whose promise resolves with it,
    /// `onPaymentDataChanged` or `onPaymentAuthorized`); nil for `cancel`, which takes none. A `paymentresponse` is answered
    /// `complete` or, when the payer has something to fix, `retry` (spec W7).
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
        // Google Pay
        case .googlePayPaymentDataChanged: "onPaymentDataChanged"
        case .googlePayPaymentAuthorized: DelegateMethod.didAuthorizePayment.name
        }
    }

    /// The browser API whose events a page sends: one a session (spec W10).
    enum Wire: String, Sendable {
        case applePay = "ApplePaySession"
        case paymentRequest = "PaymentRequest"
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
        // Google Pay
        case .googlePayPaymentDataChanged, .googlePayPaymentAuthorized: .googlePay
        }
    }
}
