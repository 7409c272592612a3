import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutPayContextTesting
import CheckoutStripeBackends
import CheckoutTesting
import XCTest

/// A backend that holds confirmations until the test releases them. Wrap it in a
/// `RecordingPaymentBackend` to wait until a confirmation is in flight.
final class HeldConfirmBackend: PaymentBackend {
    private struct Gate {
        var released = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let inner: InMemoryStripeBackend
    private let gate = LockedValue(Gate())

    init(_ inner: InMemoryStripeBackend) { self.inner = inner }

    /// Lets every held confirmation, and every later one, through.
    func release() {
        let waiting = gate.withLock { gate in
            gate.released = true
            defer { gate.waiting = [] }
            return gate.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func createPaymentMethod(from payment: Payment) async throws -> StripePaymentMethod {
        try await inner.createPaymentMethod(from: payment)
    }

    func retrieveIntent(_ secret: IntentClientSecret) async throws -> StripeIntent {
        try await inner.retrieveIntent(secret)
    }

    func confirmIntent(_ secret: IntentClientSecret, paymentMethodID: String, shipping: ShippingDetails?) async throws
        -> StripeIntent
    {
        await withCheckedContinuation { continuation in
            let go = gate.withLock { gate in
                if gate.released { return true }
                gate.waiting.append(continuation)
                return false
            }
            if go { continuation.resume() }
        }
        return try await inner.confirmIntent(secret, paymentMethodID: paymentMethodID, shipping: shipping)
    }
}

final class PayContextTests: XCTestCase {
    static let items = [
        SummaryItem(label: "Tea", amount: Money(minorUnits: 1_000, currency: .usd)),
        SummaryItem(label: "Tea Shop", amount: Money(minorUnits: 1_000, currency: .usd)),
    ]

    let request = PaymentRequest(
        merchantIdentifier: "merchant.com.example",
        countryCode: "US",
        currencyCode: "USD",
        requiredShippingContactFields: [.name, .postalAddress],
        summaryItems: PayContextTests.items
    )

    let home = Contact(
        name: "Grace Hopper",
        emailAddress: "grace@example.com",
        postalAddress: Address(
            line1: "1 Main St",
            city: "Austin",
            state: "TX",
            postalCode: "78701-1234",
            country: try? CountryCode("US")
        )
    )

    func token(_ card: StripeTestCard) -> PaymentToken {
        PaymentToken(
            paymentMethod: PaymentMethod(displayName: "Card", network: .visa, type: .credit),
            transactionIdentifier: "tx",
            paymentData: card.rawValue
        )
    }

    /// A recording merchant that answers every `didCreatePaymentMethod` with `answer` and every
    /// shipping contact with the items.
    func scriptedMerchant(
        _ answer: ScriptedAnswer<RecordingPayContextDelegate.PaymentMethodCreation, IntentAnswer>
    ) -> RecordingPayContextDelegate {
        let merchant = RecordingPayContextDelegate()
        merchant.didCreatePaymentMethod.fallback = answer
        merchant.didSelectShippingContact.fallback = .answer(ShippingContactUpdate(summaryItems: Self.items))
        return merchant
    }

    /// Starts a payment: creates the context, presents it, selects the contact and authorizes with
    /// `card`; the backend and the merchant take it from there.
    func startPayment(
        _ merchant: RecordingPayContextDelegate,
        backend: any PaymentBackend,
        card: StripeTestCard = .success,
        options: FlowOptions = FlowOptions(callbackTimeout: nil),
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> PayContext {
        let context = try PayContext(request: request, backend: backend, delegate: merchant, options: options)
        context.present()
        XCTAssertTrue(context.selectShippingContact(home).isAccepted, file: file, line: line)
        XCTAssertTrue(context.authorize(token(card)).isAccepted, file: file, line: line)
        return context
    }

    /// Runs a payment to its end: ``startPayment``, then waits for `didComplete`.
    func pay(
        _ merchant: RecordingPayContextDelegate,
        backend: any PaymentBackend,
        card: StripeTestCard = .success,
        options: FlowOptions = FlowOptions(callbackTimeout: nil)
    ) async throws -> (PayContext, PayContextOutcome) {
        let context = try startPayment(merchant, backend: backend, card: card, options: options)
        let outcome = await context.waitUntilEnded()
        return (context, outcome)
    }

    /// Spec P6: `didComplete` exactly once, last, after the sheet is gone.
    func assertCompletedOnceAfterDismissal(
        _ merchant: RecordingPayContextDelegate, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(merchant.didComplete.callCount, 1, "didComplete calls", file: file, line: line)
        XCTAssertEqual(merchant.calledMethods.last, "didComplete", file: file, line: line)
        XCTAssertEqual(
            merchant.sheetEndedBeforeDidComplete, [true], "sheet gone before didComplete", file: file, line: line)
    }

    // spec P3, P6: an automatic PaymentIntent is confirmed by the client and succeeds.
    func testAutomaticPaymentIntentSucceeds() async throws {
        let backend = InMemoryStripeBackend()
        let secret = try backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        XCTAssertEqual(backend.intent(secret.intentID)?.status, .requiresPaymentMethod)
        let merchant = scriptedMerchant(.answer { _ in .secret(secret) })
        let (context, outcome) = try await pay(merchant, backend: backend)
        XCTAssertEqual(outcome.status, .success)
        XCTAssertNil(outcome.error)
        XCTAssertEqual(backend.confirmCount, 1)
        let intent = backend.intent(secret.intentID)
        XCTAssertEqual(intent?.status, .succeeded)
        XCTAssertEqual(intent?.paymentMethodID, "pm_000002")
        XCTAssertEqual(backend.lastConfirmShipping(for: secret.intentID)?.address.line1, "1 Main St")
        XCTAssertEqual(context.sheet.outcome?.description, "success")
        assertCompletedOnceAfterDismissal(merchant)
    }

    // spec E8: a context made small between events (its transcript and its sheet's packed, as the
    // relay does with its idle sessions) reads back the transcript of a context never made small,
    // and pays as it does.
    func testAContextMadeSmallBetweenEventsReadsTheSameTranscript() async throws {
        func run(compacting: Bool) async throws -> (Transcript, PayContextOutcome) {
            let backend = InMemoryStripeBackend()
            let secret = try backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
            let merchant = scriptedMerchant(.answer { _ in .secret(secret) })
            let context = try PayContext(
                request: request, backend: backend, delegate: merchant, options: FlowOptions(callbackTimeout: nil))
            context.present()
            if compacting { context.compactWhileIdle() }
            XCTAssertTrue(context.selectShippingContact(home).isAccepted)
            if compacting { context.compactWhileIdle() }
            XCTAssertTrue(context.authorize(token(.success)).isAccepted)
            let outcome = await context.waitUntilEnded()
            if compacting { context.compactWhileIdle() }
            return (context.transcript, outcome)
        }
        let (packed, packedOutcome) = try await run(compacting: true)
        let (plain, plainOutcome) = try await run(compacting: false)
        XCTAssertEqual(packedOutcome.status, .success)
        XCTAssertEqual(plainOutcome.status, .success)
        XCTAssertEqual(packed.entries.map(\.event), plain.entries.map(\.event))
        XCTAssertEqual(packed.entries.map(\.actor), plain.entries.map(\.actor))
        XCTAssertGreaterThan(packed.entries.count, 10)
    }

    // spec P3: a manual-confirmation intent confirmed on the server succeeds without a client
    // confirmation.
    func testManualConfirmationIntentConfirmedOnServerSucceedsWithoutClientConfirm() async throws {
        let backend = InMemoryStripeBackend()
        let merchant = scriptedMerchant(
            .answer { call in
                .secret(
                    try! backend.createPaymentIntent(
                        amount: Money(minorUnits: 1_000, currency: .usd),
                        confirmationMethod: .manual,
                        paymentMethodID: call.paymentMethod.id,
                        confirm: true
                    )
                )
            }
        )
        let (_, outcome) = try await pay(merchant, backend: backend)
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(backend.confirmCount, 1, "only the server's confirmation")
        assertCompletedOnceAfterDismissal(merchant)
    }

    // spec P3: manual capture ends in requires_capture, which is success.
    func testManualCaptureEndsRequiresCaptureAsSuccess() async throws {
        let backend = InMemoryStripeBackend()
        let secret = try backend.createPaymentIntent(
            amount: Money(minorUnits: 1_000, currency: .usd), captureMethod: .manual)
        let merchant = scriptedMerchant(.answer { _ in .secret(secret) })
        let (_, outcome) = try await pay(merchant, backend: backend)
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(backend.intent(secret.intentID)?.status, .requiresCapture)
        assertCompletedOnceAfterDismissal(merchant)
    }

    // spec P3: a SetupIntent is confirmed and succeeds.
    func testSetupIntentSucceeds() async throws {
        let backend = InMemoryStripeBackend()
        let secret = try backend.createSetupIntent()
        let merchant = scriptedMerchant(.answer { _ in .secret(secret) })
        let (_, outcome) = try await pay(merchant, backend: backend)
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(backend.intent(secret.intentID)?.status, .succeeded)
        XCTAssertEqual(backend.confirmCount(for: secret.intentID), 1)
        assertCompletedOnceAfterDismissal(merchant)
    }

    // spec P3, P7: a scoped PaymentIntent secret is accepted.
    func testScopedSecretSucceeds() async throws {
        let backend = InMemoryStripeBackend()
        let secret = try backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd), scoped: true)
        XCTAssertTrue(secret.isScoped)
        let merchant = scriptedMerchant(.answer { _ in .secret(secret) })
        let (_, outcome) = try await pay(merchant, backend: backend)
        XCTAssertEqual(outcome.status, .success)
    }

    // spec P3, P7: a malformed pi_ or seti_ secret ends as .error with the parse error.
    func testMalformedSecretEndsAsError() async throws {
        for malformed in ["pi_123_secret_", "seti_1_scoped_secret_x", "pi_123"] {
            let backend = InMemoryStripeBackend()
            let merchant = scriptedMerchant(.answer { _ in .clientSecret(malformed) })
            let (context, outcome) = try await pay(merchant, backend: backend)
            XCTAssertEqual(outcome.status, .error, malformed)
            XCTAssertEqual((outcome.error as? CheckoutError)?.code, .invalidClientSecret, malformed)
            XCTAssertEqual(backend.confirmCount, 0)
            assertCompletedOnceAfterDismissal(merchant)
            XCTAssertFalse(context.transcript.text(showingPersonalData: true).contains("secret_x"))
        }
    }

    struct MerchantServerDown: Error, Equatable {}

    // spec P3: the merchant's error ends the payment as .error with that error.
    func testMerchantErrorEndsAsErrorWithTheError() async throws {
        let backend = InMemoryStripeBackend()
        let merchant = scriptedMerchant(.answer { _ in .failure(MerchantServerDown()) })
        let (_, outcome) = try await pay(merchant, backend: backend)
        XCTAssertEqual(outcome.status, .error)
        XCTAssertEqual(outcome.error as? MerchantServerDown, MerchantServerDown())
        XCTAssertEqual(backend.confirmCount, 0)
        assertCompletedOnceAfterDismissal(merchant)
    }

    // spec P3: complete-without-confirming calls no backend beyond creating the payment method.
    func testCompleteWithoutConfirmingMakesNoBackendCall() async throws {
        let backend = RecordingPaymentBackend()
        let merchant = scriptedMerchant(.answer { _ in .completeWithoutConfirming })
        let (_, outcome) = try await pay(merchant, backend: backend)
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(backend.calledMethods, ["createPaymentMethod"])
        assertCompletedOnceAfterDismissal(merchant)
    }

    // spec P5, E2: a cancel while the merchant owes the secret ends as a user cancellation at
    // once; the secret arriving later is a late completion and is never confirmed.
    func testCancelWhileMerchantOwesSecretEndsAsUserCancellationAndNeverConfirms() async throws {
        let backend = InMemoryStripeBackend()
        let merchant = scriptedMerchant(.hold)
        let context = try startPayment(merchant, backend: backend)
        await merchant.waitUntilCalled("didCreatePaymentMethod")
        XCTAssertTrue(context.cancel().isAccepted)
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .userCancellation)
        XCTAssertNil(outcome.error)
        // The secret arrives after the end.
        let secret = try backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        merchant.didCreatePaymentMethod.complete(.secret(secret), call: 0)
        XCTAssertEqual(context.violations.map(\.kind), [.lateCompletion])
        XCTAssertEqual(backend.confirmCount, 0)
        XCTAssertEqual(backend.intent(secret.intentID)?.status, .requiresPaymentMethod)
        assertCompletedOnceAfterDismissal(merchant)
        XCTAssertEqual(context.cancel().refusal?.code, .finished)
    }

