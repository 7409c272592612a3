import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import CheckoutTesting

/// A `PaymentBackend` that records every call in order and forwards it to the backend it
/// wraps, by default a fresh `InMemoryStripeBackend` (Stripe's test mode in memory).
///
/// A call is recorded when it starts, before it is forwarded, so a test can wait for a call that
/// the wrapped backend holds:
///
/// ```swift
/// let backend = RecordingPaymentBackend()
/// let secret = try backend.wrapped.createPaymentIntent(amount: total)
/// // ... run a PayContext on `backend` ...
/// // backend.calledMethods == ["createPaymentMethod", "retrieveIntent", "confirmIntent"]
/// ```
public final class RecordingPaymentBackend<Wrapped: PaymentBackend>: PaymentBackend {
    /// The backend every call is forwarded to.
    public let wrapped: Wrapped
    private let log = CallLog()

    /// Records the calls made to `backend` and forwards them.
    public init(_ backend: Wrapped) {
        self.wrapped = backend
    }

    /// Records the calls made to a fresh `InMemoryStripeBackend` and forwards them.
    public convenience init() where Wrapped == InMemoryStripeBackend {
        self.init(InMemoryStripeBackend())
    }

    /// Every call, in order: `createPaymentMethod`, `retrieveIntent` and `confirmIntent`, with
    /// their arguments (secrets masked).
    public var calls: [RecordedCall] { log.calls }

    /// The names of the methods called, in order.
    public var calledMethods: [String] { calls.map(\.method) }

    /// Returns once `method` has been called `times` times (each call counts when it starts).
    /// Never hangs: after `timeout` (real time) it fails the test with the calls made so far
    /// (and, given the `flow`, its last refusal and its transcript) and returns false.
    @discardableResult
    public func waitUntilCalled(
        _ method: String,
        times: Int = 1,
        timeout: Duration = .seconds(10),
        flow: (any CheckoutFlow)? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Bool {
        let reporter = TestFailureReporter.current
        guard await log.wait(for: method, count: times, timeout: timeout) else {
            reporter.report(
                FlowChecks.waitFailure(
                    "\(method) to be called \(times) time(s)", timeout: timeout,
                    seen: "calls so far: \(calledMethods)", transcript: flow?.transcript),
                at: TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column)
            )
            return false
        }
        return true
    }

    /// Records the call and forwards it.
    public func createPaymentMethod(from payment: Payment) async throws -> StripePaymentMethod {
        log.record("createPaymentMethod", [payment.token])
        return try await wrapped.createPaymentMethod(from: payment)
    }

    /// Records the call and forwards it.
    public func retrieveIntent(_ secret: IntentClientSecret) async throws -> StripeIntent {
        log.record("retrieveIntent", [secret])
        return try await wrapped.retrieveIntent(secret)
    }

    /// Records the call and forwards it.
    public func confirmIntent(
        _ secret: IntentClientSecret,
        paymentMethodID: String,
        shipping: ShippingDetails?
    ) async throws -> StripeIntent {
        log.record(
            "confirmIntent", [secret, paymentMethodID, shipping.map { String(describing: $0.address) } ?? "nil"])
        return try await wrapped.confirmIntent(secret, paymentMethodID: paymentMethodID, shipping: shipping)
    }
}
