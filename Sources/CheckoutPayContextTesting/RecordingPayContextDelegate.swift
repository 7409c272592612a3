import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutTesting

/// A `PayContextDelegate` for tests that implements every method: it records every call in
/// order, answers each callback as scripted, keeps every completion, and notes whether the sheet
/// was gone when `didComplete` came (spec P6).
///
/// Unscripted calls of the optional callbacks answer as the protocol's defaults do
/// (``/CheckoutTesting/ScriptedAnswer/protocolDefault``): the shipping and coupon callbacks keep
/// the current summary (`context.sheet.default…Update()`), `willComplete` passes the result
/// through unchanged. Unscripted calls of `didCreatePaymentMethod` hold their completion.
///
/// ```swift
/// let delegate = RecordingPayContextDelegate(didCreatePaymentMethod: .answer(.secret(secret)))
/// let context = try PayContext(request: request, backend: stripe, delegate: delegate)
/// context.present()
/// context.authorize(token)
/// await delegate.waitUntilCalled(.didComplete)
/// ```
public final class RecordingPayContextDelegate: PayContextForwarding, RecordingDelegate {
    /// What `didCreatePaymentMethod` receives besides the context.
    public typealias PaymentMethodCreation = (paymentMethod: StripePaymentMethod, paymentInformation: Payment)

    /// `didCreatePaymentMethod`: the payment methods with the payments, the completions, the
    /// script.
    public let didCreatePaymentMethod = ScriptedCallback<PaymentMethodCreation, IntentAnswer>(.didCreatePaymentMethod)
    /// `didRequestMerchantSessionUpdate`: the requests, the handlers, the script.
    public let didRequestMerchantSessionUpdate = ScriptedCallback<MerchantSessionRequest, MerchantSessionUpdate>(
        .didRequestMerchantSessionUpdate, fallback: .protocolDefault)
    /// `didSelectShippingMethod`: the methods, the handlers, the script.
    public let didSelectShippingMethod = ScriptedCallback<ShippingMethod, ShippingMethodUpdate>(
        .didSelectShippingMethod, fallback: .protocolDefault)
    /// `didSelectShippingContact`: the (redacted) contacts, the handlers, the script.
    public let didSelectShippingContact = ScriptedCallback<Contact, ShippingContactUpdate>(
        .didSelectShippingContact, fallback: .protocolDefault)
    /// `didChangeCouponCode`: the codes, the handlers, the script.
    public let didChangeCouponCode = ScriptedCallback<String, CouponCodeUpdate>(
        .didChangeCouponCode, fallback: .protocolDefault)
    /// `willComplete`: the results about to be shown, the handlers, the script. Unscripted calls
    /// pass the result through unchanged.
    public let willComplete = ScriptedCallback<PaymentAuthorizationResult, PaymentAuthorizationResult>(
        .willComplete, fallback: .protocolDefault)
    /// `didComplete`: the status and error of each call.
    public let didComplete = RecordedNotification<(status: PaymentStatus, error: (any Error)?)>(.didComplete)

    private struct State {
        var cancels: [DriverResponse] = []
        var sheetEnded: [Bool] = []
    }

    private let log = CallLog()
    private let state = LockedValue(State())

    /// A delegate whose first calls of `didCreatePaymentMethod` take these answers. With
    /// `holdingUnscriptedCalls`, the unscripted calls of the optional callbacks hold their
    /// completion too (their fallback is ``/CheckoutTesting/ScriptedAnswer/hold``).
    public init(
        didCreatePaymentMethod answers: ScriptedAnswer<PaymentMethodCreation, IntentAnswer>...,
        holdingUnscriptedCalls: Bool = false
    ) {
        for answer in answers { didCreatePaymentMethod.script(answer) }
        guard holdingUnscriptedCalls else { return }
        didSelectShippingMethod.fallback = .hold
        didSelectShippingContact.fallback = .hold
        didChangeCouponCode.fallback = .hold
        didRequestMerchantSessionUpdate.fallback = .hold
        willComplete.fallback = .hold
    }

    /// Every delegate call, in order, with its arguments.
    public var calls: [RecordedCall] { log.calls }

    /// The enter/exit marks of every delegate call, in order.
    public var trace: [String] { log.trace }

    /// What `context.cancel()` returned each time a ``/CheckoutTesting/ScriptedAnswer/cancel`` answer called it.
    public var cancelResponses: [DriverResponse] { state.withLock { $0.cancels } }

    /// For each `didComplete` call, whether the authorization sheet had ended when it came
    /// (spec P6 requires `true`).
    public var sheetEndedBeforeDidComplete: [Bool] { state.withLock { $0.sheetEnded } }

    /// Returns true once `method` has been called `times` times and those calls have returned,
    /// false when `timeout` (real time) passes first.
    public func wait(for method: String, times: Int, timeout: Duration) async -> Bool {
        await log.wait(for: method, count: times, timeout: timeout)
    }

    private func run<Input: Sendable, Value: Sendable>(
        _ callback: ScriptedCallback<Input, Value>,
        _ input: Input,
        arguments: [Any],
        _ handler: @escaping @Sendable (Value) -> Void,
        _ context: PayContext,
        protocolDefault: (() -> Value)? = nil
    ) {
        log.enter(callback.method, arguments)
        let answer = callback.receive(input, handler)
        if let response = answer.perform(
            input, handler, protocolDefault: protocolDefault, cancel: { context.cancel() })
        {
            state.withLock { $0.cancels.append(response) }
        }
        log.exit(callback.method)
    }

    /// Records the call and answers as scripted (every method of the protocol: spec E11).
    public func forward(_ callback: PayContextCallback, context: PayContext) {
        switch callback {
        case .didCreatePaymentMethod(let paymentMethod, let paymentInformation, let completion):
            run(
                didCreatePaymentMethod, (paymentMethod, paymentInformation),
                arguments: [paymentMethod, paymentInformation], completion, context)
        case .didComplete(let status, let error):
            let sheetEnded: Bool
            if case .ended = context.sheet.step { sheetEnded = true } else { sheetEnded = false }
            log.enter(didComplete.method, [status, error.map { String(describing: $0) } ?? "nil"])
            state.withLock { $0.sheetEnded.append(sheetEnded) }
            didComplete.receive((status, error))
            log.exit(didComplete.method)
        case .didRequestMerchantSessionUpdate(let request, let handler):
            run(didRequestMerchantSessionUpdate, request, arguments: [request], handler, context) {
                context.sheet.defaultMerchantSessionUpdate()
            }
        case .didSelectShippingMethod(let method, let handler):
            run(didSelectShippingMethod, method, arguments: [method], handler, context) {
                context.sheet.defaultShippingMethodUpdate()
            }
        case .didSelectShippingContact(let contact, let handler):
            run(didSelectShippingContact, contact, arguments: [contact], handler, context) {
                context.sheet.defaultShippingContactUpdate()
            }
        case .didChangeCouponCode(let code, let handler):
            run(didChangeCouponCode, code, arguments: [code], handler, context) {
                context.sheet.defaultCouponCodeUpdate()
            }
        case .willComplete(let result, let handler):
            run(willComplete, result, arguments: [result], handler, context) {
                context.noteDefaultWillComplete()
                return result
            }
        }
    }
}
