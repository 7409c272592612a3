import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutPayContextTesting
import CheckoutStripeBackends
import CheckoutTesting
import XCTest

/// Small, exact gaps between the flows and the platforms they model (PassKit, stripe-ios): what a
/// failed result carries (P4), the sheet's deadline during a confirmation (E4, P5).
final class PlatformGapTests: XCTestCase {
    typealias F = FlowsFixture

    let payment = Payment(
        token: PaymentToken(
            paymentMethod: PaymentMethod(network: .visa), transactionIdentifier: "t", paymentData: "4242")
    )

    let decline = StripeError(
        type: "card_error", code: "card_declined", declineCode: "insufficient_funds",
        message: "Your card has insufficient funds.")

    /// Drives a machine to the point where its confirmation is in flight; returns the round id.
    func confirming(_ machine: inout PayContextStateMachine, sheetCallbackID: UInt64 = 7) throws -> UInt64 {
        _ = machine.present(at: .zero)
        guard
            case .call(.createPaymentMethod(_, let round)) = machine.authorizationRequested(
                payment, handler: { _ in }, sheetCallbackID: sheetCallbackID, at: .zero)
        else { throw Failure("no backend call") }
        let method = StripePaymentMethod(id: "pm_1", brand: "visa", last4: "4242")
        guard
            case .call(.didCreatePaymentMethod(_, _, let id)) = machine.paymentMethodCreated(
                round, .success(method), at: .zero)
        else { throw Failure("no didCreatePaymentMethod") }
        guard
            case .call(.retrieveIntent) = machine.intentAnswered(
                id, first: true, .clientSecret("pi_1_secret_a"), at: .zero)
        else { throw Failure("no retrieve") }
        let intent = StripeIntent(id: "pi_1", kind: .paymentIntent, status: .requiresPaymentMethod)
        guard case .call(.confirmIntent) = machine.intentRetrieved(round, .success(intent), at: .zero)
        else { throw Failure("no confirm") }
        return round
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    struct MerchantServerDown: Error, CustomStringConvertible {
        var description: String { "the merchant's server is down" }
    }

    // MARK: P4: the failed result carries the error

    // spec P4: a card error other than incorrect_zip reaches willComplete and the sheet as the
    // result's error, Stripe's error unchanged; the sheet is closed (no retry).
    func testADeclineIsTheFailedResultsError() throws {
        var machine = PayContextStateMachine(options: FlowOptions(callbackTimeout: nil, clock: ManualClock()))
        let round = try confirming(&machine)
        guard
            case .call(.willComplete(let result, let id)) = machine.intentConfirmed(round, .failure(decline), at: .zero)
        else { return XCTFail("no willComplete") }
        XCTAssertEqual(result.status, .failure)
        XCTAssertEqual(result.errors, [PaymentError(code: .unknown, message: decline.description)])
        XCTAssertEqual(
            result.errors.first?.message,
            "card_error/card_declined/insufficient_funds: Your card has insufficient funds.")
        guard
            case .call(.answerSheet(let shown, _, let dismiss)) = machine.willCompleteAnswered(
                id, first: true, result, byDefault: true, at: .zero)
        else { return XCTFail("the sheet was not answered") }
        XCTAssertEqual(shown, result, "the sheet gets the result with the error")
        XCTAssertTrue(dismiss, "spec P4: other errors end the sheet, no retry")
        guard case .call(.didComplete(let status, let error)) = machine.sheetDismissed(.cancelled, at: .zero)
        else { return XCTFail("no didComplete") }
        XCTAssertEqual(status, .error)
        XCTAssertEqual(error as? StripeError, decline)
    }

    // spec P4: incorrect_zip stays the billing postal code error, for a retry: the contrast.
    func testIncorrectZIPStaysARetry() throws {
        var machine = PayContextStateMachine(options: FlowOptions(callbackTimeout: nil, clock: ManualClock()))
        let round = try confirming(&machine)
        let zip = StripeError(type: "card_error", code: "incorrect_zip", message: "Your card's ZIP code is incorrect.")
        guard case .call(.willComplete(let result, let id)) = machine.intentConfirmed(round, .failure(zip), at: .zero)
        else { return XCTFail("no willComplete") }
        XCTAssertEqual(result.errors.map(\.code), [.billingContactInvalid])
        guard
            case .call(.answerSheet(_, _, let dismiss)) = machine.willCompleteAnswered(
                id, first: true, result, byDefault: true, at: .zero)
        else { return XCTFail("the sheet was not answered") }
        XCTAssertFalse(dismiss)
    }

    // spec P4: every backend error that ends the payment is in the result, resource_missing too;
    // a merchant's PaymentError is carried as it is, any other error by its description.
    func testEveryEndingErrorIsInTheResult() throws {
        // resource_missing from retrieving the intent.
        var machine = PayContextStateMachine(options: FlowOptions(callbackTimeout: nil, clock: ManualClock()))
        _ = machine.present(at: .zero)
        guard
            case .call(.createPaymentMethod(_, let round)) = machine.authorizationRequested(
                payment, handler: { _ in }, at: .zero)
        else { return XCTFail("no backend call") }
        let method = StripePaymentMethod(id: "pm_1", brand: "visa", last4: "4242")
        guard
            case .call(.didCreatePaymentMethod(_, _, let id)) = machine.paymentMethodCreated(
                round, .success(method), at: .zero)
        else { return XCTFail("no didCreatePaymentMethod") }
        _ = machine.intentAnswered(id, first: true, .clientSecret("pi_9_secret_a"), at: .zero)
        let missing = StripeError(
            type: "invalid_request_error", code: "resource_missing", message: "No such payment_intent: 'pi_9'")
        guard case .call(.willComplete(let result, _)) = machine.intentRetrieved(round, .failure(missing), at: .zero)
        else { return XCTFail("no willComplete") }
        XCTAssertEqual(result, PaymentAuthorizationResult(status: .failure, errors: [.unknown(missing.description)]))

        // The merchant's errors, answering didCreatePaymentMethod.
        let own = PaymentError.shippingAddressUnserviceable("We do not ship there")
        let cases: [(any Error, PaymentError)] = [
            (own, own), (MerchantServerDown(), .unknown("the merchant's server is down")),
        ]
        for (error, expected) in cases {
            var machine = PayContextStateMachine(options: FlowOptions(callbackTimeout: nil, clock: ManualClock()))
            _ = machine.present(at: .zero)
            guard
                case .call(.createPaymentMethod(_, let round)) = machine.authorizationRequested(
                    payment, handler: { _ in }, at: .zero)
            else { return XCTFail("no backend call") }
            guard
                case .call(.didCreatePaymentMethod(_, _, let id)) = machine.paymentMethodCreated(
                    round, .success(method), at: .zero)
            else { return XCTFail("no didCreatePaymentMethod") }
            guard
                case .call(.willComplete(let result, _)) = machine.intentAnswered(
                    id, first: true, .failure(error), at: .zero)
            else { return XCTFail("no willComplete") }
            XCTAssertEqual(result.errors, [expected], "\(error)")
        }
    }

    // spec P4, E8: through the shell, willComplete, the sheet's answer and the transcript say why.
    func testTheMerchantTheSheetAndTheTranscriptSeeTheDecline() async throws {
        let backend = InMemoryStripeBackend()
        let secret = try backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        let merchant = RecordingPayContextDelegate(didCreatePaymentMethod: .answer(.secret(secret)))
        let context = try PayContext(
            request: F.request(requiredShipping: []), backend: backend, delegate: merchant,
            options: FlowOptions(callbackTimeout: nil))
        context.present()
        let token = PaymentToken(
            paymentMethod: F.visa, transactionIdentifier: "tx", paymentData: StripeTestCard.insufficientFunds.rawValue)
        let shown = try await context.authorizeAndWait(token)
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .error)
        let expected = PaymentError.unknown(
            "card_error/card_declined/insufficient_funds: Your card has insufficient funds.")
        XCTAssertEqual(merchant.willComplete.arguments.map(\.errors), [[expected]])
        XCTAssertEqual(shown.errors, [expected])
        let text = context.transcript.text()
        XCTAssertTrue(text.contains("willComplete #6 (failure, errors: [\(expected)])"), text)
        XCTAssertTrue(
            text.contains("didAuthorizePayment #1 → PaymentAuthorizationResult(failure, errors: [\(expected)])"), text)
        // spec E8: the sheet's answer comes from the pay context, not from the merchant.
        let answer = context.transcript.entries.first {
            if case .completion("didAuthorizePayment", _, _, _) = $0.event { return true }
            return false
        }
        XCTAssertEqual(answer?.actor, .flow)
    }

