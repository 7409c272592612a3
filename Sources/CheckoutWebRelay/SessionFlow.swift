import CheckoutCore
import CheckoutFlows
import CheckoutPayContext

/// A session's flow: an authorization flow, or a pay context around one. One face for the
/// customer's actions the relay takes.
enum SessionFlow: Sendable {
    case authorization(PaymentAuthorizationFlow)
    case payContext(PayContext)

    /// The authorization sheet (the pay context's own sheet for a pay context).
    var sheet: PaymentAuthorizationFlow {
        switch self {
        case .authorization(let flow): flow
        case .payContext(let context): context.sheet
        }
    }

    /// Makes the flow small while it waits for the page's next event: its transcripts packed, and
    /// what its runners keep for the next event let go of.
    func compactWhileIdle() {
        switch self {
        case .authorization(let flow): flow.compactWhileIdle()
        case .payContext(let context): context.compactWhileIdle()
        }
    }

    var transcript: Transcript {
        switch self {
        case .authorization(let flow): flow.transcript
        case .payContext(let context): context.transcript
        }
    }

    /// The outcome's description once the flow has ended (its terminal call made).
    var outcome: String? {
        switch self {
        case .authorization(let flow):
            if case .ended(let outcome) = flow.step { return outcome.description }
            return nil
        case .payContext(let context):
            if let outcome = context.outcome { return outcome.description }
            if case .ended(let outcome) = context.sheet.step { return outcome.description }
            return nil
        }
    }

    var isEnded: Bool { outcome != nil }

    func present() -> DriverResponse {
        switch self {
        case .authorization(let flow): flow.present()
        case .payContext(let context): context.present()
        }
    }

    func cancel() -> DriverResponse {
        switch self {
        case .authorization(let flow): flow.cancel()
        case .payContext(let context): context.cancel()
        }
    }

    func waitUntilEnded() async {
        switch self {
        case .authorization(let flow): await flow.waitUntilEnded()
        case .payContext(let context): await context.waitUntilEnded()
        }
    }

    func requestMerchantSession(_ request: MerchantSessionRequest) async throws -> MerchantSessionUpdate {
        try await sheet.requestMerchantSessionAndWait(request)
    }

    func selectShippingContact(_ contact: Contact) async throws -> ShippingContactUpdate {
        switch self {
        case .authorization(let flow): try await flow.selectShippingContactAndWait(contact)
        case .payContext(let context): try await context.selectShippingContactAndWait(contact)
        }
    }

    func selectShippingMethod(_ identifier: String) async throws -> ShippingMethodUpdate {
        switch self {
        case .authorization(let flow): try await flow.selectShippingMethodAndWait(identifier)
        case .payContext(let context): try await context.selectShippingMethodAndWait(identifier)
        }
    }

    func selectPaymentMethod(_ method: PaymentMethod) async throws -> PaymentMethodUpdate {
        switch self {
        case .authorization(let flow): try await flow.selectPaymentMethodAndWait(method)
        case .payContext(let context): try await context.selectPaymentMethodAndWait(method)
        }
    }

    func changeCouponCode(_ code: String) async throws -> CouponCodeUpdate {
        switch self {
        case .authorization(let flow): try await flow.changeCouponCodeAndWait(code)
        case .payContext(let context): try await context.changeCouponCodeAndWait(code)
        }
    }

    func authorize(_ token: PaymentToken, billingContact: Contact?, shippingContact: Contact?) async throws
        -> PaymentAuthorizationResult
    {
        switch self {
        case .authorization(let flow):
            try await flow.authorizeAndWait(token, billingContact: billingContact, shippingContact: shippingContact)
        case .payContext(let context):
            try await context.authorizeAndWait(token, billingContact: billingContact, shippingContact: shippingContact)
        }
    }
}
