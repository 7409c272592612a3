import CheckoutFlows

/// How a relay keeps time, records, seals snapshots and reports ends.
public struct RelayOptions: Sendable {
    /// How long the merchant has to answer each event, merchant validation included: the
    /// browser's own timeout (spec W4, E4). Default 30 seconds; nil switches deadlines off.
    public var callbackTimeout: Duration?
    /// How long a session may go without an event before the relay ends it (spec W6).
    /// Default: 30 seconds, the browser's timeout.
    public var idleTimeout: Duration
    /// The clock of every deadline: ``/CheckoutFlows/SystemClock/shared`` by default, a
    /// ``/CheckoutFlows/ManualClock`` in tests.
    public var clock: any CheckoutClock
    /// Whether the sessions' flows keep transcripts (spec E8). Default: on.
    public var recordsTranscript: Bool
    /// The server's key for sealing snapshots (HMAC-SHA256, spec W6): at least 32 bytes, the same
    /// in every process that resumes the snapshots. nil: the relay cannot write out or resume.
    public var snapshotKey: [UInt8]?
    /// Called for every violation of any session's merchant, with the session's id.
    public var onViolation: (@Sendable (String, Violation) -> Void)?
    /// Called once per session when the relay lets go of it (ended by an event, idle past the
    /// timeout; not when it is written out), with its id and final transcript.
    public var onSessionEnd: (@Sendable (String, Transcript) -> Void)?

    /// Options with these defaults: 30-second deadlines and idle timeout on the system clock,
    /// transcripts, no snapshot key, no handlers.
    public init(
        callbackTimeout: Duration? = .seconds(30),
        idleTimeout: Duration = .seconds(30),
        clock: any CheckoutClock = SystemClock.shared,
        recordsTranscript: Bool = true,
        snapshotKey: [UInt8]? = nil,
        onViolation: (@Sendable (String, Violation) -> Void)? = nil,
        onSessionEnd: (@Sendable (String, Transcript) -> Void)? = nil
    ) {
        self.callbackTimeout = callbackTimeout
        self.idleTimeout = idleTimeout
        self.clock = clock
        self.recordsTranscript = recordsTranscript
        self.snapshotKey = snapshotKey
        self.onViolation = onViolation
        self.onSessionEnd = onSessionEnd
    }
}
