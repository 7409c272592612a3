import CheckoutCore

/// Google Pay's callback intents (reference "Request objects", `PaymentDataRequest.callbackIntents`,
/// and `PaymentDataError.intent`): which callback a merchant's error answers.
public enum GooglePayCallbackIntent: String, Codable, Hashable, Sendable, CaseIterable {
    /// A redemption code (`onPaymentDataChanged`, trigger `OFFER`).
    case offer = "OFFER"
    /// The authorization (`onPaymentAuthorized`).
    case paymentAuthorization = "PAYMENT_AUTHORIZATION"
    /// The shipping address (trigger `SHIPPING_ADDRESS`).
    case shippingAddress = "SHIPPING_ADDRESS"
    /// The shipping option (trigger `SHIPPING_OPTION`).
    case shippingOption = "SHIPPING_OPTION"
    /// The payment method (trigger `PAYMENT_METHOD`).
    case paymentMethod = "PAYMENT_METHOD"

    /// The intent a trigger answers; nil for `INITIALIZE`, which answers the intent of what it
    /// carried.
    public init?(_ trigger: GooglePayCallbackTrigger) {
        switch trigger {
        case .initialize: return nil
        case .shippingAddress: self = .shippingAddress
        case .shippingOption: self = .shippingOption
        case .offer: self = .offer
        case .paymentMethod: self = .paymentMethod
        }
    }
}

/// Google Pay's `PaymentDataError.reason` (reference "Response objects").
public enum GooglePayErrorReason: String, Codable, Hashable, Sendable, CaseIterable {
    /// The shipping address is not valid.
    case shippingAddressInvalid = "SHIPPING_ADDRESS_INVALID"
    /// The merchant does not ship to the address.
    case shippingAddressUnserviceable = "SHIPPING_ADDRESS_UNSERVICEABLE"
    /// The shipping option is not valid for the address.
    case shippingOptionInvalid = "SHIPPING_OPTION_INVALID"
    /// A redemption code is not valid.
    case offerInvalid = "OFFER_INVALID"
    /// The payment data is not valid.
    case paymentDataInvalid = "PAYMENT_DATA_INVALID"
    /// Any other error.
    case otherError = "OTHER_ERROR"
}

extension PaymentError.Code {
    /// The shipping method chosen is not valid for the contact: Google Pay's
    /// `SHIPPING_OPTION_INVALID`, which Apple Pay and PassKit have no code for (an Apple Pay answer
    /// refuses it, naming `code`).
    public static let shippingOptionInvalid = PaymentError.Code(rawValue: "shippingOptionInvalid")
}

/// Google Pay's `PaymentDataError` (reference "Response objects"): `{reason, message, intent}`,
/// all three required, what a merchant's callback answers when something is wrong.
///
/// Reasons, both ways, so that every Google reason comes back from the core as it went in
/// (spec W9): `SHIPPING_ADDRESS_INVALID` ↔ ``/CheckoutCore/PaymentError/Code/shippingContactInvalid``,
/// `SHIPPING_ADDRESS_UNSERVICEABLE` ↔ ``/CheckoutCore/PaymentError/Code/shippingAddressUnserviceable``,
/// `SHIPPING_OPTION_INVALID` ↔ `shippingOptionInvalid` (a code this module adds), `OFFER_INVALID` ↔
/// ``/CheckoutCore/PaymentError/Code/couponCodeInvalid``, `PAYMENT_DATA_INVALID` ↔
/// ``/CheckoutCore/PaymentError/Code/billingContactInvalid`` (the card and its billing address are
/// Google's payment data), `OTHER_ERROR` ↔ ``/CheckoutCore/PaymentError/Code/unknown``. One way, core to
/// Google: ``/CheckoutCore/PaymentError/Code/couponCodeExpired`` → `OFFER_INVALID` (Google has no
/// "expired"; the message says it). The core error's `field` has no Google member: the message
/// carries what the sheet shows. A core code outside these is refused naming `code`.
public struct GooglePayPaymentDataError: Codable, Hashable, Sendable, Error {
    /// What is wrong.
    public var reason: GooglePayErrorReason
    /// What the sheet shows.
    public var message: String
    /// The callback the error answers.
    public var intent: GooglePayCallbackIntent

    /// An error.
    public init(reason: GooglePayErrorReason, message: String, intent: GooglePayCallbackIntent) {
        self.reason = reason
        self.message = message
        self.intent = intent
    }

    /// The core error (see the type's discussion).
    public func core() -> PaymentError {
        let code: PaymentError.Code =
            switch reason {
            case .shippingAddressInvalid: .shippingContactInvalid
            case .shippingAddressUnserviceable: .shippingAddressUnserviceable
            case .shippingOptionInvalid: .shippingOptionInvalid
            case .offerInvalid: .couponCodeInvalid
            case .paymentDataInvalid: .billingContactInvalid
            case .otherError: .unknown
            }
        return PaymentError(code: code, message: message)
    }

    /// The core error in Google's members, for the callback `intent`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/invalidField``
    ///   naming `code` for a core code Google Pay has no reason for.
    public init(_ core: PaymentError, intent: GooglePayCallbackIntent) throws {
        let reason: GooglePayErrorReason
        switch core.code {
        case .shippingContactInvalid: reason = .shippingAddressInvalid
        case .shippingAddressUnserviceable: reason = .shippingAddressUnserviceable
        case .shippingOptionInvalid: reason = .shippingOptionInvalid
        case .couponCodeInvalid, .couponCodeExpired: reason = .offerInvalid
        case .billingContactInvalid: reason = .paymentDataInvalid
        case .unknown: reason = .otherError
        default: throw unmappable("code", core.code.rawValue, "has no Google Pay error reason")
        }
        self.init(reason: reason, message: core.message, intent: intent)
    }

    /// Checks Google's rule for an error answering `onPaymentDataChanged` with `trigger`: its
    /// intent is the trigger's (any but `PAYMENT_AUTHORIZATION` for `INITIALIZE`).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `intent` and its value.
    public func check(answering trigger: GooglePayCallbackTrigger) throws {
        if let expected = GooglePayCallbackIntent(trigger) {
            guard intent == expected else {
                throw unmappable(
                    "intent", intent.rawValue, "does not match the callback trigger \(trigger.rawValue) it answers")
            }
        } else if intent == .paymentAuthorization {
            throw unmappable("intent", intent.rawValue, "answers onPaymentAuthorized, not onPaymentDataChanged")
        }
    }
}
