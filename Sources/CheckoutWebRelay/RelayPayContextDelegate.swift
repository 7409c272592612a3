import CheckoutCore
import CheckoutFlows
import CheckoutPayContext

/// The delegate of a relayed pay context: it forwards to the merchant's, or answers the sheet's
/// callbacks from a snapshot's record while a resume replays it (spec W6; a record never holds an
/// authorization, see ``RelayError/Code/snapshotUnsupported``). It handles every callback (spec
/// E11). It is the ``ReplayScript`` it answers from (unchecked Sendable as
/// that class is; its own properties are constants).
final class RelayPayContextDelegate: ReplayScript, PayContextForwarding, @unchecked Sendable {
    let merchant: PayContextMerchant
    /// The merchant's ``MerchantValidating``, bound to the session, when it gave one.
    let validator: MerchantValidator?

    init(merchant: PayContextMerchant, validator: MerchantValidator?) {
        self.merchant = merchant
        self.validator = validator
    }

    func forward(_ callback: PayContextCallback, context: PayContext) {
        switch callback {
        case .didCreatePaymentMethod:
            guard isLive else {
                diverged("the pay context created a payment method during a replay")
                _ = context.cancel()
                return
            }
            merchant.deliver(callback, context: context)
        case .didComplete:
            if isLive { merchant.deliver(callback, context: context) }
        case .willComplete(let result, let handler):
            guard isLive else {
                diverged("the pay context completed a payment during a replay")
                return handler(result)
            }
            merchant.deliver(callback, context: context)
        default:
            // The sheet's other callbacks: the merchant's answer, or the record's while replaying.
            answer(callback.name, with: callback.answer(with:)) {
                // A merchant session is the relay's `MerchantValidating`'s to answer, when it has one.
                if case .didRequestMerchantSessionUpdate(let request, let handler) = callback, let validator {
                    validator.answer(request, handler)
                } else {
                    merchant.deliver(callback, context: context)
                }
            } diverged: {
                _ = context.cancel()
            }
        }
    }
}
