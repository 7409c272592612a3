import CheckoutCore
import CheckoutFlows

/// A headless `STPApplePayContext`: it runs an authorization sheet (a
/// ``/CheckoutFlows/PaymentAuthorizationFlow``, whose delegate it is) and, when the customer authorizes, talks
/// to a ``PaymentBackend``: it creates a payment method, asks the merchant for the intent's client
/// secret, retrieves and confirms the intent, and reports one final status through `didComplete`
/// after the sheet is gone (spec P1-P8).
///
/// The driver plays the customer on the sheet through the context (``selectShippingContact(_:)``,
/// ``authorize(_:billingContact:shippingContact:)``, ``cancel()``, ...; each that calls the
/// merchant also has an `…AndWait` form that returns once the merchant has answered). A cancel
/// before the confirmation request is sent ends the payment at once as a user cancellation and
/// nothing is ever confirmed; while a confirmation is in flight the cancel waits for its real
/// outcome (spec P5).
public final class PayContext: Sendable {
    @usableFromInline package typealias Machine = PayContextStateMachine

    @usableFromInline package typealias CompletionsBox = MerchantBox<any PayContextDelegate>
    @usableFromInline package typealias AsyncBox = MerchantBox<any AsyncPayContextDelegate>

    /// The engine. (Unchecked: a runner is a `ManagedBuffer`, which cannot be `Sendable`; it keeps
    /// its state under its own lock, see ``FlowRunner``.)
    @usableFromInline package nonisolated(unsafe) let runner: FlowRunner<Machine>
    /// The authorization sheet this context drives.
    public let sheet: PaymentAuthorizationFlow
    /// The backend the context talks to.
    public let backend: any PaymentBackend
    private let bridge: SheetBridge
    private let defaultWillComplete = LockedValue(false)

    /// A pay context for `request` (spec P1).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/invalidRequest``
    ///   listing every problem of the request (spec A1, and Stripe's: a merchant identifier, a
    ///   grand total of zero or more). Stripe returns nil without a reason.
    public convenience init(
        request: PaymentRequest,
        backend: any PaymentBackend,
        delegate: some PayContextDelegate,
        options: FlowOptions = FlowOptions()
    ) throws {
        try self.init(request, backend, MerchantHold(completions: CompletionsBox(delegate)), options)
    }

    /// A pay context driving an async delegate.
    public convenience init(
        request: PaymentRequest,
        backend: any PaymentBackend,
        delegate: some AsyncPayContextDelegate,
        options: FlowOptions = FlowOptions()
    ) throws {
        try self.init(request, backend, MerchantHold(async: AsyncBox(delegate)), options)
    }

    /// A pay context driving a delegate that implements both forms: the completion-handler form
    /// wins.
    public convenience init(
        request: PaymentRequest,
        backend: any PaymentBackend,
        delegate: some PayContextDelegate & AsyncPayContextDelegate,
        options: FlowOptions = FlowOptions()
    ) throws {
        try self.init(request, backend, MerchantHold(completions: CompletionsBox(delegate)), options)
    }

    private init(
        _ request: PaymentRequest, _ backend: any PaymentBackend, _ delegate: MerchantHold, _ options: FlowOptions
    )
        throws
    {
        do {
            try request.validate()
        } catch {
            // The hold was taken for a runner that will not be made: let go of here (spec E5).
            delegate.release()
            throw error
        }
        self.backend = backend
        self.runner = FlowRunner.make(
            machine: Machine(options: options), merchant: delegate, options: options, tracksActivity: true)
        let bridge = SheetBridge()
        self.bridge = bridge
        // The sheet is part of the context: its end is not the context's.
        var sheetOptions = options
        sheetOptions.onEnd = nil
        self.sheet = PaymentAuthorizationFlow(
            request, MerchantHold(completions: PaymentAuthorizationMerchantBox(bridge)), sheetOptions,
            authorizationIsTimed: false)
        bridge.context.withLock { $0.value = self }
    }

    // MARK: State

    /// How the payment ended, once `didComplete` has been called.
    public var outcome: PayContextOutcome? { runner.hasDeliveredTerminal ? runner.read(\.outcome) : nil }

    /// The record of the payment: the sheet's events, the backend calls, the merchant's callbacks
    /// and the outcome, in the order they happened.
    public var transcript: Transcript { Transcript.payContext(sheet: sheet.transcript, context: contextTranscript) }

    /// The transcript, the merchant's answers described by `describer`.
    package func transcript(describingAnswersWith describer: any AnswerDescriber) -> Transcript {
        Transcript.payContext(
            sheet: sheet.transcript(describingAnswersWith: describer),
            context: runner.read { $0.log.transcript(describingAnswersWith: describer) })
    }

    /// The pay context's own record, without its sheet's events.
    package var contextTranscript: Transcript { runner.read(\.log.transcript) }

    /// Every violation of the merchant's callbacks: the pay context's own and those forwarded
    /// from the sheet, in order (numbered as ``transcript`` numbers them).
    public var violations: [Violation] { outline.violations }

