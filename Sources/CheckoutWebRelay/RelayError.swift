/// An error of the relay itself: a session it cannot open, find, write out or resume, or an
/// event it cannot read. Flows' refusals stay ``/CheckoutFlows/Refusal``s; invalid models stay
/// ``/CheckoutCore/CheckoutError``s.
public struct RelayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, an open set: `switch` with a `default`.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The code's name.
        public var rawValue: String
        /// A code with this name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The bytes are not a JSON event of the documented shape; ``RelayError/field`` names
        /// the member.
        public static let malformedEvent = Code(rawValue: "malformedEvent")
        /// An event's member was read but has no meaning for the flow (a contact whose country is
        /// not a country); ``RelayError/field`` names it.
        public static let invalidEvent = Code(rawValue: "invalidEvent")
        /// No session has this id (never opened, ended and removed, or written out).
        public static let unknownSession = Code(rawValue: "unknownSession")
        /// A session with this id is open already.
        public static let sessionExists = Code(rawValue: "sessionExists")
        /// The session's merchant gets no merchant session: its delegate does not implement
        /// `didRequestMerchantSessionUpdate` and it gave no ``MerchantValidating`` (a session's end
        /// reason, spec W5).
        public static let merchantValidationUnsupported = Code(rawValue: "merchantValidationUnsupported")
        /// A snapshot was asked for while the merchant owes an answer (spec W6: only between
        /// events).
        public static let sessionBusy = Code(rawValue: "sessionBusy")
        /// The session has ended: there is nothing to write out.
        public static let sessionEnded = Code(rawValue: "sessionEnded")
        /// The relay has no snapshot key (``RelayOptions/snapshotKey``), or the key is too short.
        public static let snapshotKeyMissing = Code(rawValue: "snapshotKeyMissing")
        /// The bytes are not a relay snapshot.
        public static let malformedSnapshot = Code(rawValue: "malformedSnapshot")
        /// The snapshot's MAC does not verify under the relay's key: it was changed, or sealed
        /// under another key.
        public static let tamperedSnapshot = Code(rawValue: "tamperedSnapshot")
        /// The snapshot was written by another version of the format (``RelaySnapshot/version``).
        public static let unsupportedSnapshotVersion = Code(rawValue: "unsupportedSnapshotVersion")
        /// Replaying the snapshot's events through a fresh flow did not give what the record says
        /// (an event refused that was accepted, an answer the flow refused, the flow ended).
        public static let snapshotDiverged = Code(rawValue: "snapshotDiverged")
        /// The session cannot be written out: a pay context after an authorization attempt,
        /// whose backend calls a replay cannot repeat.
        public static let snapshotUnsupported = Code(rawValue: "snapshotUnsupported")

        // Spec W10: the limits (``RelayLimits``) and the caller binding (``RelayCaller``).

        /// The event has more bytes than ``RelayLimits/maxEventBytes``.
        public static let eventTooLarge = Code(rawValue: "eventTooLarge")
        /// A string of the event is longer than ``RelayLimits/maxStringLength``;
        /// ``RelayRefusal/fields`` names it.
        public static let stringTooLong = Code(rawValue: "stringTooLong")
        /// The event nests arrays and objects deeper than ``RelayLimits/maxNestingDepth``.
        public static let nestingTooDeep = Code(rawValue: "nestingTooDeep")
        /// The session has taken ``RelayLimits/maxEventsPerSession`` events; it takes only
        /// `cancel` now.
        public static let tooManyEvents = Code(rawValue: "tooManyEvents")
        /// The relay holds ``RelayLimits/maxSessions`` sessions: no new one opens until one ends.
        public static let tooManySessions = Code(rawValue: "tooManySessions")
        /// The caller holds ``RelayLimits/maxSessionsPerCaller`` sessions: no new one of theirs
        /// opens until one ends.
        public static let tooManySessionsForCaller = Code(rawValue: "tooManySessionsForCaller")
        /// The id a page chose for a new session carries less entropy than
        /// ``RelayLimits/minimumSessionIDBits`` (``SessionID/estimatedBits(of:)``).
        public static let weakSessionID = Code(rawValue: "weakSessionID")
        /// A page's event would open a session, but the server gave no caller
        /// (``RelayCaller``): a session is opened for an authenticated caller only.
        public static let callerRequired = Code(rawValue: "callerRequired")
    }

    /// What went wrong.
    public var code: Code
    /// A sentence for people, naming the field and value where there is one.
    public var message: String
    /// The offending member's path, where there is one.
    public var field: String?
    /// The offending value, where there is one.
    public var value: String?

    /// An error.
    public init(code: Code, message: String, field: String? = nil, value: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.value = value
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
