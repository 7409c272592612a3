import CheckoutCore
import CheckoutFlows

/// A `PaymentAuthorizationDelegate` for tests that implements every method: it records every
/// call in order, answers each callback as scripted, and keeps every completion.
///
/// Unscripted calls of the optional callbacks (the selections and the coupon code) answer at
/// once with no change, as the protocol's defaults do (``ScriptedAnswer/protocolDefault``);
/// unscripted calls of `didAuthorizePayment` hold their completion. Set
/// ``ScriptedCallback/fallback`` to answer every call alike.
///
/// ```swift
/// let delegate = RecordingPaymentAuthorizationDelegate()
/// delegate.didSelectShippingContact.fallback = .answer(ShippingContactUpdate(summaryItems: items))
/// delegate.didAuthorizePayment.script(.answer(.success))
/// ```
public final class RecordingPaymentAuthorizationDelegate: PaymentAuthorizationForwarding, RecordingDelegate {
    /// `didRequestMerchantSessionUpdate`: the requests, the handlers, the script.
    public let didRequestMerchantSessionUpdate = ScriptedCallback<MerchantSessionRequest, MerchantSessionUpdate>(
        .didRequestMerchantSessionUpdate, fallback: .protocolDefault)
    /// `didSelectShippingContact`: the (redacted) contacts, the handlers, the script.
    public let didSelectShippingContact = ScriptedCallback<Contact, ShippingContactUpdate>(
        .didSelectShippingContact, fallback: .protocolDefault)
    /// `didSelectShippingMethod`: the methods, the handlers, the script.
    public let didSelectShippingMethod = ScriptedCallback<ShippingMethod, ShippingMethodUpdate>(
        .didSelectShippingMethod, fallback: .protocolDefault)
    /// `didSelectPaymentMethod`: the cards, the handlers, the script.
    public let didSelectPaymentMethod = ScriptedCallback<PaymentMethod, PaymentMethodUpdate>(
        .didSelectPaymentMethod, fallback: .protocolDefault)
    /// `didChangeCouponCode`: the codes, the handlers, the script.
    public let didChangeCouponCode = ScriptedCallback<String, CouponCodeUpdate>(
        .didChangeCouponCode, fallback: .protocolDefault)
    /// `didAuthorizePayment`: the payments, the handlers, the script.
    public let didAuthorizePayment = ScriptedCallback<Payment, PaymentAuthorizationResult>(.didAuthorizePayment)
    /// `willAuthorizePayment`.
    public let willAuthorizePayment = RecordedNotification<Void>(.willAuthorizePayment)
    /// `didFinish`.
    public let didFinish = RecordedNotification<Void>(.didFinish)

    private let log = CallLog()
    private let cancels = LockedValue<[DriverResponse]>([])

    /// A delegate with no answer scripted yet. With `holdingUnscriptedCalls`, the unscripted
    /// calls of the optional callbacks hold their completion too (their fallback is
    /// ``ScriptedAnswer/hold``), for a test of what a driver may do while an answer is owed.
    public init(holdingUnscriptedCalls: Bool = false) {
        guard holdingUnscriptedCalls else { return }
        didSelectShippingContact.fallback = .hold
        didSelectShippingMethod.fallback = .hold
        didSelectPaymentMethod.fallback = .hold
        didChangeCouponCode.fallback = .hold
        didRequestMerchantSessionUpdate.fallback = .hold
    }

    /// Every delegate call, in order, with its arguments.
    public var calls: [RecordedCall] { log.calls }

    /// The enter/exit marks of every delegate call, in order.
    public var trace: [String] { log.trace }

    /// What `flow.cancel()` returned each time a ``ScriptedAnswer/cancel`` answer called it.
    public var cancelResponses: [DriverResponse] { cancels.withLock { $0 } }

    /// Returns true once `method` has been called `times` times and those calls have returned,
    /// false when `timeout` (real time) passes first.
    public func wait(for method: String, times: Int, timeout: Duration) async -> Bool {
        await log.wait(for: method, count: times, timeout: timeout)
    }

    private func run<Input: Sendable, Value: Sendable>(
        _ callback: ScriptedCallback<Input, Value>,
        _ input: Input,
        _ handler: @escaping @Sendable (Value) -> Void,
        _ flow: PaymentAuthorizationFlow,
        protocolDefault: (() -> Value)? = nil
    ) {
        log.enter(callback.method, [input])
        let answer = callback.receive(input, handler)
        if let response = answer.perform(input, handler, protocolDefault: protocolDefault, cancel: { flow.cancel() }) {
            cancels.withLock { $0.append(response) }
        }
        log.exit(callback.method)
    }

    private func notify(_ notification: RecordedNotification<Void>) {
        log.enter(notification.method, [])
        notification.receive(())
        log.exit(notification.method)
    }

    /// Records the call and answers as scripted (every method of the protocol: spec E11).
    public func forward(_ callback: PaymentAuthorizationCallback, flow: PaymentAuthorizationFlow) {
        switch callback {
        case .didFinish: notify(didFinish)
        case .willAuthorizePayment: notify(willAuthorizePayment)
        case .didAuthorizePayment(let payment, let handler): run(didAuthorizePayment, payment, handler, flow)
        case .didRequestMerchantSessionUpdate(let request, let handler):
            run(didRequestMerchantSessionUpdate, request, handler, flow) { flow.defaultMerchantSessionUpdate() }
        case .didSelectShippingContact(let contact, let handler):
            run(didSelectShippingContact, contact, handler, flow) { flow.defaultShippingContactUpdate() }
        case .didSelectShippingMethod(let method, let handler):
            run(didSelectShippingMethod, method, handler, flow) { flow.defaultShippingMethodUpdate() }
        case .didSelectPaymentMethod(let method, let handler):
            run(didSelectPaymentMethod, method, handler, flow) { flow.defaultPaymentMethodUpdate() }
        case .didChangeCouponCode(let code, let handler):
            run(didChangeCouponCode, code, handler, flow) { flow.defaultCouponCodeUpdate() }
        }
    }
}
