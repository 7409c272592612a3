/// Why a webhook was refused: its `Stripe-Signature` header, its timestamp, its signatures or its
/// body (spec P10).
///
/// The error names what failed (``code``, an extensible set), says it in words (``message``),
/// where (``field``: `Stripe-Signature` or `body`) and with which input (``value``: the header's
/// timestamp, the offending header item or a decoding path). It never holds an endpoint secret.
public struct StripeWebhookError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of refusal this is. New codes may be added in later versions, so `switch` over
    /// codes with a `default` case.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, such as `noMatchingSignature`.
        public var rawValue: String
        /// A code with this name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The request has no `Stripe-Signature` header, or an empty one.
        public static let noSignatureHeader = Code(rawValue: "noSignatureHeader")
        /// The header is not Stripe's `t=…,v1=…` list: an item without `=`, no timestamp, a
        /// timestamp that is not a whole number, or two timestamps.
        public static let malformedHeader = Code(rawValue: "malformedHeader")
        /// The header has a timestamp but no `v1` signature.
        public static let noSignature = Code(rawValue: "noSignature")
        /// The timestamp is further from the clock's time than the tolerance.
        public static let timestampOutsideTolerance = Code(rawValue: "timestampOutsideTolerance")
        /// No `v1` signature is the HMAC-SHA256 of `"{t}.{body}"` under any of the secrets.
        public static let noMatchingSignature = Code(rawValue: "noMatchingSignature")
        /// The verifier was given no secret, or an empty one.
        public static let noSecret = Code(rawValue: "noSecret")
        /// The signed body is not a Stripe event.
        public static let notAnEvent = Code(rawValue: "notAnEvent")
    }

    /// What failed.
    public var code: Code
    /// What failed, in words.
    public var message: String
    /// Where: `Stripe-Signature`, `body` or `secret`.
    public var field: String
    /// The offending input, when there is one that is not a secret.
    public var value: String?

    /// A refusal.
    public init(code: Code, message: String, field: String, value: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.value = value
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
