import CheckoutCore
import CheckoutFlows

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
    // Google Pay
    /// For an event that carries several changes (Google Pay's `onPaymentDataChanged`, spec W9):
    /// the answers after ``answer``, in the order the flow took them.
    package var laterAnswers: [RecordedAnswer]? = nil

    /// Every answer the event led to, in order.
    var answers: [RecordedAnswer] { (answer.map { [$0] } ?? []) + (laterAnswers ?? []) }
}

/// A merchant's answer as a snapshot keeps it, in CheckoutCore's JSON (which refuses unknown
/// keys), with whether a default answered (spec A9), so that the replayed transcript says so too.
package enum RecordedAnswer: Codable, Hashable, Sendable {
    case shippingContact(ShippingContactUpdate, byDefault: Bool)
    case shippingMethod(ShippingMethodUpdate, byDefault: Bool)
    case paymentMethod(PaymentMethodUpdate, byDefault: Bool)
    case couponCode(CouponCodeUpdate, byDefault: Bool)
    case authorization(PaymentAuthorizationResult, willAuthorizeByDefault: Bool)
    /// A merchant session: whether one came, never what it held (spec W5).
    case merchantSession(validated: Bool, byDefault: Bool)

    /// The callback the answer belongs to.
    var callback: String {
        switch self {
        case .shippingContact: DelegateMethod.didSelectShippingContact.name
        case .shippingMethod: DelegateMethod.didSelectShippingMethod.name
        case .paymentMethod: DelegateMethod.didSelectPaymentMethod.name
        case .couponCode: DelegateMethod.didChangeCouponCode.name
        case .authorization: DelegateMethod.didAuthorizePayment.name
        case .merchantSession: DelegateMethod.didRequestMerchantSessionUpdate.name
        }
    }

    /// The update a replay gives `didRequestMerchantSessionUpdate`: a placeholder session, since
    /// a snapshot never keeps the session itself.
    var merchantSessionUpdate: MerchantSessionUpdate? {
        guard case .merchantSession(let validated, let byDefault) = self else { return nil }
        var update = validated ? MerchantSessionUpdate.success(MerchantSession(json: "{}")) : .failure
        update.isDefaultAnswer = byDefault
        return update
    }

    /// The answer a replay gives the callback it answers, with whether a default gave it; nil for
    /// an authorization, which a replay answers through `willAuthorizePayment` (see
    /// `RelayAuthorizationDelegate`). A merchant session is replayed as a placeholder: a snapshot
    /// never keeps the session itself (spec W5).
    var replayed: PaymentAuthorizationAnswer? {
        switch self {
        case .shippingContact(var update, let byDefault):
            update.isDefaultAnswer = byDefault
            return .shippingContact(update)
        case .shippingMethod(var update, let byDefault):
            update.isDefaultAnswer = byDefault
            return .shippingMethod(update)
        case .paymentMethod(var update, let byDefault):
            update.isDefaultAnswer = byDefault
            return .paymentMethod(update)
        case .couponCode(var update, let byDefault):
            update.isDefaultAnswer = byDefault
            return .couponCode(update)
        case .merchantSession(let validated, let byDefault):
            var update = validated ? MerchantSessionUpdate.success(MerchantSession(json: "{}")) : .failure
            update.isDefaultAnswer = byDefault
            return .merchantSession(update)
        case .authorization:
            return nil
        }
    }
}
