/// When a failed Stripe request is sent again, and after how long: only what Stripe documents as
/// safe to retry (a network error, `409` lock timeouts, `429`, `5xx`; a `Stripe-Should-Retry`
/// header overrides), with exponential backoff, bounded in count and in total time.
///
/// The policy is a value with no I/O: ``delay(after:attempt:elapsed:)`` says whether to retry and
/// how long to wait first.
public struct StripeRetryPolicy: Hashable, Sendable {
    /// How many times a request may be sent again after its first attempt.
    public var maxRetries: Int
    /// The wait before the first retry; each further retry waits twice as long.
    public var initialDelay: Duration
    /// The longest wait between two attempts, also for a `Retry-After` asking for more.
    public var maxDelay: Duration
    /// The longest time from the first attempt after which no retry starts.
    public var maxTotal: Duration

    /// A policy; Stripe's client libraries' defaults are two retries from half a second.
    public init(
        maxRetries: Int = 2,
        initialDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(5),
        maxTotal: Duration = .seconds(30)
    ) {
        self.maxRetries = maxRetries
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.maxTotal = maxTotal
    }

    /// No retries.
    public static let never = StripeRetryPolicy(maxRetries: 0)

    /// What an attempt ended with.
    public enum Failure: Hashable, Sendable {
        /// No response: the connection failed, dropped or timed out.
        case network
        /// An HTTP response with this status, its `Stripe-Should-Retry` header (if any) and its
        /// `Retry-After` seconds (if any).
        case http(status: Int, shouldRetry: Bool?, retryAfterSeconds: Int?)
    }

    /// Whether Stripe documents the failure as safe to retry.
    public static func isRetryable(_ failure: Failure) -> Bool {
        switch failure {
        case .network: return true
        case .http(_, let shouldRetry?, _): return shouldRetry
        case .http(let status, nil, _): return status == 409 || status == 429 || (500...599).contains(status)
        }
    }

    /// The wait before sending again after `attempt` (1 for the first) failed with `failure`,
    /// `elapsed` after the first attempt started; nil when the request is not to be sent again.
    public func delay(after failure: Failure, attempt: Int, elapsed: Duration) -> Duration? {
        guard Self.isRetryable(failure), attempt <= maxRetries else { return nil }
        var wait = initialDelay * (1 << min(attempt - 1, 20))
        if case .http(_, _, let seconds?) = failure { wait = max(wait, .seconds(seconds)) }
        wait = min(wait, maxDelay)
        guard elapsed + wait < maxTotal else { return nil }
        return wait
    }
}
