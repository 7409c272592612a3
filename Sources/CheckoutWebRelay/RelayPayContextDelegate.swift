import CheckoutCore
import CheckoutFlows
import CheckoutPayContext

/// The delegate of a relayed pay context: it forwards to the merchant's, or answers the sheet's
/// callbacks from a snapshot's record while a resume replays it (spec W6; a record never holds an
/// authorization, see ``RelayError/Code/snapshotUnsupported``).
final class RelayPayContextDelegate: PayContextDelegate {
    enum Merchant: Sendable {
        case completions(any PayContextDelegate)
        case async(any AsyncPayContextDelegate)
    }

    let merchant: Merchant
    let script: ReplayScript

    init(merchant: Merchant, script: ReplayScript) {
        self.merchant = merchant
        self.script = script
    }

    func payContext(
        _ context: PayContext,
        didCreatePaymentMethod paymentMethod: StripePaymentMethod,
        paymentInformation: Payment,
        completion: @escaping @Sendable (IntentAnswer) -> Void
    ) {
        guard script.isLive else {
            script.diverged("the pay context created a payment method during a replay")
            _ = context.cancel()
            return
        }
        switch merchant {
        case .completions(let delegate):
            delegate.payContext(
                context, didCreatePaymentMethod: paymentMethod, paymentInformation: paymentInformation,
                completion: completion)
        case .async(let delegate):
            Task {
                completion(
                    await delegate.payContext(
                        context, didCreatePaymentMethod: paymentMethod, paymentInformation: paymentInformation))
            }
        }
    }

    func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {
        guard script.isLive else { return }
        switch merchant {
        case .completions(let delegate): delegate.payContext(context, didCompleteWith: status, error: error)
        case .async(let delegate): delegate.payContext(context, didCompleteWith: status, error: error)
        }
    }

    func payContext(
        _ context: PayContext,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        script.answer("didSelectShippingMethod", from: \.shippingMethodUpdate, handler: handler) {
            switch merchant {
            case .completions(let delegate):
                delegate.payContext(context, didSelectShippingMethod: method, handler: handler)
            case .async(let delegate):
                Task { handler(await delegate.payContext(context, didSelectShippingMethod: method)) }
            }
        } diverged: {
            _ = context.cancel()
        }
    }

    func payContext(
        _ context: PayContext,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        script.answer("didSelectShippingContact", from: \.shippingContactUpdate, handler: handler) {
            switch merchant {
            case .completions(let delegate):
                delegate.payContext(context, didSelectShippingContact: contact, handler: handler)
            case .async(let delegate):
                Task { handler(await delegate.payContext(context, didSelectShippingContact: contact)) }
            }
        } diverged: {
            _ = context.cancel()
        }
    }

    func payContext(
        _ context: PayContext,
        didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) {
        script.answer("didChangeCouponCode", from: \.couponCodeUpdate, handler: handler) {
            switch merchant {
            case .completions(let delegate): delegate.payContext(context, didChangeCouponCode: code, handler: handler)
            case .async(let delegate):
                Task { handler(await delegate.payContext(context, didChangeCouponCode: code)) }
            }
        } diverged: {
            _ = context.cancel()
        }
    }

    func payContext(
        _ context: PayContext,
        willCompleteWith result: PaymentAuthorizationResult,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        guard script.isLive else {
            script.diverged("the pay context completed a payment during a replay")
            return handler(result)
        }
        switch merchant {
        case .completions(let delegate): delegate.payContext(context, willCompleteWith: result, handler: handler)
        case .async(let delegate): Task { handler(await delegate.payContext(context, willCompleteWith: result)) }
        }
    }
}
