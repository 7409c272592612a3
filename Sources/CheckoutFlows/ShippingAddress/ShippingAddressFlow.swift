import CheckoutCore

/// A headless `STPShippingAddressViewController`: the customer enters an address, the merchant
/// validates it and answers with shipping methods, the customer picks one; done or cancelled.
///
/// The driver's actions answer at once (``DriverResponse``); those that call the merchant also
/// have an `…AndWait` form that returns once the delegate has answered. The flow calls one delegate method at a time, never
/// while holding its lock, and exactly one terminal method (`didFinish` or `didCancel`).
///
/// ```swift
/// let flow = try ShippingAddressFlow(configuration: .init(), delegate: merchant)
/// flow.present()
/// flow.enterAddress(contact)        // merchant.didEnter(...) is called
/// flow.selectShippingMethod("express")
/// flow.done()                       // merchant.didFinishWith(...) is called
/// ```
public final class ShippingAddressFlow: Sendable {
    @usableFromInline package typealias Machine = ShippingAddressStateMachine

    @usableFromInline package typealias CompletionsBox = CompletionsMerchantBox<ShippingAddressFlow>
    @usableFromInline package typealias AsyncBox = MerchantBox<any AsyncShippingAddressDelegate>

    /// The engine. (Unchecked: a runner is a `ManagedBuffer`, which cannot be `Sendable`; it keeps
    /// its state under its own lock, see ``FlowRunner``.)
    @usableFromInline package nonisolated(unsafe) let runner: FlowRunner<Machine>

    /// The configuration the flow runs with. (Kept once, by the flow's state machine.)
    public var configuration: ShippingAddressConfiguration { runner.read(\.configuration) }

    /// A flow driving a completion-handler delegate.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` (``/CheckoutCore/CheckoutError/Code/invalidRequest``) for an unusable
    ///   configuration, listing every problem.
    public convenience init(
        configuration: ShippingAddressConfiguration,
        delegate: some ShippingAddressDelegate,
        options: FlowOptions = FlowOptions()
    ) throws {
        try self.init(
            configuration, MerchantHold(completions: ShippingAddressMerchantBox(delegate)), options)
    }

    /// A flow driving an async delegate.
    public convenience init(
        configuration: ShippingAddressConfiguration,
        delegate: some AsyncShippingAddressDelegate,
        options: FlowOptions = FlowOptions()
    ) throws {
        try self.init(configuration, MerchantHold(async: AsyncBox(delegate)), options)
    }

    /// A flow driving a delegate that implements both forms: the completion-handler form wins.
    public convenience init(
        configuration: ShippingAddressConfiguration,
        delegate: some ShippingAddressDelegate & AsyncShippingAddressDelegate,
        options: FlowOptions = FlowOptions()
    ) throws {
        try self.init(
            configuration, MerchantHold(completions: ShippingAddressMerchantBox(delegate)), options)
    }

    private init(_ configuration: ShippingAddressConfiguration, _ delegate: MerchantHold, _ options: FlowOptions)
        throws
    {
        let problems = configuration.problems
        guard problems.isEmpty else {
            // The hold was taken for a runner that will not be made: let go of here (spec E5).
            delegate.release()
            throw CheckoutError.combining(
                problems, code: .invalidRequest, what: "the shipping-address configuration")
        }
        self.runner = FlowRunner.make(
            machine: Machine(configuration: configuration, options: options),
            merchant: delegate,
            options: options,
            tracksActivity: delegate.isAsync
        )
    }

    // MARK: State

    /// Where the flow stands.
    public var step: ShippingAddressStep { runner.read(\.step) }

    /// How the flow ended, once it has.
    public var outcome: ShippingAddressOutcome? { runner.read(\.outcome) }

    /// The record of the flow so far (empty when transcripts are off).
    public var transcript: Transcript { runner.read(\.log.transcript) }

    /// The transcript, the merchant's answers described by `describer`.
    package func transcript(describingAnswersWith describer: any AnswerDescriber) -> Transcript {
        runner.read { $0.log.transcript(describingAnswersWith: describer) }
    }

    /// Every violation so far.
    public var violations: [Violation] { runner.read(\.log.violations) }

    /// The delegate methods the merchant's delegate received, in order (notifications included).
    public var delegateCalls: [String] { outline.delegateCalls }

    /// ``transcript`` with the merchant's answers and deferred values left out (`FlowLog.outline`): the calls and
    /// violations, read without describing the answers.
    package var outline: Transcript { runner.read(\.log.outline) }

    // MARK: Driver

    /// Shows the address step.
    @discardableResult
    public func present() -> DriverResponse { runner.send(self) { $0.present(at: $1) } }

    /// The customer enters an address and taps Next (spec S1-S3).
    @discardableResult
    public func enterAddress(_ address: Contact) -> DriverResponse {
        runner.send(self) { $0.enterAddress(address, at: $1) }
    }

