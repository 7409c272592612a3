import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripe
import CheckoutStripeBackends
import Foundation
import XCTest

/// The HTTP backend against a loopback Stripe that drops connections, fails, limits and hangs:
/// a confirmation runs once however often it is sent, retries are bounded, the last error is
/// clear, and the pay context's P5 rules hold.
final class StripeHTTPFaultTests: XCTestCase {
    private let key = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"
    private let fast = StripeRetryPolicy(
        maxRetries: 2, initialDelay: .milliseconds(20), maxDelay: .seconds(2), maxTotal: .seconds(10))

    private func backend(
        _ stripe: FaultyStripe, key: String? = nil, retry: StripeRetryPolicy? = nil,
        timeout: Duration = .seconds(5)
    ) throws -> StripeHTTPBackend {
        StripeHTTPBackend(
            configuration: .init(
                apiKey: try StripeAPIKey(key ?? self.key), baseURL: stripe.url, retry: retry ?? fast,
                requestTimeout: timeout))
    }

    private func pay(_ backend: any PaymentBackend, _ stripe: FaultyStripe) async throws -> (
        CardScenario.Result, PayContextOutcome
    ) {
        let secret = stripe.makePaymentIntent()
        return try await CardScenario.run(.success, backend: backend) { try IntentClientSecret(secret) }
    }

    private func confirmAttempts(_ stripe: FaultyStripe) -> [LoopbackServer.Request] {
        stripe.attempts.filter { $0.path.hasSuffix("/confirm") }
    }

    // spec P9: an idempotency key on every request that confirms, reused on its retries: one charge.
    func testADroppedAnswerIsRetriedWithTheSameKeyAndChargesOnce() async throws {
        let stripe = try FaultyStripe(confirmFaults: [.dropAfterRunning])
        defer { stripe.stop() }
        let (result, _) = try await pay(try backend(stripe), stripe)
        XCTAssertEqual(result, .success)
        let attempts = confirmAttempts(stripe)
        XCTAssertEqual(attempts.count, 2)
        XCTAssertNotNil(attempts[0].headers["idempotency-key"])
        XCTAssertEqual(attempts[0].headers["idempotency-key"], attempts[1].headers["idempotency-key"])
        XCTAssertEqual(stripe.confirmations, ["pi_1"], "the retried confirmation ran once")
    }

    // spec P9: a 5xx is a retry Stripe calls safe.
    func testA500ThenA200() async throws {
        let stripe = try FaultyStripe(confirmFaults: [.status(500, [:])])
        defer { stripe.stop() }
        let (result, _) = try await pay(try backend(stripe), stripe)
        XCTAssertEqual(result, .success)
        XCTAssertEqual(confirmAttempts(stripe).count, 2)
        XCTAssertEqual(Set(confirmAttempts(stripe).compactMap { $0.headers["idempotency-key"] }).count, 1)
        XCTAssertEqual(stripe.confirmations.count, 1)
    }

    // spec P9: a 409 lock timeout is a retry Stripe calls safe.
    func testA409LockTimeoutIsRetried() async throws {
        let stripe = try FaultyStripe(confirmFaults: [.status(409, [:])])
        defer { stripe.stop() }
        let (result, _) = try await pay(try backend(stripe), stripe)
        XCTAssertEqual(result, .success)
        XCTAssertEqual(confirmAttempts(stripe).count, 2)
    }

