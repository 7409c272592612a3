import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutPayContextTesting
import CheckoutStripeBackends
import CheckoutTesting
import XCTest

/// The CheckoutTesting library itself: each scripted answer, the recording delegates and
/// backend, the checks behind the assertions, and the testing options. Virtual time only.
final class CheckoutTestingTests: XCTestCase {
    private typealias F = KitFixture
    private typealias ShippingRecorder = RecordingShippingAddressDelegate
    private typealias AuthorizationRecorder = RecordingPaymentAuthorizationDelegate

    private let items = [
        SummaryItem(label: "Tea", amount: Money(minorUnits: 1_000, currency: .usd)),
        SummaryItem(label: "Tea Shop", amount: Money(minorUnits: 1_000, currency: .usd)),
    ]

    /// A presented shipping flow on `options` (strict testing options by default).
    private func shippingFlow(
        _ delegate: ShippingRecorder,
        options: FlowOptions = .testing(),
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> ShippingAddressFlow {
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate, options: options)
        XCTAssertEqual(flow.present(), .accepted, file: file, line: line)
        return flow
    }

    /// A presented authorization flow on `options` (strict testing options by default).
    private func authorizationFlow(
        _ delegate: AuthorizationRecorder,
        request: PaymentRequest = KitFixture.request(),
        options: FlowOptions = .testing(),
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> PaymentAuthorizationFlow {
        let flow = try PaymentAuthorizationFlow(request: request, delegate: delegate, options: options)
        XCTAssertEqual(flow.present(), .accepted, file: file, line: line)
        return flow
    }

    private func payRequest() -> PaymentRequest {
        PaymentRequest(
            merchantIdentifier: "merchant.com.example",
            countryCode: "US",
            currencyCode: "USD",
            requiredShippingContactFields: [.postalAddress],
            summaryItems: items
        )
    }

    private func card(_ card: StripeTestCard) -> PaymentToken {
        PaymentToken(paymentMethod: F.visa, transactionIdentifier: "tx", paymentData: card.rawValue)
    }

    // MARK: Scripted answers

    // spec S3, E6: `.answer(value)` answers inside the callback; every call is recorded in order
    // with its arguments, typed and as text, between enter and exit marks.
    func testAnswerWithAValue() throws {
        let delegate = ShippingRecorder(didEnterAddress: .answer(.valid(shippingMethods: [F.standard], selected: nil)))
        let flow = try shippingFlow(delegate)
        XCTAssertEqual(flow.enterAddress(F.jane()), .accepted)
        XCTAssertEqual(flow.step, .shippingMethod(methods: [F.standard], selected: F.standard))
        XCTAssertEqual(flow.done(), .accepted)

        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didFinish"])
        XCTAssertEqual(
            delegate.calls,
            [
                RecordedCall(method: "didEnterAddress", arguments: [F.jane().description]),
                RecordedCall(method: "didFinish", arguments: [F.jane().description, "standard"]),
            ]
        )
        XCTAssertEqual(delegate.trace, [">didEnterAddress", "<didEnterAddress", ">didFinish", "<didFinish"])
        XCTAssertEqual(delegate.didEnterAddress.arguments, [F.jane()])
        XCTAssertEqual(delegate.didEnterAddress.callCount, 1)
        XCTAssertEqual(delegate.didEnterAddress.completions.count, 1)
        XCTAssertEqual(delegate.didFinish.arguments.map(\.address), [F.jane()])
        XCTAssertEqual(delegate.didFinish.arguments.map(\.shippingMethod), [F.standard])
        XCTAssertEqual(delegate.didFinish.callCount, 1)
        XCTAssertEqual(delegate.didCancel.callCount, 0)
        XCTAssertFalse(delegate.calls[0].description.contains("Jane"), "contacts are recorded masked")
        assertNoViolations(flow)
        assertNoNesting(delegate)
        assertDelegateCalls(flow.transcript, ["didEnterAddress", "didFinish"])
    }

    // spec S3: `.answer { input in ... }` answers with what the closure makes of the input.
    func testAnswerWithAClosureOfTheInput() throws {
        let delegate = ShippingRecorder()
        delegate.didEnterAddress.fallback = .answer { address in
            address.postalAddress?.country?.code == "US" ? .valid : .invalid(message: "US only")
        }
        let flow = try shippingFlow(delegate)
        flow.enterAddress(F.sherlock())
        XCTAssertEqual(flow.step, .address(error: "US only"))
        flow.enterAddress(F.jane())
        XCTAssertEqual(flow.outcome, .finished(address: F.jane(), shippingMethod: nil))
        XCTAssertEqual(delegate.didEnterAddress.arguments, [F.sherlock(), F.jane()])
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didEnterAddress", "didFinish"])
    }

    // spec E4: `.answer(value, after:on:)` answers when the test advances the manual clock past
    // the delay, at that virtual time.
    func testAnswerAfterVirtualTime() throws {
        let clock = ManualClock()
        let delegate = ShippingRecorder(didEnterAddress: .answer(.valid, after: .seconds(5), on: clock))
        let flow = try shippingFlow(delegate, options: .testing(clock: clock))
        clock.advance(by: .seconds(1))
        flow.enterAddress(F.jane())
        XCTAssertEqual(clock.pendingDeadlines, 2, "the flow's deadline and the scripted answer")
        clock.advance(by: .seconds(5) - .milliseconds(1))
        XCTAssertEqual(flow.step, .validatingAddress)
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress"])
        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(flow.outcome, .finished(address: F.jane(), shippingMethod: nil))
        let completion = flow.transcript.entries.first {
            if case .completion = $0.event { return true }
            return false
        }
        XCTAssertEqual(completion?.time, .seconds(6))
        assertNoViolations(flow)
    }

    // spec E4, E2: an answer scripted after the deadline arrives late: the flow has timed out.
    func testAnswerAfterTheDeadlineIsLate() throws {
        let clock = ManualClock()
        let sink = KitFixture.ViolationSink()
        let delegate = AuthorizationRecorder()
        delegate.didSelectShippingContact.script(
            .answer(ShippingContactUpdate(summaryItems: items), after: .seconds(31), on: clock))
        let flow = try authorizationFlow(delegate, options: F.options(clock, sink: sink))
        flow.selectShippingContact(F.jane())
        clock.advance(by: .seconds(31))
        XCTAssertEqual(flow.outcome, .timedOut)
        XCTAssertEqual(sink.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
        XCTAssertEqual(sink.violations.map(\.time), [.seconds(30), .seconds(31)])
        XCTAssertEqual(delegate.calledMethods, ["didSelectShippingContact", "didFinish"])
    }

    // spec E6, E1: `.answerFromAnotherThread` answers from a global queue; the async driver
    // awaits each answer, and the calls still never nest.
    func testAnswerFromAnotherThread() async throws {
        let delegate = ShippingRecorder(
            didEnterAddress: .answerFromAnotherThread(.invalid(message: "later")), .answerFromAnotherThread(.valid))
        let flow = try shippingFlow(delegate)
        let first = try await flow.enterAddressAndWait(F.jane())
        XCTAssertEqual(first, .invalid(message: "later"))
        let second = try await flow.enterAddressAndWait(F.john())
        XCTAssertEqual(second, .valid)
        let outcome = await flow.waitUntilEnded()
        XCTAssertEqual(outcome, .finished(address: F.john(), shippingMethod: nil))
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didEnterAddress", "didFinish"])
        assertNoNesting(delegate)
        assertNoViolations(flow)
    }

    // spec E6: many flows whose recording delegates answer every callback from other threads.
    func testAnswersFromOtherThreadsAcrossManyFlows() async throws {
        for _ in 0..<50 {
            let delegate = AuthorizationRecorder()
            delegate.didSelectShippingContact.fallback = .answerFromAnotherThread(
                ShippingContactUpdate(summaryItems: F.summary("20.00")))
            delegate.didAuthorizePayment.fallback = .answerFromAnotherThread(.success)
            let flow = try authorizationFlow(delegate)
            _ = try await flow.selectShippingContactAndWait(F.jane())
            let result = try await flow.authorizeAndWait(F.token())
            XCTAssertEqual(result, .success)
            _ = await flow.waitUntilEnded()
            XCTAssertEqual(
                delegate.calledMethods,
                ["didSelectShippingContact", "willAuthorizePayment", "didAuthorizePayment", "didFinish"]
            )
            assertNoNesting(delegate)
            assertNoViolations(flow)
        }
    }

    // spec E2: `.answerTwice` calls the completion twice; the first answer counts, the second is
    // completionCalledTwice.
    func testAnswerTwice() throws {
        let sink = KitFixture.ViolationSink()
        let delegate = ShippingRecorder(didEnterAddress: .answerTwice(.invalid(message: "first"), then: .valid))
        let flow = try shippingFlow(delegate, options: F.options(ManualClock(), sink: sink))
        flow.enterAddress(F.jane())
        XCTAssertEqual(flow.step, .address(error: "first"))
        XCTAssertEqual(sink.violations.map(\.kind), [.completionCalledTwice])

        let sameSink = KitFixture.ViolationSink()
        let same = ShippingRecorder(didEnterAddress: .answerTwice(.valid))
        let sameFlow = try shippingFlow(same, options: F.options(ManualClock(), sink: sameSink))
        sameFlow.enterAddress(F.jane())
        XCTAssertEqual(sameFlow.outcome, .finished(address: F.jane(), shippingMethod: nil))
        XCTAssertEqual(sameSink.violations.map(\.kind), [.completionCalledTwice])
        XCTAssertEqual(same.calledMethods, ["didEnterAddress", "didFinish"])
    }

    // spec E1: `.hold` (and an unscripted call) keeps the completion; the test answers any call
    // later through `complete` or `completion(call:)`.
    func testHoldKeepsTheCompletionForTheTest() throws {
        let delegate = ShippingRecorder(didEnterAddress: .hold)
        let flow = try shippingFlow(delegate)
        flow.enterAddress(F.jane())
        XCTAssertEqual(flow.step, .validatingAddress)
        XCTAssertNotNil(delegate.didEnterAddress.completion())
        XCTAssertNotNil(delegate.didEnterAddress.completion(call: 0))
        XCTAssertNil(delegate.didEnterAddress.completion(call: 1))
        XCTAssertNil(delegate.didEnterAddress.completion(call: -1))
        delegate.didEnterAddress.complete(.invalid(message: "No"))
        XCTAssertEqual(flow.step, .address(error: "No"))

        flow.enterAddress(F.john())  // unscripted: held too
        XCTAssertEqual(flow.step, .validatingAddress)
        XCTAssertEqual(delegate.didEnterAddress.completions.count, 2)
        delegate.didEnterAddress.completion(call: 1)?(.valid)
        XCTAssertEqual(flow.outcome, .finished(address: F.john(), shippingMethod: nil))
        XCTAssertNil(ShippingRecorder().didEnterAddress.completion(), "no call, no completion")
    }

    // spec E3, E6: `.cancel` calls the flow's cancel() inside the callback; the delegate records
    // the response, and didCancel comes after the callback returned.
    func testCancelInsideTheCallback() throws {
        let delegate = ShippingRecorder(didEnterAddress: .cancel)
        let flow = try shippingFlow(delegate)
        flow.enterAddress(F.jane())
        XCTAssertEqual(delegate.cancelResponses, [.accepted])
        XCTAssertEqual(delegate.trace, [">didEnterAddress", "<didEnterAddress", ">didCancel", "<didCancel"])
        XCTAssertEqual(delegate.didCancel.callCount, 1)
        XCTAssertEqual(delegate.didEnterAddress.completions.count, 1, "the completion is kept")
        XCTAssertEqual(flow.outcome, .cancelled)
    }

    // The script is taken in order, then the fallback for every further call.
    func testScriptInOrderThenTheFallback() throws {
        let delegate = ShippingRecorder(didEnterAddress: .answer(.invalid(message: "one")))
        delegate.didEnterAddress.script(.answer(.invalid(message: "two")))
        delegate.didEnterAddress.fallback = .answer(.invalid(message: "again"))
        let flow = try shippingFlow(delegate)
        var steps: [ShippingAddressStep] = []
        for _ in 0..<4 {
            flow.enterAddress(F.jane())
            steps.append(flow.step)
        }
        XCTAssertEqual(
            steps,
            [
                .address(error: "one"), .address(error: "two"), .address(error: "again"), .address(error: "again"),
            ]
        )
        XCTAssertEqual(delegate.didEnterAddress.callCount, 4)
    }

    // MARK: Recording delegates

    // spec A2-A7: the authorization recorder implements every method and records each callback's
    // typed argument; notifications are recorded too.
    func testRecordingAuthorizationDelegateRecordsEveryCallback() throws {
        let delegate = AuthorizationRecorder()
        delegate.didSelectShippingContact.script(.answer(ShippingContactUpdate(summaryItems: F.summary("20.00"))))
        delegate.didSelectShippingMethod.script(.answer(ShippingMethodUpdate(summaryItems: F.summary("29.99"))))
        delegate.didSelectPaymentMethod.script(.answer(PaymentMethodUpdate(summaryItems: F.summary("30.00"))))
        delegate.didChangeCouponCode.script(.answer(CouponCodeUpdate(summaryItems: F.summary("25.00"))))
        delegate.didAuthorizePayment.script(.answer(.success))
        let flow = try authorizationFlow(delegate, request: F.request(supportsCouponCode: true))
        flow.selectShippingContact(F.jane())
        flow.selectShippingMethod("express")
        flow.selectPaymentMethod(F.amex)
        flow.changeCouponCode("SAVE")
        flow.authorize(F.token(F.amex))

        let expected = [
            "didSelectShippingContact", "didSelectShippingMethod", "didSelectPaymentMethod", "didChangeCouponCode",
            "willAuthorizePayment", "didAuthorizePayment", "didFinish",
        ]
        XCTAssertEqual(delegate.calledMethods, expected)
        assertDelegateCalls(flow.transcript, expected)
        XCTAssertEqual(delegate.didSelectShippingContact.arguments.map(\.isRedacted), [true])
        XCTAssertEqual(delegate.didSelectShippingMethod.arguments, [F.express])
        XCTAssertEqual(delegate.didSelectPaymentMethod.arguments, [F.amex])
        XCTAssertEqual(delegate.didChangeCouponCode.arguments, ["SAVE"])
        XCTAssertEqual(delegate.didAuthorizePayment.arguments.map(\.token), [F.token(F.amex)])
        XCTAssertEqual(delegate.willAuthorizePayment.callCount, 1)
        XCTAssertEqual(delegate.didFinish.callCount, 1)
        XCTAssertEqual(delegate.calls[3], RecordedCall(method: "didChangeCouponCode", arguments: ["SAVE"]))
        XCTAssertEqual(delegate.calls[3].description, "didChangeCouponCode(SAVE)")
        XCTAssertEqual(delegate.calls[4], RecordedCall(method: "willAuthorizePayment"))
        XCTAssertEqual(flow.outcome, delegate.didAuthorizePayment.arguments.first.map { .success($0) })
        assertNoViolations(flow)
        assertNoNesting(delegate)
    }

    // spec A9, E1, E3: unscripted optional callbacks answer at once as the protocol's defaults
    // do (no change, a default answer in the transcript); a scripted `.hold` keeps the
    // completion; unscripted didAuthorizePayment holds; `.cancel` cancels the sheet.
    func testRecordingAuthorizationDelegateDefaultsHoldsAndCancels() throws {
        let delegate = AuthorizationRecorder()
        let flow = try authorizationFlow(delegate)
        XCTAssertTrue(flow.selectShippingMethod("express").isAccepted)
        XCTAssertEqual(flow.step, .sheet, "answered at once by the default")
        XCTAssertEqual(flow.sheet?.summaryItems, F.summary("20.00"), "no change")
        XCTAssertTrue(
            flow.transcript.entries.contains {
                if case .completion("didSelectShippingMethod", _, _, byDefault: true) = $0.event { return true }
                return false
            },
            flow.transcript.text()
        )

        delegate.didSelectShippingMethod.script(.hold)
        flow.selectShippingMethod("standard")
        XCTAssertEqual(flow.step, .awaiting("didSelectShippingMethod"))
        delegate.didSelectShippingMethod.complete(ShippingMethodUpdate(summaryItems: F.summary("29.99")))
        XCTAssertEqual(flow.step, .sheet)
        XCTAssertEqual(flow.sheet?.summaryItems, F.summary("29.99"))

        flow.selectShippingContact(F.jane())
        XCTAssertEqual(flow.step, .sheet, "the default answered")
        flow.authorize(F.token())
        XCTAssertEqual(flow.step, .awaiting("didAuthorizePayment"), "a required callback holds")
        delegate.didAuthorizePayment.complete(PaymentAuthorizationResult(status: .failure))
        delegate.didAuthorizePayment.script(.cancel)
        flow.authorize(F.token())
        XCTAssertEqual(delegate.cancelResponses, [.accepted])
        XCTAssertEqual(flow.outcome, .cancelled)
        XCTAssertEqual(delegate.calledMethods.suffix(3), ["willAuthorizePayment", "didAuthorizePayment", "didFinish"])
        assertNoNesting(delegate)
        assertNoViolations(flow)
    }

    // spec E1: `holdingUnscriptedCalls` makes the optional callbacks hold too, so a test can
    // see what a driver may do while an answer is owed.
    func testHoldingUnscriptedCalls() throws {
        let delegate = AuthorizationRecorder(holdingUnscriptedCalls: true)
        let flow = try authorizationFlow(delegate)
        flow.selectShippingContact(F.jane())
        XCTAssertEqual(flow.step, .awaiting("didSelectShippingContact"))
        XCTAssertEqual(flow.selectShippingMethod("express").refusal?.code, .callbackPending)
        delegate.didSelectShippingContact.complete(ShippingContactUpdate(summaryItems: F.summary("21.00")))
        XCTAssertEqual(flow.sheet?.summaryItems, F.summary("21.00"))
        flow.selectShippingMethod("express")
        XCTAssertEqual(flow.step, .awaiting("didSelectShippingMethod"))
        flow.cancel()

        let payDelegate = RecordingPayContextDelegate(holdingUnscriptedCalls: true)
        XCTAssertEqual(payDelegate.didSelectShippingContact.callCount, 0)
        let context = try PayContext(
            request: F.request(), backend: RecordingPaymentBackend(), delegate: payDelegate, options: .testing())
        context.present()
        context.selectShippingContact(F.jane())
        XCTAssertEqual(context.sheet.step, .awaiting("didSelectShippingContact"))
        context.cancel()
    }

    // spec P3, P6, P8: the pay-context recorder and the recording backend through a whole
    // payment: the calls in order, the secret masked, didComplete after the sheet is gone.
    func testRecordingPayContextDelegateAndBackend() async throws {
        let backend = RecordingPaymentBackend()
        let secret = try backend.wrapped.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        let delegate = RecordingPayContextDelegate(
            didCreatePaymentMethod: .answer { call in
                call.paymentMethod.last4 == "4242" ? .secret(secret) : .completeWithoutConfirming
            }
        )
        delegate.didSelectShippingContact.script(.answer(ShippingContactUpdate(summaryItems: items)))
        let context = try PayContext(request: payRequest(), backend: backend, delegate: delegate, options: .testing())
        context.present()
        _ = try await context.selectShippingContactAndWait(F.jane())
        let result = try await context.authorizeAndWait(card(.success))
        XCTAssertEqual(result.status, .success)
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .success)

        XCTAssertEqual(
            delegate.calledMethods,
            ["didSelectShippingContact", "didCreatePaymentMethod", "willComplete", "didComplete"])
        XCTAssertEqual(delegate.willComplete.arguments, [.success], "unscripted willComplete passes it through")
        XCTAssertEqual(delegate.didComplete.arguments.map(\.status), [.success])
        XCTAssertNil(delegate.didComplete.arguments.first?.error)
        XCTAssertEqual(delegate.sheetEndedBeforeDidComplete, [true])
        let method = try XCTUnwrap(delegate.didCreatePaymentMethod.arguments.first)
        XCTAssertEqual(method.paymentInformation.shippingContact?.postalAddress, F.jane().postalAddress)

        XCTAssertEqual(backend.calledMethods, ["createPaymentMethod", "retrieveIntent", "confirmIntent"])
        XCTAssertEqual(backend.wrapped.confirmCount, 1)
        XCTAssertEqual(backend.calls[2].arguments[1], method.paymentMethod.id)
        let rendered = backend.calls.map(\.description).joined(separator: "\n")
        let suffix = String(secret.unmaskedValue.split(separator: "_").last!)
        XCTAssertFalse(rendered.contains(suffix), rendered)
        XCTAssertTrue(rendered.contains("\(secret.intentID)_secret_•••"), rendered)
        XCTAssertFalse(rendered.contains(StripeTestCard.success.rawValue), "the token's data is masked")
        assertNoViolations(context)
        assertNoNesting(delegate)
    }

    // spec P3, P6: the pay context's callbacks come from other threads; `waitUntilCalled` waits
    // for a held one without sleeping, and the test answers it.
    func testPayContextDelegateHeldWillCompleteAnsweredAfterWaiting() async throws {
        let backend = RecordingPaymentBackend()
        let delegate = RecordingPayContextDelegate(didCreatePaymentMethod: .answer(.completeWithoutConfirming))
        delegate.willComplete.script(.hold)
        let context = try PayContext(
            request: payRequest(), backend: backend, delegate: delegate, options: .testing(callbackTimeout: nil))
        context.present()
        delegate.didSelectShippingContact.fallback = .answer(ShippingContactUpdate(summaryItems: items))
        XCTAssertTrue(context.selectShippingContact(F.jane()).isAccepted)
        XCTAssertTrue(context.authorize(card(.success)).isAccepted)
        await delegate.waitUntilCalled("willComplete")
        XCTAssertNil(context.outcome)
        XCTAssertEqual(delegate.willComplete.arguments, [.success])
        delegate.willComplete.complete(.success)
        await delegate.waitUntilCalled("didComplete", times: 1)
        XCTAssertEqual(delegate.didComplete.arguments.map(\.status), [.success])
        XCTAssertEqual(backend.calledMethods, ["createPaymentMethod"])
        assertNoViolations(context)
    }

    // spec P5, E3: a `.cancel` answer to didCreatePaymentMethod ends the payment as a user
    // cancellation; nothing is confirmed.
    func testPayContextDelegateCancelsInsideTheCallback() async throws {
        let backend = RecordingPaymentBackend()
        let delegate = RecordingPayContextDelegate(didCreatePaymentMethod: .cancel)
        let context = try PayContext(request: payRequest(), backend: backend, delegate: delegate, options: .testing())
        context.present()
        delegate.didSelectShippingContact.fallback = .answer(ShippingContactUpdate(summaryItems: items))
        XCTAssertTrue(context.selectShippingContact(F.jane()).isAccepted)
        XCTAssertTrue(context.authorize(card(.success)).isAccepted)
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .userCancellation)
        XCTAssertEqual(delegate.cancelResponses, [.accepted])
        XCTAssertEqual(delegate.calledMethods, ["didSelectShippingContact", "didCreatePaymentMethod", "didComplete"])
        XCTAssertEqual(delegate.sheetEndedBeforeDidComplete, [true])
        XCTAssertEqual(backend.calledMethods, ["createPaymentMethod"])
        XCTAssertEqual(backend.wrapped.confirmCount, 0)
    }

