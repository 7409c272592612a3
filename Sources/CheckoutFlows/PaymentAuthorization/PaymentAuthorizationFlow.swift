import CheckoutCore

/// A headless `PKPaymentAuthorizationViewController`: the customer changes the shipping contact,
/// the shipping method, the card and the coupon, each answered by the merchant with an update,
/// then authorizes; the merchant answers with a result; the sheet finishes.
///
/// The driver's actions answer at once (``DriverResponse``); each that calls the merchant also
/// has an `…AndWait` form that returns once the delegate has answered, with what it answered. One delegate method at a time,
/// never under the flow's lock; `didFinish` exactly once, always last.
public final class PaymentAuthorizationFlow: Sendable {
    @usableFromInline package typealias Machine = PaymentAuthorizationStateMachine

    @usableFromInline package typealias CompletionsBox = CompletionsMerchantBox<PaymentAuthorizationFlow>
    @usableFromInline package typealias AsyncBox = MerchantBox<any AsyncPaymentAuthorizationDelegate>

    /// The engine. (Unchecked: a runner is a `ManagedBuffer`, which cannot be `Sendable`; it keeps
    /// its state under its own lock, see ``FlowRunner``.)
    @usableFromInline package nonisolated(unsafe) let runner: FlowRunner<Machine>

    /// The request as presented. (Kept once, by the flow's state machine.)
    public var request: PaymentRequest { runner.read(\.request) }

    /// A flow driving a completion-handler delegate, for a valid request (spec A1). PassKit's
    /// `PKPaymentAuthorizationViewController(paymentRequest:)` returns nil for an invalid request;
    /// this says why.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/invalidRequest``
    ///   listing every problem of the request (``/CheckoutCore/PaymentRequest/problems``).
    public convenience init(
        request: PaymentRequest,
        delegate: some PaymentAuthorizationDelegate,
        options: FlowOptions = FlowOptions()
    ) throws {
        try request.validate()
        self.init(request, MerchantHold(completions: PaymentAuthorizationMerchantBox(delegate)), options)
    }

    /// A flow driving an async delegate, for a valid request (spec A1).
    ///
    /// - Throws: as ``init(request:delegate:options:)-(_,PaymentAuthorizationDelegate,_)``.
    public convenience init(
        request: PaymentRequest,
        delegate: some AsyncPaymentAuthorizationDelegate,
        options: FlowOptions = FlowOptions()
    ) throws {
        try request.validate()
        self.init(request, MerchantHold(async: AsyncBox(delegate)), options)
    }

    /// A flow driving a delegate that implements both forms: the completion-handler form wins.
    ///
    /// - Throws: as ``init(request:delegate:options:)-(_,PaymentAuthorizationDelegate,_)``.
    public convenience init(
        request: PaymentRequest,
        delegate: some PaymentAuthorizationDelegate & AsyncPaymentAuthorizationDelegate,
        options: FlowOptions = FlowOptions()
    ) throws {
        try request.validate()
        self.init(request, MerchantHold(completions: PaymentAuthorizationMerchantBox(delegate)), options)
    }

    /// A flow for a request already validated (the pay context's sheet).
    package init(
        _ request: PaymentRequest,
        _ delegate: MerchantHold,
        _ options: FlowOptions,
        authorizationIsTimed: Bool = true
    ) {
        let machine = Machine(request: request, options: options, authorizationIsTimed: authorizationIsTimed)
        self.runner = FlowRunner.make(
            machine: machine, merchant: delegate, options: options, tracksActivity: delegate.isAsync)
    }

    // MARK: State

    /// Where the flow stands.
    public var step: PaymentAuthorizationStep { runner.read(\.step) }

    /// The sheet as the customer sees it, while it is shown.
    public var sheet: PaymentSheet? { runner.read(\.sheet) }

    /// How the flow ended, once it has.
    public var outcome: PaymentAuthorizationOutcome? { runner.read(\.outcome) }

    /// The record of the flow so far (empty when transcripts are off).
    public var transcript: Transcript { runner.read(\.log.transcript) }

    /// The transcript, the merchant's answers described by `describer`.
    package func transcript(describingAnswersWith describer: any AnswerDescriber) -> Transcript {
        runner.read { $0.log.transcript(describingAnswersWith: describer) }
    }

    /// Every violation so far.
    public var violations: [Violation] { runner.read(\.log.violations) }

    /// The delegate methods the merchant's delegate received, in order (notifications included;
    /// not a `willAuthorizePayment` it does not implement, whose default ran, spec A9).
    public var delegateCalls: [String] { outline.delegateCalls }

    /// ``transcript`` with the merchant's answers and deferred values left out (`FlowLog.outline`): the calls and
    /// violations, read without describing the answers.
    package var outline: Transcript { runner.read(\.log.outline) }

    // MARK: Default answers (spec A9)

    /// The summary the sheet shows now: what a default answer keeps.
    var currentSummaryItems: [SummaryItem] { sheet?.summaryItems ?? request.summaryItems }

