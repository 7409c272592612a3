import CheckoutFlows
import CheckoutWeb

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
    /// in every process that resumes the snapshots. nil: the relay cannot write out or resume, and
    /// its sessions keep no record of their events for a snapshot.
    public var snapshotKey: [UInt8]?
    /// The hosts a `validatemerchant` event's `validationURL` may name (spec W5): the page sends
    /// the URL and the merchant posts its identity to it, so any other host is refused. Default:
    /// Apple's Apple Pay gateways as Apple's "Setting Up Your Server" lists them
    /// (``appleValidationHosts``).
    public var merchantValidationHosts: Set<String>
    /// Apple's Apple Pay gateways: `apple-pay-gateway.apple.com`, `cn-apple-pay-gateway.apple.com`
    /// and, for the sandbox, `apple-pay-gateway-cert.apple.com`.
    public static let appleValidationHosts: Set<String> = [
        "apple-pay-gateway.apple.com", "cn-apple-pay-gateway.apple.com", "apple-pay-gateway-cert.apple.com",
    ]
    /// What the relay takes from a page at most (spec W10): the size of an event, the length of
    /// a string, the depth of nesting, the events a session takes, the sessions open at once and
    /// a caller's, the entropy of a session id a page chooses.
    public var limits: RelayLimits
    /// The `ApplePaySession` version the pages create their sessions with (the one the server's
    /// ``/CheckoutWeb/ApplePayPaymentRequest/version`` names): the relay checks every Apple Pay
    /// answer as WebKit does for it before sending it (spec W4, W8). Default: the newest,
    /// ``/CheckoutWeb/ApplePayVersion/supported``'s upper bound.
    public var applePayVersion: Int
    /// Called for every violation of any session's merchant, with the session's id.
    public var onViolation: (@Sendable (String, Violation) -> Void)?
    /// Called once per session when the relay lets go of it (ended by an event, idle past the
    /// timeout; not when it is written out), with its id and final transcript.
    public var onSessionEnd: (@Sendable (String, Transcript) -> Void)?

    /// Options with these defaults: 30-second deadlines and idle timeout on the system clock,
    /// transcripts, no snapshot key, Apple's validation hosts, the default ``RelayLimits``, the
    /// newest `ApplePaySession` version, no handlers.
    public init(
        callbackTimeout: Duration? = .seconds(30),
        idleTimeout: Duration = .seconds(30),
        clock: any CheckoutClock = SystemClock.shared,
        recordsTranscript: Bool = true,
        snapshotKey: [UInt8]? = nil,
        merchantValidationHosts: Set<String> = RelayOptions.appleValidationHosts,
        limits: RelayLimits = RelayLimits(),
        applePayVersion: Int = ApplePayVersion.supported.upperBound,
        onViolation: (@Sendable (String, Violation) -> Void)? = nil,
        onSessionEnd: (@Sendable (String, Transcript) -> Void)? = nil
    ) {
        self.callbackTimeout = callbackTimeout
        self.idleTimeout = idleTimeout
        self.clock = clock
        self.recordsTranscript = recordsTranscript
        self.snapshotKey = snapshotKey
        self.merchantValidationHosts = merchantValidationHosts
        self.limits = limits
        self.applePayVersion = applePayVersion
        self.onViolation = onViolation
        self.onSessionEnd = onSessionEnd
    }
}
