/// What a relay takes from a page at most (spec W10): a page can be changed by anyone, so every
/// quantity an event can make the relay hold is bounded. An event over a limit is refused with
/// the limit's code (``RelayError/Code/eventTooLarge``, ...) naming the limit, and changes
/// nothing: no session is opened, no session's state or transcript is touched.
///
/// The defaults are for a server to keep: far above what an honest sheet sends, low enough that
/// a flood of refused input costs the honest sessions nothing.
public struct RelayLimits: Sendable, Hashable {
    /// The largest event ``WebRelay/handle(json:caller:)`` reads, in bytes. Default 64 KiB: an
    /// Apple Pay `paymentauthorized` event (a token of a few KB and two full contacts) fits many
    /// times over. Vapor's default body limit is 16 KB, nginx's `client_max_body_size` 1 MB.
    public var maxEventBytes: Int
    /// The longest string an event may hold, in Unicode scalars. Default 5,000: the longest
    /// string Stripe's API takes for an address line, a name or a description (`maxLength: 5000`
    /// in Stripe's OpenAPI specification).
    public var maxStringLength: Int
    /// The deepest nesting of arrays and objects an event may have. Default 32: the deepest
    /// wire dictionary (a payment's token's header) is 5 levels down.
    public var maxNestingDepth: Int
    /// The most events one session takes, `cancel` excepted (the customer may always cancel).
    /// Each event the session takes is kept in its transcript and snapshot, so this bounds them.
    /// Default 500: an honest sheet sends a few dozen.
    public var maxEventsPerSession: Int
    /// The most sessions the relay holds at once. A new one past it is refused with
    /// ``RelayError/Code/tooManySessions``; none is evicted, so a flood cannot push out honest
    /// customers, and idle sessions leave on their own after ``RelayOptions/idleTimeout``.
    /// Default 10,000.
    public var maxSessions: Int
    /// The most sessions one caller (``RelayCaller``) holds at once. Past it, the caller's next
    /// one is refused with ``RelayError/Code/tooManySessionsForCaller``. Default 16.
    public var maxSessionsPerCaller: Int
    /// The entropy a session id the page chooses must carry at least, in bits (OWASP's session
    /// management rules ask for 64). The relay estimates it from the id's form
    /// (``SessionID/estimatedBits(of:)``): a `crypto.randomUUID()` has 122, "s1" none. Default 64.
    public var minimumSessionIDBits: Int

    /// Limits with these defaults: 64 KiB events, 5,000-scalar strings, nesting 32 deep, 500
    /// events a session, 10,000 sessions, 16 a caller, 64-bit session ids.
    public init(
        maxEventBytes: Int = 64 * 1024,
        maxStringLength: Int = 5_000,
        maxNestingDepth: Int = 32,
        maxEventsPerSession: Int = 500,
        maxSessions: Int = 10_000,
        maxSessionsPerCaller: Int = 16,
        minimumSessionIDBits: Int = 64
    ) {
        self.maxEventBytes = maxEventBytes
        self.maxStringLength = maxStringLength
        self.maxNestingDepth = maxNestingDepth
        self.maxEventsPerSession = maxEventsPerSession
        self.maxSessions = maxSessions
        self.maxSessionsPerCaller = maxSessionsPerCaller
        self.minimumSessionIDBits = minimumSessionIDBits
    }
}