    /// The default `willAuthorizePayment` ran (spec A9): the transcript says the merchant does not
    /// implement it. Called inside the notification, like a completion called synchronously (spec
    /// E6); a merchant that implements the method never takes this path, which costs nothing else.
    package func noteWillAuthorizePaymentNotImplemented() {
        runner.send(self) { $0.willAuthorizePaymentNotImplemented(at: $1) }
    }

    // MARK: Driver

    // The actions that lead to a callback, and their `…AndWait` forms, are declared with their
    // callbacks (PaymentAuthorizationFlow+Driver.swift).

    /// Shows the sheet (spec A1: the request was validated when the flow was made).
    @discardableResult
    public func present() -> DriverResponse { runner.send(self) { $0.present(at: $1) } }

    /// The customer cancels (spec A8, E3).
    @discardableResult
    public func cancel() -> DriverResponse { runner.send(self) { $0.cancel(at: $1) } }

    // MARK: Async driver

    /// Cancels and returns once `didFinish` has been called, with the outcome.
    ///
    /// - Throws: ``Refusal`` when refused.
    @discardableResult
    public func cancelAndWait() async throws -> PaymentAuthorizationOutcome {
        _ = try await runner.sendAndWait(self) { $0.cancel(at: $1) }
        return await waitUntilEnded()
    }

    /// Waits until the flow has ended and `didFinish` has returned, and gives the outcome.
    @discardableResult
    public func waitUntilEnded() async -> PaymentAuthorizationOutcome {
        await runner.waitForEnd()
        guard let outcome else { preconditionFailure("the flow ended without an outcome") }
        return outcome
    }

    /// Returns once no async delegate method of this flow is running: the flow then waits for the
    /// customer, for a completion the merchant holds, or for nothing. With a sync driver and an
    /// async delegate, await this between actions to make a test deterministic.
    public func waitUntilIdle() async {
        await runner.waitUntilIdle()
    }
}

extension PaymentAuthorizationFlow: FlowShell {
    @usableFromInline package func perform(_ call: Machine.Call, on delegate: MerchantHold) {
        if delegate.isAsync {
            perform(call, async: delegate.strong(as: AsyncBox.self).merchant)
        } else {
            // Called where its box holds it, borrowed: the runner's hold outlives the call.
            delegate.borrow(as: CompletionsBox.self) { $0.perform(call, of: self) }
        }
    }

    /// Performs `call` on a completion-handler merchant, of its own type (from its box: see
    /// ``CompletionsMerchantBox``): the shipping method and the authorization here, the plain
    /// callbacks and the terminal call as declared (`performDeclared`, generated).
    package func perform(_ call: Machine.Call, completions delegate: some PaymentAuthorizationDelegate) {
        switch call {
        case .didSelectShippingMethod(let methods, let index, let id):
            let completion = runner.makeCompletion(id, self)
            // Lent from the sheet's list, not copied out of it (``withLentElement(of:at:_:)``).
            withLentElement(of: methods, at: index) { method in
                delegate.paymentAuthorizationFlow(self, didSelectShippingMethod: method) { [completion] in
                    completion.complete($0) { $0.answer($1, $2, .shippingMethod($3)) }
                }
            }
            runner.recycle(consume completion)
        case .authorize(let payment, let id):
            delegate.paymentAuthorizationFlowWillAuthorizePayment(self)
            let completion = runner.makeCompletion(id, self)
            delegate.paymentAuthorizationFlow(self, didAuthorizePayment: payment) { [completion] in
                completion.complete($0) { $0.answer($1, $2, .authorization($3)) }
            }
            runner.recycle(consume completion)
        default:
            performDeclared(call, completions: delegate)
        }
    }

    private func perform(_ call: Machine.Call, async delegate: any AsyncPaymentAuthorizationDelegate) {
        switch call {
        case .didSelectShippingMethod(let methods, let index, let id):
            let completion = Completion(id: id, shell: self)
            let method = methods[index]
            runner.activity.task {
                let answer = await delegate.paymentAuthorizationFlow(self, didSelectShippingMethod: method)
                completion.complete(answer) { $0.answer($1, $2, .shippingMethod($3)) }
            }
        case .authorize(let payment, let id):
            delegate.paymentAuthorizationFlowWillAuthorizePayment(self)
            let completion = Completion(id: id, shell: self)
            runner.activity.task {
                let answer = await delegate.paymentAuthorizationFlow(self, didAuthorizePayment: payment)
                completion.complete(answer) { $0.answer($1, $2, .authorization($3)) }
            }
        default:
            performDeclared(call, async: delegate)
        }
    }

    /// The merchant called the completion of callback `id`; `first` is false for a repeated call
    /// (spec E2).
    /// Inlined into each completion, where the answer's case is known: the machine destroys
    /// what it does not keep without a switch over every case.
    @inline(__always)
    func answer(_ id: UInt64, _ first: Bool, _ answer: consuming PaymentAuthorizationAnswer) {
        runner.send(self, taking: answer) { $0.answer(id, first: first, $2, at: $1) }
    }
}
