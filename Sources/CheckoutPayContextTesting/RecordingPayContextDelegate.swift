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
/// await delegate.waitUntilCalled("didComplete")
/// ```
public final class RecordingPayContextDelegate: PayContextDelegate, RecordingDelegate {
    /// What `didCreatePaymentMethod` receives besides the context.
    public typealias PaymentMethodCreation = (paymentMethod: StripePaymentMethod, paymentInformation: Payment)

    /// `didCreatePaymentMethod`: the payment methods with the payments, the completions, the
    /// script.
    public let didCreatePaymentMethod = ScriptedCallback<PaymentMethodCreation, IntentAnswer>(
        "didCreatePaymentMethod")
    /// `didSelectShippingMethod`: the methods, the handlers, the script.
    public let didSelectShippingMethod = ScriptedCallback<ShippingMethod, ShippingMethodUpdate>(
        "didSelectShippingMethod", fallback: .protocolDefault)
    /// `didSelectShippingContact`: the (redacted) contacts, the handlers, the script.
    public let didSelectShippingContact = ScriptedCallback<Contact, ShippingContactUpdate>(
        "didSelectShippingContact", fallback: .protocolDefault)
    /// `didChangeCouponCode`: the codes, the handlers, the script.
    public let didChangeCouponCode = ScriptedCallback<String, CouponCodeUpdate>(
        "didChangeCouponCode", fallback: .protocolDefault)
    /// `willComplete`: the results about to be shown, the handlers, the script. Unscripted calls
    /// pass the result through unchanged.
    public let willComplete = ScriptedCallback<PaymentAuthorizationResult, PaymentAuthorizationResult>(
        "willComplete", fallback: .protocolDefault)
    /// `didComplete`: the status and error of each call.
    public let didComplete = RecordedNotification<(status: PaymentStatus, error: (any Error)?)>("didComplete")

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

    /// Records the call and answers as scripted.
    public func payContext(
        _ context: PayContext,
        didCreatePaymentMethod paymentMethod: StripePaymentMethod,
        paymentInformation: Payment,
        completion: @escaping @Sendable (IntentAnswer) -> Void
    ) {
        run(
            didCreatePaymentMethod,
            (paymentMethod, paymentInformation),
            arguments: [paymentMethod, paymentInformation],
            completion,
            context
        )
    }

    /// Records the call and whether the sheet had ended.
    public func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {
        let sheetEnded: Bool
        if case .ended = context.sheet.step { sheetEnded = true } else { sheetEnded = false }
        log.enter("didComplete", [status, error.map { String(describing: $0) } ?? "nil"])
        state.withLock { $0.sheetEnded.append(sheetEnded) }
        didComplete.receive((status, error))
        log.exit("didComplete")
    }

    /// Records the call and answers as scripted.
    public func payContext(
        _ context: PayContext,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        run(didSelectShippingMethod, method, arguments: [method], handler, context) {
            context.sheet.defaultShippingMethodUpdate()
        }
    }

    /// Records the call and answers as scripted.
    public func payContext(
        _ context: PayContext,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        run(didSelectShippingContact, contact, arguments: [contact], handler, context) {
            context.sheet.defaultShippingContactUpdate()
        }
    }

    /// Records the call and answers as scripted.
    public func payContext(
        _ context: PayContext,
        didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) {
        run(didChangeCouponCode, code, arguments: [code], handler, context) {
            context.sheet.defaultCouponCodeUpdate()
        }
    }

    /// Records the call and answers as scripted.
    public func payContext(
        _ context: PayContext,
        willCompleteWith result: PaymentAuthorizationResult,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        run(willComplete, result, arguments: [result], handler, context) {
            context.noteDefaultWillComplete()
            return result
        }
    }
}