    // spec P9: a 429 is retried, after the wait Stripe asks for.
    func testA429WaitsForRetryAfter() async throws {
        let stripe = try FaultyStripe(confirmFaults: [.status(429, ["Retry-After": "1"])])
        defer { stripe.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let (result, _) = try await pay(try backend(stripe), stripe)
        XCTAssertEqual(result, .success)
        XCTAssertGreaterThanOrEqual(clock.now - start, .seconds(1), "Retry-After: 1 is honoured")
        XCTAssertEqual(confirmAttempts(stripe).count, 2)
        XCTAssertEqual(stripe.confirmations.count, 1)
    }

    // spec P9: retries bounded in time, ending in a clear error.
    func testAHangingStripeEndsInAClearErrorAfterBoundedRetries() async throws {
        let stripe = try FaultyStripe(confirmFaults: [.hang, .hang, .hang, .hang])
        defer { stripe.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let (result, outcome) = try await pay(try backend(stripe, timeout: .seconds(1)), stripe)
        XCTAssertGreaterThanOrEqual(clock.now - start, .seconds(3), "each attempt waited its timeout")
        XCTAssertLessThan(clock.now - start, .seconds(8), "three attempts of 1 s and short waits")
        XCTAssertEqual(confirmAttempts(stripe).count, 3, "the first attempt and two retries")
        XCTAssertEqual(stripe.confirmations, [])
        XCTAssertEqual(result, .error("api_connection_error"))
        let error = try XCTUnwrap(outcome.error as? StripeError)
        XCTAssertTrue(error.message.contains("after 3 attempts"), error.message)
    }

    // spec P9: retries bounded in count.
    func testRetriesAreBoundedInCount() async throws {
        let stripe = try FaultyStripe(confirmFaults: Array(repeating: .status(503, [:]), count: 6))
        defer { stripe.stop() }
        let (result, _) = try await pay(try backend(stripe), stripe)
        XCTAssertEqual(result, .error("api_error"))
        XCTAssertEqual(confirmAttempts(stripe).count, 3)
    }

    // spec P9: retries only where Stripe says a retry is safe.
    func testAnErrorStripeSaysNotToRetryIsNotRetried() async throws {
        for fault in [FaultyStripe.Fault.status(400, [:]), .status(500, ["Stripe-Should-Retry": "false"])] {
            let stripe = try FaultyStripe(confirmFaults: [fault])
            defer { stripe.stop() }
            _ = try await pay(try backend(stripe), stripe)
            XCTAssertEqual(confirmAttempts(stripe).count, 1, "\(fault)")
        }
    }

    func testAConnectionDroppedBeforeRunningIsRetried() async throws {
        let stripe = try FaultyStripe(confirmFaults: [.drop, .drop])
        defer { stripe.stop() }
        let (result, _) = try await pay(try backend(stripe), stripe)
        XCTAssertEqual(result, .success)
        XCTAssertEqual(confirmAttempts(stripe).count, 3)
        XCTAssertEqual(stripe.confirmations.count, 1)
    }

    /// Spec P5: a cancel while the confirmation is in flight (here, waiting out a 429) is
    /// deferred, and the payment's real outcome is reported.
    func testACancelDuringARetriedConfirmationIsDeferred() async throws {
        let stripe = try FaultyStripe(confirmFaults: [.status(429, ["Retry-After": "1"])])
        defer { stripe.stop() }
        let signal = AsyncStream<Void>.makeStream()
        let watched = ConfirmWatcher(try backend(stripe), onConfirm: { signal.continuation.yield() })
        let secret = stripe.makePaymentIntent()
        let merchant = CardScenario.Merchant { try IntentClientSecret(secret) }
        let context = try PayContext(
            request: CardScenario.request, backend: watched, delegate: merchant,
            options: FlowOptions(callbackTimeout: nil))
        context.present()
        let token = PaymentToken(
            paymentMethod: PaymentMethod(network: .visa, type: .credit), transactionIdentifier: "tx",
            paymentData: StripeTestCard.success.number)
        XCTAssertTrue(context.authorize(token).isAccepted)
        var iterator = signal.stream.makeAsyncIterator()
        _ = await iterator.next()
        XCTAssertTrue(context.cancel().isAccepted, "accepted, deferred")
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .success, "the real outcome, not a cancellation")
        XCTAssertEqual(stripe.confirmations.count, 1)
    }

    // spec P9: form-encoded requests with a pinned Stripe-Version and idempotency keys.
    func testRequestsAreStripes() async throws {
        let stripe = try FaultyStripe()
        defer { stripe.stop() }
        let billing = Contact(
            name: "Grace Hopper", postalAddress: Address(line1: "1 Main St & Co", postalCode: "78701", country: .us))
        let backend = try backend(stripe)
        let token = PaymentToken(
            paymentMethod: PaymentMethod(network: .visa, type: .credit), transactionIdentifier: "tx",
            paymentData: "4242 4242 4242 4242")
        _ = try await backend.createPaymentMethod(from: Payment(token: token, billingContact: billing))
        let secret = try IntentClientSecret(stripe.makePaymentIntent())
        _ = try await backend.retrieveIntent(secret)
        let create = try XCTUnwrap(stripe.attempts.first)
        XCTAssertEqual(create.headers["stripe-version"], StripeHTTPBackend.Configuration.pinnedStripeVersion)
        XCTAssertEqual(create.headers["authorization"], "Bearer \(key)")
        XCTAssertEqual(create.headers["content-type"], "application/x-www-form-urlencoded")
        XCTAssertNotNil(create.headers["idempotency-key"], "creating carries a key")
        XCTAssertTrue(create.body.contains("billing_details%5Baddress%5D%5Bline1%5D=1%20Main%20St%20%26%20Co"))
        XCTAssertEqual(create.form["card[number]"], "4242424242424242")
        XCTAssertNil(create.form["card[cvc]"], "Apple Pay sends no CVC")
        let retrieve = try XCTUnwrap(stripe.attempts.last)
        XCTAssertEqual(retrieve.method, "GET")
        XCTAssertNil(retrieve.headers["idempotency-key"], "a retrieval creates nothing")
        XCTAssertEqual(retrieve.query, "", "a secret key retrieves by id")
    }

    func testAPublishableKeyUsesTheClientSecretAndNothingLeaks() async throws {
        let stripe = try FaultyStripe()
        defer { stripe.stop() }
        let publishable = "pk_test_TYooMQauvdEDq54NiTphI7jx"
        let backend = try backend(stripe, key: publishable, retry: .never, timeout: .seconds(1))
        let secret = try IntentClientSecret(stripe.makePaymentIntent())
        _ = try await backend.retrieveIntent(secret)
        XCTAssertEqual(stripe.attempts.last?.form["client_secret"], secret.unmaskedValue)
        stripe.stop()
        do {
            _ = try await backend.retrieveIntent(secret)
            XCTFail("the server is gone")
        } catch let error as StripeError {
            XCTAssertEqual(error.type, "api_connection_error")
            for text in ["\(error)", error.message, String(reflecting: error)] {
                XCTAssertFalse(text.contains(secret.unmaskedValue), text)
                XCTAssertFalse(text.contains(publishable), text)
            }
        }
        var dumped = ""
        dump(backend, to: &dumped)
        for text in [
            "\(backend)", dumped, "\(backend.configuration.apiKey)", String(reflecting: backend.configuration),
        ] {
            XCTAssertFalse(text.contains("TYooMQauvdEDq54NiTphI7jx"), text)
        }
    }

    // spec P9: Stripe's error object decoded whole.
    func testStripesErrorObjectIsDecodedWhole() async throws {
        let server = try LoopbackServer { _ in
            .respond(
                402, [:],
                #"{"error": {"type": "card_error", "code": "card_declined", "decline_code": "stolen_card", "message": "Your card was declined.", "param": "payment_method", "doc_url": "https://stripe.com/docs/error-codes/card-declined"}}"#
            )
        }
        defer { server.stop() }
        let backend = StripeHTTPBackend(
            configuration: .init(apiKey: try StripeAPIKey(key), baseURL: server.url, retry: fast))
        do {
            _ = try await backend.intent("pi_1")
            XCTFail("declined")
        } catch let error as StripeError {
            XCTAssertEqual(error.declineCode, "stolen_card")
            XCTAssertEqual(error.param, "payment_method")
            XCTAssertEqual(error.docURL, "https://stripe.com/docs/error-codes/card-declined")
        }
    }

    // spec P9: the retry policy is Stripe's.
    func testTheRetryPolicyFollowsStripe() {
        let policy = StripeRetryPolicy(
            maxRetries: 3, initialDelay: .milliseconds(500), maxDelay: .seconds(4), maxTotal: .seconds(10))
        XCTAssertEqual(policy.delay(after: .network, attempt: 1, elapsed: .zero), .milliseconds(500))
        XCTAssertEqual(policy.delay(after: .network, attempt: 2, elapsed: .zero), .seconds(1))
        XCTAssertEqual(policy.delay(after: .network, attempt: 3, elapsed: .zero), .seconds(2))
        XCTAssertNil(policy.delay(after: .network, attempt: 4, elapsed: .zero), "bounded in count")
        XCTAssertNil(policy.delay(after: .network, attempt: 1, elapsed: .seconds(10)), "bounded in time")
        let limited = StripeRetryPolicy.Failure.http(status: 429, shouldRetry: nil, retryAfterSeconds: 3)
        XCTAssertEqual(policy.delay(after: limited, attempt: 1, elapsed: .zero), .seconds(3))
        let long = StripeRetryPolicy.Failure.http(status: 429, shouldRetry: nil, retryAfterSeconds: 60)
        XCTAssertEqual(policy.delay(after: long, attempt: 1, elapsed: .zero), .seconds(4), "capped")
        for status in [409, 429, 500, 502, 503] {
            XCTAssertTrue(
                StripeRetryPolicy.isRetryable(.http(status: status, shouldRetry: nil, retryAfterSeconds: nil)))
        }
        for status in [400, 401, 402, 403, 404] {
            XCTAssertFalse(
                StripeRetryPolicy.isRetryable(.http(status: status, shouldRetry: nil, retryAfterSeconds: nil)))
        }
        XCTAssertTrue(StripeRetryPolicy.isRetryable(.http(status: 400, shouldRetry: true, retryAfterSeconds: nil)))
    }

    func testFormEncodingOfNestedParameters() {
        var form = StripeForm()
        form.add("shipping", "address", "line1", value: "1 Main St")
        form.add("payment_method_types", "0", value: "card")
        form.add("metadata", "note", value: "a=b&c é")
        form.add("skipped", value: nil)
        XCTAssertEqual(
            form.encoded,
            "shipping%5Baddress%5D%5Bline1%5D=1%20Main%20St&payment_method_types%5B0%5D=card"
                + "&metadata%5Bnote%5D=a%3Db%26c%20%C3%A9")
    }

    func testKeysAreValidatedAndMasked() throws {
        XCTAssertEqual(try StripeAPIKey(key).description, "sk_test_•••")
        XCTAssertEqual(try StripeAPIKey("pk_live_abc").kind, .publishable)
        XCTAssertThrowsError(try StripeAPIKey("hello")) { error in
            XCTAssertFalse("\(error)".contains("hello"))
        }
    }
}

/// A backend that reports when a confirmation starts, then forwards it.
final class ConfirmWatcher: PaymentBackend {
    let inner: any PaymentBackend
    let onConfirm: @Sendable () -> Void

    init(_ inner: any PaymentBackend, onConfirm: @escaping @Sendable () -> Void) {
        self.inner = inner
        self.onConfirm = onConfirm
    }

    func createPaymentMethod(from payment: Payment) async throws -> StripePaymentMethod {
        try await inner.createPaymentMethod(from: payment)
    }

    func retrieveIntent(_ secret: IntentClientSecret) async throws -> StripeIntent {
        try await inner.retrieveIntent(secret)
    }

    func confirmIntent(_ secret: IntentClientSecret, paymentMethodID: String, shipping: ShippingDetails?)
        async throws -> StripeIntent
    {
        onConfirm()
        return try await inner.confirmIntent(secret, paymentMethodID: paymentMethodID, shipping: shipping)
    }
}
