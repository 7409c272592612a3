import CheckoutCore
import Foundation

/// Verifies Stripe's webhooks as Stripe documents it (docs.stripe.com/webhooks, "Verify events
/// manually"; spec P10) and reads their events.
///
/// A request is accepted when its `Stripe-Signature` header has a timestamp `t` within
/// ``tolerance`` of the clock's time (either side: a clock running behind is not a replay) and one
/// of its `v1` signatures is the HMAC-SHA256 of `"{t}.{body}"` under one of the endpoint's secrets,
/// whole, `whsec_` included; signatures are compared in constant time. Several secrets verify
/// during a rotation (Stripe signs with the old and the new one, one `v1` each). The clock is
/// injected, so tests need no sleeping.
///
/// ```swift
/// let verifier = try StripeWebhookVerifier(secrets: ["whsec_test_secret"])
/// do {
///     let event = try verifier.event(from: body, signature: header)
///     print(event.type, event.id)
/// } catch {
///     print(error.code, error.message)  // never the secret
/// }
/// ```
public struct StripeWebhookVerifier: Sendable, CustomStringConvertible {
    /// Stripe's default tolerance: five minutes.
    public static let defaultTolerance: Duration = .seconds(300)

    private let keys: [[UInt8]]
    /// How far the header's timestamp may be from the clock's time.
    public let tolerance: Duration
    private let now: @Sendable () -> Date

    /// A verifier for an endpoint's secrets (`whsec_…`; several during a rotation), with a
    /// tolerance (negative reads as zero) and a clock, the system's unless told otherwise.
    ///
    /// - Throws: ``StripeWebhookError/Code/noSecret`` when no secret is given or one is empty.
    public init(
        secrets: [String],
        tolerance: Duration = defaultTolerance,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(StripeWebhookError) {
        guard !secrets.isEmpty, secrets.allSatisfy({ !$0.isEmpty }) else {
            throw StripeWebhookError(
                code: .noSecret, message: "a webhook verifier needs at least one non-empty endpoint secret",
                field: "secret", value: "\(secrets.count) given")
        }
        keys = secrets.map { Array($0.utf8) }
        self.tolerance = max(tolerance, .zero)
        self.now = now
    }

    /// `StripeWebhookVerifier(2 secrets, tolerance 300 seconds)`: never a secret.
    public var description: String {
        "StripeWebhookVerifier(\(keys.count) secret\(keys.count == 1 ? "" : "s"), tolerance \(tolerance))"
    }

    /// Checks the body against the `Stripe-Signature` header (nil when the request has none) and
    /// returns the header read.
    ///
    /// - Throws: ``StripeWebhookError``: the header's problems (see
    ///   ``StripeSignatureHeader/init(_:)``), ``StripeWebhookError/Code/timestampOutsideTolerance``,
    ///   ``StripeWebhookError/Code/noMatchingSignature``.
    @discardableResult
    public func verify(_ body: some Collection<UInt8>, signature header: String?) throws(StripeWebhookError)
        -> StripeSignatureHeader
    {
        let parsed = try StripeSignatureHeader(header ?? "")
        // A clock or a timestamp at the ends of 64 bits is outside any tolerance, not a trap.
        let clock = now().timeIntervalSince1970.rounded(.down)
        let seconds = clock.isNaN ? 0 : clock >= 0x1p63 ? Int64.max : clock < -0x1p63 ? Int64.min : Int64(clock)
        let (age, overflow) = seconds.subtractingReportingOverflow(parsed.timestamp)
        let limit = tolerance.components.seconds
        guard !overflow, age.magnitude <= limit.magnitude else {
            let distance =
                overflow
                ? "further from now than 64 bits of seconds"
                : "\(age.magnitude) s "
                    + (age >= 0 ? "old" : "in the future")
            throw StripeWebhookError(
                code: .timestampOutsideTolerance,
                message: "the timestamp \(parsed.timestamp) is \(distance); the tolerance is \(limit) s",
                field: "Stripe-Signature", value: "t=\(parsed.timestamp)")
        }
        let signed = Array("\(parsed.timestamp).".utf8) + body
        let offered = parsed.signatures.compactMap(Self.bytes(hex:))
        for key in keys {
            let expected = HMACSHA256.authenticationCode(for: signed, key: key)
            if offered.contains(where: { HMACSHA256.isEqualInConstantTime($0, expected) }) { return parsed }
        }
        throw StripeWebhookError(
            code: .noMatchingSignature,
            message: "no v1 signature matches the body signed at \(parsed.timestamp) under the endpoint's "
                + "\(keys.count == 1 ? "secret" : "\(keys.count) secrets") (\(parsed.signatures.count) checked)",
            field: "Stripe-Signature", value: "t=\(parsed.timestamp)")
    }

    /// Verifies the body (``verify(_:signature:)``), then reads it as an event.
    ///
    /// - Throws: ``StripeWebhookError``, ``StripeWebhookError/Code/notAnEvent`` (with the path of
    ///   what failed) for a signed body that is not an event.
    public func event(from body: Data, signature header: String?) throws(StripeWebhookError) -> StripeEvent {
        try verify(body, signature: header)
        do {
            return try JSONDecoder().decode(StripeEvent.self, from: body)
        } catch {
            let (path, reason) = Self.describe(error)
            throw StripeWebhookError(
                code: .notAnEvent,
                message: "the body is not a Stripe event: \(path.isEmpty ? "" : "\(path): ")\(reason)",
                field: "body", value: path.isEmpty ? nil : path)
        }
    }

    /// The `Stripe-Signature` header Stripe sends for a body signed at `timestamp` under each of
    /// the secrets: what a test of a webhook route posts.
    public static func signatureHeader(
        for body: some Collection<UInt8>, timestamp: Int64, secrets: [String]
    ) -> String {
        let signed = Array("\(timestamp).".utf8) + body
        let signatures = secrets.map { secret in
            HMACSHA256.authenticationCode(for: signed, key: Array(secret.utf8)).map { byte in
                let hex = String(byte, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
        }
        return StripeSignatureHeader(timestamp: timestamp, signatures: signatures).headerValue
    }

    /// The bytes of a hexadecimal string; nil for anything else (such a signature matches none).
    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0, !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func describe(_ error: any Error) -> (path: String, reason: String) {
        guard let decoding = error as? DecodingError else { return ("", "\(error)") }
        switch decoding {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            var path = context.codingPath.map(\.stringValue).joined(separator: ".")
            if case .keyNotFound(let key, _) = decoding { path += (path.isEmpty ? "" : ".") + key.stringValue }
            return (path, context.debugDescription)
        @unknown default:
            return ("", "undecodable")
        }
    }
}
