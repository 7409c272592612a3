/// How a flow keeps time, records and reacts to violations.
public struct FlowOptions: Sendable {
    /// How long the merchant has to call each completion (spec E4); nil switches deadlines off.
    /// Default: 30 seconds, Apple Pay's sheet timeout. Each callback gets its own full deadline,
    /// counted from the call of its delegate method. Counted in whole nanoseconds: a finer timeout
    /// is rounded up.
    public var callbackTimeout: Duration?
    /// The clock deadlines run on: ``SystemClock/shared`` by default, a ``ManualClock`` in tests.
    /// A flow reads it to the nanosecond (a finer time is rounded down), in 64 bits: times past
    /// about 292 years from the clock's origin read as that end, where every deadline has passed.
    public var clock: any CheckoutClock
    /// Whether the flow keeps a ``Transcript`` (spec E8). Default: on.
    public var recordsTranscript: Bool
    /// Called for every violation, outside the flow's lock, in order. Violations never change
    /// what the flow does (spec E2); this is where a test fails on them. `CheckoutTesting`'s
    /// `FlowOptions.testing()` installs the strict-mode handler, which fails the running test for
    /// the violations that are the delegate's fault (``Violation/Kind/isDelegateFault``).
    public var onViolation: (@Sendable (Violation) -> Void)?
    /// Called once, outside the flow's lock, when the flow's terminal delegate call (`didFinish`,
    /// `didCancel`, `didComplete`) has returned.
    public var onEnd: (@Sendable () -> Void)?
    /// Called each time a protocol's default implementation answers an optional callback in the
    /// merchant's place (spec A9, E11): the merchant does not implement the method, or spelled it
    /// nearly like the requirement. Called on the thread of that delegate call, outside the flow's
    /// lock, before the default's answer takes effect. `CheckoutTesting`'s `FlowOptions.testing()`
    /// fails the test here unless the test expects that method's default answers.
    public var onDefaultAnswer: (@Sendable (DelegateMethod) -> Void)?

    /// Options with these defaults: 30-second deadlines on ``SystemClock/shared``, a
    /// transcript, no violation handler, no end handler, no default-answer handler.
    public init(
        callbackTimeout: Duration? = .seconds(30),
        clock: any CheckoutClock = SystemClock.shared,
        recordsTranscript: Bool = true,
        onViolation: (@Sendable (Violation) -> Void)? = nil,
        onEnd: (@Sendable () -> Void)? = nil,
        onDefaultAnswer: (@Sendable (DelegateMethod) -> Void)? = nil
    ) {
        self.callbackTimeout = callbackTimeout
        self.clock = clock
        self.recordsTranscript = recordsTranscript
        self.onViolation = onViolation
        self.onEnd = onEnd
        self.onDefaultAnswer = onDefaultAnswer
    }
}