    /// ``transcript`` with the merchant's answers and deferred values left out (`FlowLog.outline`): the calls and
    /// violations, read without describing the answers.
    private var outline: Transcript { Transcript.payContext(sheet: sheet.outline, context: contextOutline) }

    /// ``contextTranscript`` with the merchant's answers and deferred values left out (`FlowLog.outline`).
    package var contextOutline: Transcript { runner.read(\.log.outline) }

    /// The methods of ``PayContextDelegate`` the merchant's delegate received, in order: the
    /// forwarded sheet callbacks, `didCreatePaymentMethod`, `willComplete` and `didComplete`;
    /// not the backend's calls nor the sheet's own.
    public var delegateCalls: [String] {
        outline.delegateCalls.filter { Self.merchantMethods.contains($0) }
    }

    private static let merchantMethods = Set(PayContextCallback.methods.map(\.name))

    // MARK: Driver

    // The sheet's actions that lead to a callback, and their `…AndWait` forms, are taken on the
    // sheet (PayContext+Driver.swift, from the sheet's declarations).

    /// Presents the sheet once (spec P1, P6); refused with `alreadyPresented` or `finished`, and
    /// then no delegate method is called.
    @discardableResult
    public func present() -> DriverResponse { runner.send(self) { $0.present(at: $1) } }

    /// The customer cancels (spec P5).
    @discardableResult
    public func cancel() -> DriverResponse { runner.send(self) { $0.cancel(at: $1) } }

    // MARK: Async driver

    /// Cancels and returns once `didComplete` has returned, with the outcome (spec P5: during a
    /// confirmation, its real outcome).
    ///
    /// - Throws: ``/CheckoutFlows/Refusal`` when refused.
    @discardableResult
    public func cancelAndWait() async throws -> PayContextOutcome {
        if case .refused(let refusal) = cancel() { throw refusal }
        return await waitUntilEnded()
    }

    /// Waits until `didComplete` has returned, and gives the outcome.
    @discardableResult
    public func waitUntilEnded() async -> PayContextOutcome {
        await runner.waitForEnd()
        guard let outcome = runner.read(\.outcome) else { preconditionFailure("the payment ended without an outcome") }
        return outcome
    }

    /// Returns once no backend call or async delegate method of this context is in flight: the
    /// context then waits for the customer, the merchant's completion handler, or nothing.
    public func waitUntilIdle() async {
        await runner.waitUntilIdle()
    }

    /// Records that the default `willComplete` answered (spec A9).
    package func noteDefaultWillComplete() {
        defaultWillComplete.withLock { $0 = true }
    }
}

extension PayContext: CheckoutFlow {}

extension PayContext: FlowShell {
    @usableFromInline package func perform(_ call: Machine.Call, on delegate: MerchantHold) {
        switch call {
        case .presentSheet:
            sheet.present()
        case .createPaymentMethod(let payment, let round):
            let backend = backend
            runner.activity.task { [self] in
                let result: Result<StripePaymentMethod, any Error>
                do { result = .success(try await backend.createPaymentMethod(from: payment)) } catch {
                    result = .failure(error)
                }
                runner.send(self) { $0.paymentMethodCreated(round, result, at: $1) }
            }
        case .didCreatePaymentMethod(let method, let payment, let id):
            let intent = Completion(id: id, shell: self)
            let completion: @Sendable (IntentAnswer) -> Void = {
                intent.complete($0) { context, id, first, answer in
                    context.runner.send(context) { $0.intentAnswered(id, first: first, answer, at: $1) }
                }
            }
            ask(
                delegate,
                async: {
                    completion(await $0.payContext(self, didCreatePaymentMethod: method, paymentInformation: payment))
                },
                completions: {
                    $0.payContext(
                        self, didCreatePaymentMethod: method, paymentInformation: payment, completion: completion)
                })
        case .retrieveIntent(let secret, let round):
            let backend = backend
            runner.activity.task { [self] in
                let result: Result<StripeIntent, any Error>
                do { result = .success(try await backend.retrieveIntent(secret)) } catch { result = .failure(error) }
                runner.send(self) { $0.intentRetrieved(round, result, at: $1) }
            }
        case .confirmIntent(let secret, let paymentMethodID, let shipping, let round):
            let backend = backend
            runner.activity.task { [self] in
                let result: Result<StripeIntent, any Error>
                do {
                    result = .success(
                        try await backend.confirmIntent(secret, paymentMethodID: paymentMethodID, shipping: shipping))
                } catch {
                    result = .failure(error)
                }
                runner.send(self) { $0.intentConfirmed(round, result, at: $1) }
            }
        case .willComplete(let result, let id):
            defaultWillComplete.withLock { $0 = false }
            let willComplete = Completion(id: id, shell: self)
            let handler: @Sendable (PaymentAuthorizationResult) -> Void = {
                willComplete.complete($0) { context, id, first, adjusted in
                    let byDefault = context.defaultWillComplete.withLock { flag in
                        defer { flag = false }
                        return flag
                    }
                    context.runner.send(context) {
                        $0.willCompleteAnswered(id, first: first, adjusted, byDefault: byDefault, at: $1)
                    }
                }
            }
            ask(
                delegate,
                async: { handler(await $0.payContext(self, willCompleteWith: result)) },
                completions: { $0.payContext(self, willCompleteWith: result, handler: handler) })
        case .answerSheet(let result, let handler, let dismiss):
            handler(result)
            if dismiss { sheet.cancel() }
        case .dismissSheet:
            sheet.cancel()
        case .didComplete(let status, let error):
            if delegate.isAsync {
                delegate.borrow(as: AsyncBox.self) {
                    $0.merchant.payContext(self, didCompleteWith: status, error: error)
                }
            } else {
                delegate.borrow(as: CompletionsBox.self) {
                    $0.merchant.payContext(self, didCompleteWith: status, error: error)
                }
            }
            runner.terminalCallReturned()
        }
    }

