import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import Foundation

/// The delegate of a relayed authorization flow: it forwards each callback to the merchant's
/// delegate, or, while a resume replays a snapshot, answers from the record (spec W6). The flow's
/// own delegate cannot change once it is made, so the relay's stands between the two; it handles
/// every callback (spec E11). It is the ``ReplayScript`` it answers from (unchecked Sendable as
/// that class is; its own properties are constants).
final class RelayAuthorizationDelegate: ReplayScript, PaymentAuthorizationForwarding, @unchecked Sendable {
    let merchant: PaymentAuthorizationMerchant
    /// The merchant's ``MerchantValidating``, bound to the session, when it gave one.
    let validator: MerchantValidator?

    init(merchant: PaymentAuthorizationMerchant, validator: MerchantValidator?) {
        self.merchant = merchant
        self.validator = validator
    }

    func forward(_ callback: PaymentAuthorizationCallback, flow: PaymentAuthorizationFlow) {
        switch callback {
        case .didFinish:
            if isLive { merchant.deliver(callback, flow: flow) }
        case .willAuthorizePayment:
            switch next(for: callback.name) {
            case .live: merchant.deliver(callback, flow: flow)
            case .answer(let answer):
                guard case .authorization(_, let byDefault) = answer else {
                    diverged("the flow called \(callback.name) where the record answers \(answer.callback)")
                    return
                }
                if byDefault { flow.noteWillAuthorizePaymentNotImplemented() }
            case .exhausted: break
            }
        case .didAuthorizePayment(_, let handler):
            // The record's answer was taken by willAuthorizePayment, which the flow calls just before.
            guard isLive else {
                if case .authorization(let result, _) = lastAnswer { return handler(result) }
                diverged("the flow called \(callback.name) where the record does not answer it")
                _ = flow.cancel()
                return
            }
            merchant.deliver(callback, flow: flow)
        default:
            // Every other callback: the merchant's answer, or the record's while replaying.
            answer(callback.name, with: callback.answer(with:)) {
                // A merchant session is the relay's `MerchantValidating`'s to answer, when it has one.
                if case .didRequestMerchantSessionUpdate(let request, let handler) = callback, let validator {
                    validator.answer(request, handler)
                } else {
                    merchant.deliver(callback, flow: flow)
                }
            } diverged: {
                _ = flow.cancel()
            }
        }
    }
}
