import CheckoutCore

/// One event of a session that reached its flow, with what the flow made of it: the merchant's
/// answer, or the flow's refusal. A snapshot carries these; a resume replays them through a fresh
/// flow (spec W6).
package struct RecordedStep: Codable, Hashable, Sendable {
    /// The event as the page sent it: a resume reads it again as wire input.
    package var event: RelayEvent
    /// The merchant's answer, for an event the flow accepted.
    package var answer: RecordedAnswer?
    /// The flow's refusal code, for an event it refused.
    package var refusal: String?
}

/// A merchant's answer as a snapshot keeps it, in CheckoutCore's JSON (which refuses unknown
/// keys), with whether a default answered (spec A9), so that the replayed transcript says so too.
package enum RecordedAnswer: Codable, Hashable, Sendable {
    case shippingContact(ShippingContactUpdate, byDefault: Bool)
    case shippingMethod(ShippingMethodUpdate, byDefault: Bool)
    case paymentMethod(PaymentMethodUpdate, byDefault: Bool)
    case couponCode(CouponCodeUpdate, byDefault: Bool)
    case authorization(PaymentAuthorizationResult, willAuthorizeByDefault: Bool)

    /// The callback the answer belongs to.
    var callback: String {
        switch self {
        case .shippingContact: "didSelectShippingContact"
        case .shippingMethod: "didSelectShippingMethod"
        case .paymentMethod: "didSelectPaymentMethod"
        case .couponCode: "didChangeCouponCode"
        case .authorization: "didAuthorizePayment"
        }
    }

    /// The update a replay gives `didSelectShippingContact`, or nil for another callback's answer.
    var shippingContactUpdate: ShippingContactUpdate? {
        guard case .shippingContact(var update, let byDefault) = self else { return nil }
        update.isDefaultAnswer = byDefault
        return update
    }

    /// The update a replay gives `didSelectShippingMethod`.
    var shippingMethodUpdate: ShippingMethodUpdate? {
        guard case .shippingMethod(var update, let byDefault) = self else { return nil }
        update.isDefaultAnswer = byDefault
        return update
    }

    /// The update a replay gives `didSelectPaymentMethod`.
    var paymentMethodUpdate: PaymentMethodUpdate? {
        guard case .paymentMethod(var update, let byDefault) = self else { return nil }
        update.isDefaultAnswer = byDefault
        return update
    }

    /// The update a replay gives `didChangeCouponCode`.
    var couponCodeUpdate: CouponCodeUpdate? {
        guard case .couponCode(var update, let byDefault) = self else { return nil }
        update.isDefaultAnswer = byDefault
        return update
    }
}