    // spec P5: a cancel while the confirmation is in flight is deferred; the real success is
    // reported.
    func testCancelWhileConfirmInFlightReportsRealSuccess() async throws {
        let inner = InMemoryStripeBackend()
        let held = HeldConfirmBackend(inner)
        let backend = RecordingPaymentBackend(held)
        let secret = try inner.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        let merchant = scriptedMerchant(.answer { _ in .secret(secret) })
        let context = try startPayment(merchant, backend: backend)
        await backend.waitUntilCalled("confirmIntent")
        XCTAssertTrue(context.cancel().isAccepted, "accepted, deferred")
        XCTAssertNil(context.outcome, "nothing ends while the confirmation is in flight")
        held.release()
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(inner.intent(secret.intentID)?.status, .succeeded)
        XCTAssertFalse(merchant.calledMethods.contains("willComplete"))
        assertCompletedOnceAfterDismissal(merchant)
    }

    // spec P5, E4: the sheet's deadline passing while the confirmation is in flight also waits for
    // the real outcome.
    func testDeadlineWhileConfirmInFlightReportsRealSuccess() async throws {
        let clock = ManualClock()
        let inner = InMemoryStripeBackend()
        let held = HeldConfirmBackend(inner)
        let backend = RecordingPaymentBackend(held)
        let secret = try inner.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        let merchant = scriptedMerchant(.answer { _ in .secret(secret) })
        let context = try startPayment(
            merchant, backend: backend, options: FlowOptions(callbackTimeout: .seconds(30), clock: clock))
        await backend.waitUntilCalled("confirmIntent")
        clock.advance(by: .seconds(31))
        XCTAssertNil(context.outcome)
        held.release()
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .success)
        assertCompletedOnceAfterDismissal(merchant)
    }