    // MARK: E4, P5: the sheet's deadline during a confirmation

    // spec E4, P5: the deadline passing during the confirmation records completionTimedOut of the
    // sheet's didAuthorizePayment at the deadline; the flow still waits for the real outcome.
    func testTheDeadlineDuringTheConfirmationIsATimeout() throws {
        var machine = PayContextStateMachine(options: FlowOptions(callbackTimeout: .seconds(30), clock: ManualClock()))
        let round = try confirming(&machine, sheetCallbackID: 7)
        guard case .none = machine.deadlinePassed(round, at: .seconds(30)) else {
            return XCTFail("the deadline ended the payment during its confirmation")
        }
        XCTAssertEqual(machine.log.violations.map(\.kind), [.completionTimedOut])
        XCTAssertEqual(machine.log.violations.first?.callback, "didAuthorizePayment")
        XCTAssertEqual(machine.log.violations.first?.callbackID, 7, "the sheet's call")
        XCTAssertEqual(machine.log.violations.first?.time, .seconds(30))
        let confirmed = StripeIntent(id: "pi_1", kind: .paymentIntent, status: .succeeded)
        guard
            case .call(.answerSheet(let result, _, _)) = machine.intentConfirmed(
                round, .success(confirmed), at: .seconds(31))
        else { return XCTFail("the confirmation's outcome did not reach the sheet") }
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(machine.log.violations.count, 1)
    }