    /// The customer picks a shipping method on the method step (spec S4).
    @discardableResult
    public func selectShippingMethod(_ identifier: String) -> DriverResponse {
        runner.send(self) { $0.selectShippingMethod(identifier, at: $1) }
    }

    /// Back from the method step to the address step (spec S4).
    @discardableResult
    public func back() -> DriverResponse { runner.send(self) { $0.back(at: $1) } }

    /// Finishes with the selected method (spec S4).
    @discardableResult
    public func done() -> DriverResponse { runner.send(self) { $0.done(at: $1) } }

    /// Cancels at any step, also while the merchant validates (spec S5, E3).
    @discardableResult
    public func cancel() -> DriverResponse { runner.send(self) { $0.cancel(at: $1) } }

    // MARK: Async driver

    /// Enters an address and returns the merchant's answer once it has answered, or nil when the
    /// flow finished without asking (shipping type `delivery`).
    ///
    /// - Throws: ``Refusal`` when refused; ``CallbackEnded`` when the flow was cancelled or the
    ///   callback timed out before the answer.
    @discardableResult
    public func enterAddressAndWait(_ address: Contact) async throws -> ShippingAddressValidation? {
        try await runner.sendAndWait(self) { $0.enterAddress(address, at: $1) }
    }

    /// Finishes and returns once `didFinish` has returned, with the outcome.
    ///
    /// - Throws: ``Refusal`` when refused.
    @discardableResult
    public func doneAndWait() async throws -> ShippingAddressOutcome {
        _ = try await runner.sendAndWait(self) { $0.done(at: $1) }
        return await waitUntilEnded()
    }

    /// Cancels and returns once `didCancel` has returned, with the outcome.
    ///
    /// - Throws: ``Refusal`` when refused.
    @discardableResult
    public func cancelAndWait() async throws -> ShippingAddressOutcome {
        _ = try await runner.sendAndWait(self) { $0.cancel(at: $1) }
        return await waitUntilEnded()
    }

    /// Waits until the flow has ended and its terminal delegate method has returned, and gives the
    /// outcome.
    @discardableResult
    public func waitUntilEnded() async -> ShippingAddressOutcome {
        await runner.waitForEnd()
        guard let outcome else { preconditionFailure("the flow ended without an outcome") }
        return outcome
    }

    /// Returns once no async delegate method of this flow is running: the flow then waits for the
    /// customer, for a completion the merchant holds, or for nothing.
    public func waitUntilIdle() async {
        await runner.waitUntilIdle()
    }
}

extension ShippingAddressFlow: FlowShell {
    @usableFromInline package func perform(_ call: Machine.Call, on delegate: MerchantHold) {
        guard delegate.isAsync else {
            // Called where its box holds it, borrowed: the runner's hold outlives the call.
            delegate.borrow(as: CompletionsBox.self) { $0.perform(call, of: self) }
            return
        }
        switch call {
        case .didEnterAddress(let address, let id):
            let handler = answerHandler(id)
            let merchant = delegate.strong(as: AsyncBox.self).merchant
            runner.activity.task { handler(await merchant.shippingAddressFlow(self, didEnter: address)) }
        case .didFinish(let address, let method):
            delegate.borrow(as: AsyncBox.self) {
                $0.merchant.shippingAddressFlow(self, didFinishWith: address, shippingMethod: method)
            }
            runner.terminalCallReturned()
        case .didCancel:
            delegate.borrow(as: AsyncBox.self) { $0.merchant.shippingAddressFlowDidCancel(self) }
            runner.terminalCallReturned()
        }
    }

    /// Performs `call` on a completion-handler merchant, of its own type (from its box: see
    /// ``CompletionsMerchantBox``).
    package func perform(_ call: Machine.Call, completions delegate: some ShippingAddressDelegate) {
        switch call {
        case .didEnterAddress(let address, let id):
            let completion = runner.makeCompletion(id, self)
            delegate.shippingAddressFlow(self, didEnter: address) { [completion] in
                completion.complete($0, Self.deliver)
            }
            runner.recycle(consume completion)
        case .didFinish(let address, let method):
            delegate.shippingAddressFlow(self, didFinishWith: address, shippingMethod: method)
            runner.terminalCallReturned()
        case .didCancel:
            delegate.shippingAddressFlowDidCancel(self)
            runner.terminalCallReturned()
        }
    }

    /// The completion handed to the delegate for callback `id`: exactly once (spec E2).
    private func answerHandler(_ id: UInt64) -> @Sendable (ShippingAddressValidation) -> Void {
        let completion = Completion(id: id, shell: self)
        return { completion.complete($0, Self.deliver) }
    }

    /// Takes the merchant's answer to callback `id` to the flow; `first` is false for a repeat.
    private static func deliver(
        _ flow: ShippingAddressFlow, _ id: UInt64, _ first: Bool, _ validation: ShippingAddressValidation
    ) {
        flow.runner.send(flow) { $0.answer(id, first: first, validation, at: $1) }
    }
}
