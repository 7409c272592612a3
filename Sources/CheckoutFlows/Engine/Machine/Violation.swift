/// A breach of the delegate contract by the merchant's code (spec E2, E4, E7), recorded in the
/// transcript and reported to ``FlowOptions/onViolation``.
public struct Violation: Hashable, Sendable, CustomStringConvertible {
    /// The kind of breach, an open set.
    public struct Kind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The kind's name, such as `completionCalledTwice`.
        public var rawValue: String
        /// A kind with this name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }

        /// A completion was called again after it had been answered (spec E2).
        public static let completionCalledTwice = Kind(rawValue: "completionCalledTwice")
        /// A completion was called after its callback had ended otherwise: cancelled, timed out,
        /// or the flow over (spec E2).
        public static let lateCompletion = Kind(rawValue: "lateCompletion")
        /// A completion was not called before its deadline (spec E4).
        public static let completionTimedOut = Kind(rawValue: "completionTimedOut")
        /// An update did not fit its request (spec E7).
        public static let invalidUpdate = Kind(rawValue: "invalidUpdate")

        /// The kinds that are the delegate's fault, which strict mode reports as test failures
        /// (spec E2): ``completionCalledTwice``, ``completionTimedOut`` and ``invalidUpdate``.
        /// Not ``lateCompletion``: a merchant cannot prevent an answer that crosses the
        /// customer's cancel, and an answer after its deadline was already reported as
        /// ``completionTimedOut``.
        public static let delegateFaults: Set<Kind> = [.completionCalledTwice, .completionTimedOut, .invalidUpdate]

        /// Whether this kind is the delegate's fault (one of ``delegateFaults``).
        public var isDelegateFault: Bool { Self.delegateFaults.contains(self) }
    }

    /// What kind of breach this is.
    public var kind: Kind
    /// The delegate method concerned.
    public var callback: String
    /// The id of the delegate call concerned (they count up from 1 in each flow).
    public var callbackID: UInt64
    /// When, on the flow's clock.
    public var time: Duration
    /// The details, such as an invalid update's reasons.
    public var detail: String

    /// A violation of `kind` in callback number `callbackID` of the delegate method
    /// `callback`, at `time` on the flow's clock.
    public init(kind: Kind, callback: String, callbackID: UInt64, time: Duration, detail: String) {
        self.kind = kind
        self.callback = callback
        self.callbackID = callbackID
        self.time = time
        self.detail = detail
    }

    /// `completionCalledTwice in didEnterAddress #1 at 0.5s: details`.
    public var description: String {
        "\(kind) in \(callback) #\(callbackID) at \(time.secondsString)s"
            + (detail.isEmpty ? "" : ": \(detail)")
    }
}