    // spec P5, E4: the sheet's deadline passing while the merchant owes the secret ends as a user
    // cancellation, recorded as the merchant's timeout.
    func testDeadlineWhileMerchantOwesSecretEndsAsUserCancellation() async throws {
        let clock = ManualClock()
        let backend = InMemoryStripeBackend()
        let merchant = scriptedMerchant(.hold)
        let context = try startPayment(
            merchant, backend: backend, options: FlowOptions(callbackTimeout: .seconds(30), clock: clock))
        await merchant.waitUntilCalled("didCreatePaymentMethod")
        clock.advance(by: .seconds(30))
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .userCancellation)
        XCTAssertEqual(context.violations.map(\.kind), [.completionTimedOut])
        XCTAssertEqual(backend.confirmCount, 0)
        assertCompletedOnceAfterDismissal(merchant)
    }

    // spec P3, P4: a decline ends as .error with Stripe's decline code.
    func testDeclineEndsAsErrorWithDeclineCode() async throws {
        let cases: [(StripeTestCard, String?, String?)] = [
            (.genericDecline, "card_declined", "generic_decline"),
            (.insufficientFunds, "card_declined", "insufficient_funds"),
            (.lostCard, "card_declined", "lost_card"),
            (.expiredCard, "expired_card", nil),  // Stripe's testing page: no decline code
            (.incorrectCVC, "incorrect_cvc", nil),
            (.processingError, "processing_error", nil),
        ]
        for (card, code, decline) in cases {
            let backend = InMemoryStripeBackend()
            let merchant = scriptedMerchant(
                .answer { _ in
                    .secret(try! backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd)))
                }
            )
            let (_, outcome) = try await pay(merchant, backend: backend, card: card)
            XCTAssertEqual(outcome.status, .error, "\(card)")
            let stripe = outcome.error as? StripeError
            XCTAssertEqual(stripe?.type, "card_error", "\(card)")
            XCTAssertEqual(stripe?.code, code, "\(card)")
            XCTAssertEqual(stripe?.declineCode, decline, "\(card)")
            XCTAssertEqual(backend.intent("pi_000002")?.status, .requiresPaymentMethod, "\(card)")
            assertCompletedOnceAfterDismissal(merchant)
        }
    }

    // spec P4, A7: incorrect ZIP asks for a retry with a billing postal code error; a second
    // authorization with another card succeeds.
    func testIncorrectZIPAsksForRetryAndSecondCardSucceeds() async throws {
        let backend = InMemoryStripeBackend(radar: .blockingFailedPostalCodes)
        let secret = try backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        let merchant = scriptedMerchant(.answer { _ in .secret(secret) })
        let context = try PayContext(
            request: request,
            backend: backend,
            delegate: merchant,
            options: FlowOptions(callbackTimeout: nil)
        )
        context.present()
        XCTAssertTrue(context.selectShippingContact(home).isAccepted)
        let first = try await context.authorizeAndWait(token(.incorrectZIP))
        XCTAssertEqual(first.status, .failure)
        XCTAssertEqual(first.errors.map(\.code), [.billingContactInvalid])
        XCTAssertEqual(first.errors.first?.field, .postalCode)
        XCTAssertNil(context.outcome, "the sheet stays for a retry")
        let second = try await context.authorizeAndWait(token(.success))
        XCTAssertEqual(second.status, .success)
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(backend.confirmCount(for: secret.intentID), 2)
        XCTAssertEqual(merchant.calledMethods.filter { $0 == "didCreatePaymentMethod" }.count, 2)
        assertCompletedOnceAfterDismissal(merchant)
    }

    // spec P3: requires_action after the confirmation cannot be shown over the sheet.
    func testRequiresActionAfterConfirmEndsAsConfirmationFailure() async throws {
        let backend = InMemoryStripeBackend()
        let merchant = scriptedMerchant(
            .answer { _ in .secret(try! backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))) }
        )
        let (_, outcome) = try await pay(merchant, backend: backend, card: .threeDSecureRequired)
        XCTAssertEqual(outcome.status, .error)
        let error = outcome.error as? PayContextError
        XCTAssertEqual(error?.code, .confirmationFailure)
        XCTAssertEqual(error?.intentStatus, .requiresAction)
        assertCompletedOnceAfterDismissal(merchant)
    }

    // spec P3: an intent in another status (canceled, processing, manual confirmation awaiting the
    // server) is an invalid intent state.
    func testIntentInUnfinishableStatusEndsAsInvalidIntentState() async throws {
        let backend = InMemoryStripeBackend()
        let secret = try backend.createPaymentIntent(
            amount: Money(minorUnits: 1_000, currency: .usd),
            confirmationMethod: .manual
        )
        let merchant = scriptedMerchant(.answer { _ in .secret(secret) })
        let (_, outcome) = try await pay(merchant, backend: backend)
        XCTAssertEqual(outcome.status, .error)
        XCTAssertEqual((outcome.error as? PayContextError)?.code, .invalidIntentState)
        XCTAssertEqual((outcome.error as? PayContextError)?.intentStatus, .requiresPaymentMethod)
        XCTAssertEqual(backend.confirmCount, 0)
    }

    // spec P2, A2: the merchant sees the shipping contact redacted, the full one (limited to the
    // requested fields) in the payment information.
    func testRedactedContactBeforeAuthorizationFullContactInPaymentInformation() async throws {
        let backend = InMemoryStripeBackend()
        let merchant = scriptedMerchant(.answer { _ in .completeWithoutConfirming })
        _ = try await pay(merchant, backend: backend)
        let redacted = try XCTUnwrap(merchant.didSelectShippingContact.arguments.first)
        XCTAssertTrue(redacted.isRedacted)
        XCTAssertNil(redacted.name)
        XCTAssertNil(redacted.postalAddress?.line1)
        XCTAssertEqual(redacted.postalAddress?.postalCode, "78701")
        let full = try XCTUnwrap(merchant.didCreatePaymentMethod.arguments.first?.paymentInformation.shippingContact)
        XCTAssertEqual(full.name, "Grace Hopper")
        XCTAssertEqual(full.postalAddress?.line1, "1 Main St")
        XCTAssertNil(full.emailAddress, "not requested")
    }

    // spec P1: an invalid request is refused with every reason; a context is presented once.
    func testInvalidRequestIsRefusedWithReasonsAndPresentOnce() throws {
        var bad = request
        bad.merchantIdentifier = ""
        bad.summaryItems = [SummaryItem(label: "Total", amount: Money(minorUnits: -1, currency: .usd))]
        let merchant = scriptedMerchant(.answer { _ in .completeWithoutConfirming })
        XCTAssertThrowsError(try PayContext(request: bad, backend: InMemoryStripeBackend(), delegate: merchant)) {
            error in
            let error = error as? CheckoutError
            XCTAssertEqual(error?.code, .invalidRequest)
            XCTAssertEqual(error?.problems.compactMap(\.field), ["merchantIdentifier", "summaryItems[0].amount"])
        }
        let context = try PayContext(request: request, backend: InMemoryStripeBackend(), delegate: merchant)
        XCTAssertEqual(context.present(), .accepted)
        XCTAssertEqual(context.present().refusal?.code, .alreadyPresented)
        XCTAssertEqual(merchant.calledMethods, [])
    }

    // spec E5: a context refused at its making releases its delegate: the hold taken for the
    // runner is given back when the request is refused (the flow fuzzer found it kept).
    func testARefusedRequestReleasesItsDelegate() {
        var bad = request
        bad.merchantIdentifier = ""
        var merchant: RecordingPayContextDelegate? = scriptedMerchant(.answer { _ in .completeWithoutConfirming })
        let weakMerchant = FlowsFixture.WeakBox(merchant!)
        XCTAssertThrowsError(try PayContext(request: bad, backend: InMemoryStripeBackend(), delegate: merchant!))
        merchant = nil
        XCTAssertNil(weakMerchant.object, "released with the refused context")
    }

    // spec P7, E8: no rendering shows a client secret.
    func testTranscriptsMaskSecrets() async throws {
        let backend = InMemoryStripeBackend()
        let secret = try backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        let merchant = scriptedMerchant(.answer { _ in .secret(secret) })
        let (context, outcome) = try await pay(merchant, backend: backend)
        XCTAssertEqual(outcome.status, .success)
        let suffix = String(secret.unmaskedValue.split(separator: "_").last!)
        for rendering in [
            context.transcript.text(), context.transcript.text(showingPersonalData: true),
            context.transcript.json(showingPersonalData: true),
            context.sheet.transcript.json(showingPersonalData: true),
        ] {
            XCTAssertFalse(rendering.contains(suffix), rendering)
        }
        XCTAssertTrue(context.transcript.text().contains("\(secret.intentID)_secret_•••"))
        XCTAssertEqual(
            context.contextTranscript.delegateCalls,
            [
                "backend.createPaymentMethod", "didCreatePaymentMethod", "backend.retrieveIntent",
                "backend.confirmIntent",
                "willComplete", "sheet.completion", "didComplete",
            ]
        )
        // spec E8: the merchant's calls are the PayContextDelegate methods it received, not the
        // backend's nor the sheet's own.
        XCTAssertEqual(
            context.delegateCalls,
            ["didSelectShippingContact", "didCreatePaymentMethod", "willComplete", "didComplete"])
        XCTAssertEqual(merchant.calledMethods, context.delegateCalls)
    }

    /// The async form of the merchant.
    final class AsyncMerchant: AsyncPayContextDelegate {
        let backend: InMemoryStripeBackend
        let completed = LockedValue<[PaymentStatus]>([])

        init(backend: InMemoryStripeBackend) { self.backend = backend }

        func payContext(
            _ context: PayContext,
            didCreatePaymentMethod paymentMethod: StripePaymentMethod,
            paymentInformation: Payment
        ) async -> IntentAnswer {
            do {
                return .secret(try backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd)))
            } catch {
                return .failure(error)
            }
        }

        func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {
            completed.withLock { $0.append(status) }
        }
    }

    // spec P3, A9: an async merchant is bridged onto the same engine; its defaults answer the
    // optional callbacks.
    func testAsyncMerchantSucceeds() async throws {
        let backend = InMemoryStripeBackend()
        let merchant = AsyncMerchant(backend: backend)
        let context = try PayContext(
            request: request,
            backend: backend,
            delegate: merchant,
            options: FlowOptions(callbackTimeout: nil)
        )
        context.present()
        _ = try await context.sheet.selectShippingContactAndWait(home)
        let result = try await context.authorizeAndWait(token(.success))
        XCTAssertEqual(result.status, .success)
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(merchant.completed.withLock { $0 }, [.success])
        XCTAssertTrue(
            context.sheet.transcript.entries.contains {
                if case .completion("didSelectShippingContact", _, _, byDefault: true) = $0.event { return true }
                return false
            }
        )
        XCTAssertTrue(
            context.transcript.entries.contains {
                if case .completion("willComplete", _, _, byDefault: true) = $0.event { return true }
                return false
            }
        )
    }

    // spec P5, A8: a cancel before authorizing ends as a user cancellation.
    func testCancelBeforeAuthorizationEndsAsUserCancellation() async throws {
        let merchant = scriptedMerchant(.answer { _ in .completeWithoutConfirming })
        let context = try PayContext(request: request, backend: InMemoryStripeBackend(), delegate: merchant)
        context.present()
        XCTAssertTrue(context.cancel().isAccepted)
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .userCancellation)
        XCTAssertEqual(context.sheet.outcome?.description, "cancelled")
        assertCompletedOnceAfterDismissal(merchant)
        XCTAssertEqual(merchant.calledMethods, ["didComplete"])
    }
}
