/// How a flow keeps time, records and reacts to violations.
public struct FlowOptions: Sendable {
    /// How long the merchant has to call each completion (spec E4); nil switches deadlines off.
    /// Default: 30 seconds, Apple Pay's sheet timeout. Each callback gets its own full deadline,
    /// counted from the call of its delegate method.
    public var callbackTimeout: Duration?
    /// The clock deadlines run on: ``SystemClock/shared`` by default, a ``ManualClock`` in tests.
    public var clock: any CheckoutClock
    /// Whether the flow keeps a ``Transcript`` (spec E8). Default: on.
    public var recordsTranscript: Bool
    /// Strict mode, for the delegate author's own tests: the first violation ends the flow at once
    /// through its cancel path, with the outcome `failed`, besides being reported.
    public var isStrict: Bool
    /// Called for every violation, outside the flow's lock, in order. In a test, fail there:
    /// `options.onViolation = { XCTFail("\($0)") }`.
    public var onViolation: (@Sendable (Violation) -> Void)?

    /// Options with these defaults: 30-second deadlines on ``SystemClock/shared``, a
    /// transcript, lenient mode (violations are recorded and reported, the flow goes on), no
    /// violation handler.
    public init(
        callbackTimeout: Duration? = .seconds(30),
        clock: any CheckoutClock = SystemClock.shared,
        recordsTranscript: Bool = true,
        isStrict: Bool = false,
        onViolation: (@Sendable (Violation) -> Void)? = nil
    ) {
        self.callbackTimeout = callbackTimeout
        self.clock = clock
        self.recordsTranscript = recordsTranscript
        self.isStrict = isStrict
        self.onViolation = onViolation
    }
}