    // spec P8: the recording backend records a call when it starts, so a test can wait for one
    // that the wrapped backend holds, and counts calls for `times`.
    func testRecordingBackendRecordsACallWhenItStarts() async throws {
        let inner = InMemoryStripeBackend()
        let held = F.HeldConfirmBackend(inner)
        let backend = RecordingPaymentBackend(held)
        let secret = try inner.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        let payment = Payment(token: card(.success))
        let first = try await backend.createPaymentMethod(from: payment)
        _ = try await backend.createPaymentMethod(from: payment)
        await backend.waitUntilCalled("createPaymentMethod", times: 2)
        let confirmation = Task {
            try await backend.confirmIntent(secret, paymentMethodID: first.id, shipping: nil)
        }
        await backend.waitUntilCalled("confirmIntent")
        XCTAssertEqual(backend.calledMethods, ["createPaymentMethod", "createPaymentMethod", "confirmIntent"])
        XCTAssertEqual(inner.confirmCount, 0, "held, not yet forwarded")
        held.release()
        let intent = try await confirmation.value
        XCTAssertEqual(intent.status, .succeeded)
        XCTAssertEqual(inner.confirmCount, 1)
        XCTAssertEqual(backend.calls[2].arguments, [secret.description, first.id, "nil"])
    }