    // spec E4, P5: the merchant's observer (strict mode's hook) sees the timeout at the deadline,
    // naming the sheet's didAuthorizePayment call; the payment's real outcome follows.
    func testTheObserverSeesTheTimeoutDuringTheConfirmation() async throws {
        let clock = ManualClock()
        let inner = InMemoryStripeBackend()
        let held = HeldConfirmBackend(inner)
        let backend = RecordingPaymentBackend(held)
        let secret = try inner.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        let merchant = RecordingPayContextDelegate(didCreatePaymentMethod: .answer(.secret(secret)))
        let sink = F.ViolationSink()
        let context = try PayContext(
            request: F.request(requiredShipping: []), backend: backend, delegate: merchant,
            options: F.options(clock, timeout: .seconds(30), sink: sink))
        context.present()
        XCTAssertTrue(context.authorize(F.token()).isAccepted)
        await backend.waitUntilCalled("confirmIntent")
        XCTAssertEqual(sink.violations, [])
        clock.advance(by: .seconds(30))
        // The drain that started the confirmation may still be on its way out on the backend's
        // thread; it then reports the violation, a moment later.
        let reported = await sink.waitFor(1)
        XCTAssertEqual(reported.map(\.kind), [.completionTimedOut])
        XCTAssertEqual(sink.violations.first?.callback, "didAuthorizePayment")
        XCTAssertEqual(sink.violations.first?.time, .seconds(30))
        XCTAssertTrue(sink.violations.first?.kind.isDelegateFault ?? false, "strict mode reports it")
        let sheetCall = context.sheet.transcript.entries.compactMap { entry -> UInt64? in
            if case .call("didAuthorizePayment", let id, _) = entry.event { return id }
            return nil
        }
        XCTAssertEqual(sheetCall, sink.violations.map(\.callbackID), "the violation names the sheet's call")
        XCTAssertNil(context.outcome)
        held.release()
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .success, "spec P5: the real outcome")
        XCTAssertEqual(context.violations.map(\.kind), [.completionTimedOut])
    }
}