    /// Asks the merchant where it is held: an async merchant in a task the context tracks, a
    /// completion-handler merchant borrowed in place (the runner's hold outlives the call).
    private func ask(
        _ delegate: MerchantHold,
        async: @escaping @Sendable (any AsyncPayContextDelegate) async -> Void,
        completions: (any PayContextDelegate) -> Void
    ) {
        if delegate.isAsync {
            let merchant = delegate.strong(as: AsyncBox.self).merchant
            runner.activity.task { await async(merchant) }
        } else {
            delegate.borrow(as: CompletionsBox.self) { completions($0.merchant) }
        }
    }

    // MARK: The sheet's delegate

    fileprivate func sheetAuthorized(
        _ payment: Payment, _ handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        // The sheet is calling its delegate now: its outstanding callback is this one.
        let sheetCallbackID = sheet.runner.read { $0.pending?.id }
        runner.send(self) {
            $0.authorizationRequested(payment, handler: handler, sheetCallbackID: sheetCallbackID, at: $1)
        }
    }

    fileprivate func sheetFinished(_ outcome: PaymentAuthorizationOutcome?) {
        runner.send(self) { $0.sheetDismissed(outcome, at: $1) }
    }

    /// Forwards an optional callback of the sheet to the merchant (spec P2); the sheet's handler,
    /// with its exactly-once gate and deadline, is the merchant's. A context already gone (the sheet
    /// outlived it) answers as the protocol's default would.
    fileprivate func forward(_ callback: PayContextCallback, sheetDefault: () -> Void) {
        // Kept alive for the call (`withMerchant`): the drainer may let go of it meanwhile.
        runner.withMerchant { merchant in
            guard let merchant else { return sheetDefault() }
            if merchant.isAsync {
                let delegate = merchant.strong(as: AsyncBox.self).merchant
                callback.deliver(to: delegate, context: self, start: runner.activity.task)
            } else {
                merchant.borrow(as: CompletionsBox.self) { callback.deliver(to: $0.merchant, context: self) }
            }
        }
    }
}

/// The pay context's side of its sheet: the authorization flow's delegate. It holds the context
/// weakly, so that a context that is never presented is not kept alive by its own sheet.
///
/// Every callback of the sheet is handled here (spec E11): the authorization and the sheet's end
/// go to the context, the optional callbacks to the merchant's ``PayContextDelegate``. Stripe's
/// delegate has no card callback, so `didSelectPaymentMethod` is answered here, as the protocol's
/// default answers it, and the sheet's transcript says a default answered.
private final class SheetBridge: PaymentAuthorizationForwarding {
    struct WeakContext {
        weak var value: PayContext?
    }

    let context = LockedValue(WeakContext())

    private var owner: PayContext? { context.withLock { $0.value } }

    func forward(_ callback: PaymentAuthorizationCallback, flow: PaymentAuthorizationFlow) {
        switch callback {
        case .didFinish:
            owner?.sheetFinished(flow.outcome)
        case .willAuthorizePayment:
            // The pay context receives the notification and has nothing to do: the sheet's
            // transcript keeps it as a call to the context (not a default answer, spec A9, which is
            // about the merchant's code).
            break
        case .didAuthorizePayment(let payment, let handler):
            owner?.sheetAuthorized(payment, handler)
        default:
            // The optional callbacks: the merchant's method of the same name answers, or, for the
            // card change Stripe's delegate does not have, the protocol's default (said so in the
            // sheet's transcript).
            guard let merchantCallback = PayContextCallback(callback) else {
                _ = callback.answerByDefault(flow: flow)
                return
            }
            forward(merchantCallback, callback, flow)
        }
    }

    /// Hands `merchantCallback` to the context's merchant, or answers the sheet's `callback` by its
    /// default when the context is gone.
    private func forward(
        _ merchantCallback: PayContextCallback, _ callback: PaymentAuthorizationCallback,
        _ flow: PaymentAuthorizationFlow
    ) {
        guard let owner else {
            _ = callback.answerByDefault(flow: flow)
            return
        }
        owner.forward(merchantCallback) { _ = callback.answerByDefault(flow: flow) }
    }
}