    // MARK: Checks and assertions

    // The check behind assertDelegateCalls: nil when the calls match, else both lists and the
    // transcript.
    func testDelegateCallsCheck() throws {
        let flow = try shippingFlow(ShippingRecorder(didEnterAddress: .answer(.valid)))
        flow.enterAddress(F.jane())
        XCTAssertNil(FlowChecks.delegateCallsFailure(flow.transcript, ["didEnterAddress", "didFinish"]))
        assertDelegateCalls(flow.transcript, ["didEnterAddress", "didFinish"])

        let failure = try XCTUnwrap(FlowChecks.delegateCallsFailure(flow.transcript, ["didFinish"]))
        XCTAssertTrue(failure.contains(#"["didEnterAddress", "didFinish"]"#), failure)
        XCTAssertTrue(failure.contains(#"["didFinish"]"#), failure)
        XCTAssertTrue(failure.contains(flow.transcript.text()), failure)
        XCTAssertNotNil(FlowChecks.delegateCallsFailure(flow.transcript, ["didFinish", "didEnterAddress"]), "order")
        XCTAssertNotNil(FlowChecks.delegateCallsFailure(Transcript(), ["didFinish"]))
        XCTAssertNil(FlowChecks.delegateCallsFailure(Transcript(), []))
    }

    // The check behind assertNoViolations: nil without violations, else the violations and the
    // transcripts' text.
    func testViolationsCheck() throws {
        let sink = KitFixture.ViolationSink()
        let flow = try shippingFlow(
            ShippingRecorder(didEnterAddress: .answerTwice(.valid)), options: F.options(ManualClock(), sink: sink))
        flow.enterAddress(F.jane())
        let failure = try XCTUnwrap(FlowChecks.violationsFailure([flow.transcript]))
        XCTAssertTrue(failure.hasPrefix("1 violation(s): completionCalledTwice in didEnterAddress #1"), failure)
        XCTAssertTrue(failure.contains(flow.transcript.text()), failure)
        XCTAssertTrue(failure.contains("VIOLATION"), failure)

        let clean = try shippingFlow(ShippingRecorder(didEnterAddress: .answer(.valid)))
        clean.enterAddress(F.jane())
        XCTAssertNil(FlowChecks.violationsFailure([clean.transcript]))
        XCTAssertNil(FlowChecks.violationsFailure([]))
        let both = try XCTUnwrap(FlowChecks.violationsFailure([clean.transcript, flow.transcript]))
        XCTAssertTrue(both.contains(clean.transcript.text()) && both.contains(flow.transcript.text()), both)
        assertNoViolations(clean)
        assertNoViolations(clean.transcript)
    }

    // spec E6: the check behind assertNoNesting accepts only enter/exit pairs of one method.
    func testNestingCheck() {
        XCTAssertNil(FlowChecks.nestingFailure([]))
        XCTAssertNil(FlowChecks.nestingFailure([">didEnterAddress", "<didEnterAddress", ">didFinish", "<didFinish"]))
        let nested = FlowChecks.nestingFailure([">didEnterAddress", ">didFinish", "<didFinish", "<didEnterAddress"])
        XCTAssertEqual(
            nested,
            "a delegate call nested in or overlapped didEnterAddress at mark 1, in "
                + #"[">didEnterAddress", ">didFinish", "<didFinish", "<didEnterAddress"]"#
        )
        XCTAssertEqual(FlowChecks.nestingFailure([">didFinish"]), #"didFinish has not returned, in [">didFinish"]"#)
        XCTAssertEqual(
            FlowChecks.nestingFailure(["<didFinish", ">didFinish"]),
            #"mark 0 (<didFinish) should enter a method, in ["<didFinish", ">didFinish"]"#
        )
        XCTAssertNotNil(FlowChecks.nestingFailure([">didEnterAddress", "<didFinish"]))
    }

    // spec E2, E4: the testing options: the given manual clock, a 30 s deadline unless said
    // otherwise, transcripts on, a violation observer and an end observer, and the messages.
    func testTestingOptions() {
        let clock = ManualClock()
        let options = FlowOptions.testing(clock: clock)
        XCTAssertTrue(options.clock as? ManualClock === clock)
        XCTAssertNotNil(options.onEnd)
        XCTAssertEqual(options.callbackTimeout, .seconds(30))
        XCTAssertTrue(options.recordsTranscript)
        XCTAssertNotNil(options.onViolation)
        XCTAssertNil(FlowOptions.testing(callbackTimeout: nil).callbackTimeout)
        XCTAssertTrue(FlowOptions.testing().clock is ManualClock)

        let violation = Violation(
            kind: .lateCompletion, callback: "didEnterAddress", callbackID: 2, time: .seconds(3), detail: "")
        XCTAssertEqual(
            FlowChecks.violationFailure(violation), "contract violation: lateCompletion in didEnterAddress #2 at 3s")
        XCTAssertEqual(
            FlowChecks.missingViolationFailure(.completionTimedOut),
            "expected violation completionTimedOut did not happen before the flow ended")
    }
}
