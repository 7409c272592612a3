import CheckoutCore
import CheckoutFlows
import CheckoutPayContext

/// The delegate of a relayed pay context: it forwards to the merchant's, or answers the sheet's
/// callbacks from a snapshot's record while a resume replays it (spec W6; a record never holds an
/// authorization, see ``RelayError/Code/snapshotUnsupported``). It handles every callback (spec
/// E11).
final class RelayPayContextDelegate: PayContextForwarding {
    let merchant: PayContextMerchant
    let script: ReplayScript

    init(merchant: PayContextMerchant, script: ReplayScript) {
        self.merchant = merchant
        self.script = script
    }

    func forward(_ callback: PayContextCallback, context: PayContext) {
        switch callback {
        case .didCreatePaymentMethod:
            guard script.isLive else {
                script.diverged("the pay context created a payment method during a replay")
                _ = context.cancel()
                return
            }
            merchant.deliver(callback, context: context)
        case .didComplete:
            if script.isLive { merchant.deliver(callback, context: context) }
        case .willComplete(let result, let handler):
            guard script.isLive else {
                script.diverged("the pay context completed a payment during a replay")
                return handler(result)
            }
            merchant.deliver(callback, context: context)
        default:
            // The sheet's other callbacks: the merchant's answer, or the record's while replaying.
            script.answer(callback.name, with: callback.answer(with:)) {
                // A merchant session is the relay's `MerchantValidating`'s to answer, when it has one.
                if case .didRequestMerchantSessionUpdate(let request, let handler) = callback,
                    let validator = script.validator
                {
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