/// Spec A9: a `willAuthorizePayment` the merchant does not implement is marked as a default answer
/// ("not implemented") and is not one of the delegate calls.
final class UnimplementedNotificationTests: XCTestCase {
    typealias F = FlowsFixture

    struct Minimal: PaymentAuthorizationDelegate {
        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}
        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) { handler(.success) }
    }

    struct MinimalAsync: AsyncPaymentAuthorizationDelegate {
        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}
        func paymentAuthorizationFlow(_ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment) async
            -> PaymentAuthorizationResult
        { .success }
    }

    /// The sheet's `willAuthorizePayment` entries, rendered as text.
    func willAuthorizeLines(_ transcript: Transcript) -> [String] {
        transcript.text().split(separator: "\n").map(String.init).filter { $0.contains("willAuthorizePayment") }
    }

    // spec A9: the machine amends the notification's entry in place (its time and sequence
    // number stay) once the shell says the default ran; once the flow has ended, it changes
    // nothing.
    func testTheMachineMarksTheNotificationNotImplemented() {
        var machine = PaymentAuthorizationStateMachine(
            request: F.request(requiredShipping: []), options: FlowOptions(callbackTimeout: nil, clock: ManualClock()))
        _ = machine.present(at: .zero)
        guard case .authorize(_, let id) = F.call(machine.authorize(F.token(), billingContact: nil, at: .seconds(1)))
        else { return XCTFail("no authorization call") }
        let before = machine.log.transcript
        XCTAssertEqual(before.delegateCalls, ["willAuthorizePayment", "didAuthorizePayment"])
        XCTAssertTrue(F.isNone(machine.willAuthorizePaymentNotImplemented(at: .seconds(2))))
        let after = machine.log.transcript
        XCTAssertEqual(
            F.kinds(after),
            [
                "action:present", "action:authorize", "completion:willAuthorizePayment:default",
                "call:didAuthorizePayment",
            ])
        XCTAssertEqual(after.delegateCalls, ["didAuthorizePayment"])
        XCTAssertEqual(after.entries.map(\.time), before.entries.map(\.time))
        XCTAssertEqual(after.entries.map(\.sequence), before.entries.map(\.sequence))
        XCTAssertEqual(
            after.entries[2].event,
            .completion("willAuthorizePayment", callbackID: id, [.text("not implemented")], byDefault: true))
        XCTAssertEqual(machine.step, .awaiting("didAuthorizePayment"), "nothing else changes")

        // A PIN re-entry's notification is judged on its own; after the end, nothing changes.
        _ = machine.answer(id, first: true, .authorization(PaymentAuthorizationResult(status: .pinRequired)), at: .zero)
        _ = machine.authorize(F.token(), billingContact: nil, at: .seconds(3))
        XCTAssertEqual(machine.log.transcript.delegateCalls.suffix(2), ["willAuthorizePayment", "didAuthorizePayment"])
        _ = machine.cancel(at: .seconds(4))
        let ended = machine.log.transcript
        XCTAssertTrue(F.isNone(machine.willAuthorizePaymentNotImplemented(at: .seconds(5))))
        XCTAssertEqual(machine.log.transcript, ended)
    }

    // spec A9: through the shell, for both kinds of delegate: the delegate calls are the ones the
    // merchant's code received, and the transcript says the notification is not implemented.
    func testAnUnimplementedNotificationIsNotADelegateCall() async throws {
        let request = F.request(requiredShipping: [])
        let flows = [
            try PaymentAuthorizationFlow(request: request, delegate: Minimal()),
            try PaymentAuthorizationFlow(request: request, delegate: MinimalAsync()),
        ]
        for flow in flows {
            flow.present()
            _ = try await flow.authorizeAndWait(F.token())
            let outcome = await flow.waitUntilEnded()
            XCTAssertEqual(outcome.description, "success")
            XCTAssertEqual(flow.delegateCalls, ["didAuthorizePayment", "didFinish"])
            XCTAssertEqual(flow.transcript.delegateCalls, ["didAuthorizePayment", "didFinish"])
            let lines = willAuthorizeLines(flow.transcript)
            XCTAssertEqual(lines.count, 1)
            XCTAssertTrue(
                lines.first?.hasSuffix("willAuthorizePayment #1 [default answer] → not implemented")
                    ?? false,
                "\(lines)")
            let json = F.jsonObjects(flow.transcript.json()).filter {
                $0["method"] as? String == "willAuthorizePayment"
            }
            XCTAssertEqual(json.count, 1)
            XCTAssertEqual(json.first?["kind"] as? String, "completion")
            XCTAssertEqual(json.first?["byDefault"] as? Bool, true)
        }
    }

    // spec A9: a merchant that implements the notification still receives it as a call, and each
    // PIN re-entry's notification is judged on its own.
    func testAnImplementedNotificationStaysACall() async throws {
        let delegate = RecordingPaymentAuthorizationDelegate()
        delegate.didAuthorizePayment.script(.answer(PaymentAuthorizationResult(status: .failure)))
        delegate.didAuthorizePayment.script(.answer(.success))
        let flow = try PaymentAuthorizationFlow(request: F.request(requiredShipping: []), delegate: delegate)
        flow.present()
        _ = try await flow.authorizeAndWait(F.token())
        _ = try await flow.authorizeAndWait(F.token())
        await flow.waitUntilEnded()
        XCTAssertEqual(
            flow.delegateCalls,
            ["willAuthorizePayment", "didAuthorizePayment", "willAuthorizePayment", "didAuthorizePayment", "didFinish"])
        XCTAssertEqual(delegate.willAuthorizePayment.callCount, 2)
        XCTAssertFalse(flow.transcript.text().contains("not implemented"))
    }

    // spec A9, P2: the pay context receives its sheet's notification (no default answer there);
    // the merchant's delegate calls are unchanged.
    func testThePayContextReceivesItsSheetsNotification() async throws {
        let backend = InMemoryStripeBackend()
        let merchant = RecordingPayContextDelegate(didCreatePaymentMethod: .answer(.completeWithoutConfirming))
        let context = try PayContext(
            request: F.request(requiredShipping: []), backend: backend, delegate: merchant,
            options: FlowOptions(callbackTimeout: nil))
        context.present()
        let token = PaymentToken(
            paymentMethod: F.visa, transactionIdentifier: "tx", paymentData: StripeTestCard.success.rawValue)
        _ = try await context.authorizeAndWait(token)
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(context.delegateCalls, ["didCreatePaymentMethod", "willComplete", "didComplete"])
        XCTAssertTrue(context.sheet.delegateCalls.contains("willAuthorizePayment"))
        XCTAssertFalse(context.transcript.text().contains("not implemented"))
    }

    // The amendment finds the latest call of the method, also in an older chunk of a long log
    // (192 records a chunk: the call amended, record 255, is in the second of four), and keeps its
    // time and sequence number.
    func testAnAmendmentReachesOlderChunks() {
        var log = FlowLog(recordsTranscript: true)
        log.record(.call("n", callbackID: nil, []), at: .zero)
        for index in 1..<255 { log.record(.action("a\(index)", []), at: .seconds(Int64(index))) }
        log.record(.call("n", callbackID: nil, []), at: .seconds(255))
        for index in 256..<600 { log.record(.action("a\(index)", []), at: .seconds(Int64(index))) }
        let before = log.transcript
        XCTAssertTrue(log.amendLastCall("n", to: .outcome("amended")))
        XCTAssertFalse(log.amendLastCall("m", to: .outcome("none")))
        let after = log.transcript
        XCTAssertEqual(after.entries.count, 600)
        for (index, entry) in after.entries.enumerated() {
            XCTAssertEqual(entry.event, index == 255 ? .outcome("amended") : before.entries[index].event, "\(index)")
            XCTAssertEqual(entry.sequence, before.entries[index].sequence)
            XCTAssertEqual(entry.time, before.entries[index].time)
        }
        XCTAssertTrue(log.amendLastCall("n", to: .outcome("first")))
        XCTAssertEqual(log.transcript.entries[0].event, .outcome("first"))
    }
}
