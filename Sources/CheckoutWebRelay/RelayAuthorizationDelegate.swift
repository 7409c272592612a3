import CheckoutCore
import CheckoutFlows

/// The delegate of a relayed authorization flow: it forwards each callback to the merchant's
/// delegate, or, while a resume replays a snapshot, answers from the record (spec W6). The flow's
/// own delegate cannot change once it is made, so the relay's stands between the two.
final class RelayAuthorizationDelegate: PaymentAuthorizationDelegate {
    enum Merchant: Sendable {
        case completions(any PaymentAuthorizationDelegate)
        case async(any AsyncPaymentAuthorizationDelegate)
    }

    let merchant: Merchant
    let script: ReplayScript
    init(merchant: Merchant, script: ReplayScript) {
        self.merchant = merchant
        self.script = script
    }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {
        guard script.isLive else { return }
        switch merchant {
        case .completions(let delegate): delegate.paymentAuthorizationFlowDidFinish(flow)
        case .async(let delegate): delegate.paymentAuthorizationFlowDidFinish(flow)
        }
    }

    func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {
        switch script.next(for: "willAuthorizePayment") {
        case .live:
            switch merchant {
            case .completions(let delegate): delegate.paymentAuthorizationFlowWillAuthorizePayment(flow)
            case .async(let delegate): delegate.paymentAuthorizationFlowWillAuthorizePayment(flow)
            }
        case .answer(let answer):
            guard case .authorization(_, let byDefault) = answer else {
                script.diverged("the flow called willAuthorizePayment where the record answers \(answer.callback)")
                return
            }
            if byDefault { flow.noteWillAuthorizePaymentNotImplemented() }
        case .exhausted: break
        }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        // The record's answer was taken by willAuthorizePayment, which the flow calls just before.
        guard script.isLive else {
            if case .authorization(let result, _) = script.lastAnswer { return handler(result) }
            script.diverged("the flow called didAuthorizePayment where the record does not answer it")
            _ = flow.cancel()
            return
        }
        switch merchant {
        case .completions(let delegate):
            delegate.paymentAuthorizationFlow(flow, didAuthorizePayment: payment, handler: handler)
        case .async(let delegate):
            Task { handler(await delegate.paymentAuthorizationFlow(flow, didAuthorizePayment: payment)) }
        }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        script.answer("didSelectShippingContact", from: \.shippingContactUpdate, handler: handler) {
            switch merchant {
            case .completions(let delegate):
                delegate.paymentAuthorizationFlow(flow, didSelectShippingContact: contact, handler: handler)
            case .async(let delegate):
                Task { handler(await delegate.paymentAuthorizationFlow(flow, didSelectShippingContact: contact)) }
            }
        } diverged: {
            _ = flow.cancel()
        }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        script.answer("didSelectShippingMethod", from: \.shippingMethodUpdate, handler: handler) {
            switch merchant {
            case .completions(let delegate):
                delegate.paymentAuthorizationFlow(flow, didSelectShippingMethod: method, handler: handler)
            case .async(let delegate):
                Task { handler(await delegate.paymentAuthorizationFlow(flow, didSelectShippingMethod: method)) }
            }
        } diverged: {
            _ = flow.cancel()
        }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectPaymentMethod method: PaymentMethod,
        handler: @escaping @Sendable (PaymentMethodUpdate) -> Void
    ) {
        script.answer("didSelectPaymentMethod", from: \.paymentMethodUpdate, handler: handler) {
            switch merchant {
            case .completions(let delegate):
                delegate.paymentAuthorizationFlow(flow, didSelectPaymentMethod: method, handler: handler)
            case .async(let delegate):
                Task { handler(await delegate.paymentAuthorizationFlow(flow, didSelectPaymentMethod: method)) }
            }
        } diverged: {
            _ = flow.cancel()
        }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) {
        script.answer("didChangeCouponCode", from: \.couponCodeUpdate, handler: handler) {
            switch merchant {
            case .completions(let delegate):
                delegate.paymentAuthorizationFlow(flow, didChangeCouponCode: code, handler: handler)
            case .async(let delegate):
                Task { handler(await delegate.paymentAuthorizationFlow(flow, didChangeCouponCode: code)) }
            }
        } diverged: {
            _ = flow.cancel()
        }
    }
}
