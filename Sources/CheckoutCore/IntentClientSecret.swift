/// The client secret of a Stripe PaymentIntent or SetupIntent (spec P7).
///
/// ```swift
/// let secret = try IntentClientSecret("pi_3Mt_secret_abc")
/// secret.kind       // .paymentIntent
/// secret.intentID   // "pi_3Mt"
/// print(secret)     // pi_3Mt_secret_•••
/// ```
///
/// The forms accepted are `^pi_[^_]+_(scoped_)?secret_[^_]+$` and `^seti_[^_]+_secret_[^_]+$`.
/// The secret part never appears in ``description``, ``debugDescription``, `dump` output or an
/// error; ``unmaskedValue`` is the one way to read it. JSON carries the whole secret as a string,
/// since a backend needs it.
public struct IntentClientSecret: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// Which kind of intent a secret belongs to.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A PaymentIntent: `pi_…_secret_…` or `pi_…_scoped_secret_…`.
        case paymentIntent
        /// A SetupIntent: `seti_…_secret_…`.
        case setupIntent
    }

    /// PaymentIntent or SetupIntent.
    public let kind: Kind
    /// The intent's id: the part before `_secret_`, without `_scoped` (`pi_123`).
    public let intentID: String
    /// Whether this is a scoped PaymentIntent secret (`pi_…_scoped_secret_…`).
    public let isScoped: Bool
    /// The whole secret, in the clear. Pass it to a backend; never log it.
    public let unmaskedValue: String

    /// Parses a client secret.
    ///
    /// - Throws: ``CheckoutError`` with ``CheckoutError/Code/invalidClientSecret`` for any other
    ///   string; the error's value is masked.
    public init(_ text: String) throws {
        guard let parsed = Self.parse(text) else {
            throw CheckoutError(
                code: .invalidClientSecret,
                message: "\(Self.mask(text).quotedForMessage) is not a PaymentIntent (pi_…_secret_…) "
                    + "or SetupIntent (seti_…_secret_…) client secret",
                field: "clientSecret",
                value: Self.mask(text)
            )
        }
        (kind, intentID, isScoped) = parsed
        unmaskedValue = text
    }

    /// `pi_123_secret_•••`.
    public var description: String { Self.mask(unmaskedValue) }
    /// `IntentClientSecret(pi_123_secret_•••)`.
    public var debugDescription: String { "IntentClientSecret(\(description))" }
    /// Mirrors show the masked form only.
    public var customMirror: Mirror {
        Mirror(self, children: ["kind": kind, "intentID": intentID, "secret": description])
    }

    private static func parse(_ text: String) -> (Kind, String, Bool)? {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        switch (parts.count, parts.first) {
        case (4, "pi") where parts[2] == "secret":
            return (.paymentIntent, "pi_\(parts[1])", false)
        case (5, "pi") where parts[2] == "scoped" && parts[3] == "secret":
            return (.paymentIntent, "pi_\(parts[1])", true)
        case (4, "seti") where parts[2] == "secret":
            return (.setupIntent, "seti_\(parts[1])", false)
        default:
            return nil
        }
    }

    /// A string offered as a secret with everything after `_secret_` replaced; a string that is no
    /// secret at all is masked whole but for a short prefix, since it might be one mistyped.
    ///
    /// The search runs over Unicode scalars, not characters: a combining mark right after
    /// `_secret_` fuses with its `_` into one character, and a character-level search would miss
    /// the marker and show what follows it.
    package static func mask(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        let marker = Array("_secret_".unicodeScalars)
        if scalars.count >= marker.count {
            for start in 0...(scalars.count - marker.count)
            where scalars[start..<(start + marker.count)].elementsEqual(marker) {
                var visible = String.UnicodeScalarView()
                visible.append(contentsOf: scalars[..<(start + marker.count)])
                return String(visible) + "•••"
            }
        }
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: scalars.prefix(4))
        return String(prefix) + (scalars.count > 4 ? "•••" : "")
    }
}

extension IntentClientSecret: Codable {
    /// Decodes the whole secret from a bare string, validated as ``init(_:)`` does.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = try decoder.validating { try IntentClientSecret(text) }
    }

    /// Encodes the whole secret, unmasked, as a bare string: a backend needs it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(unmaskedValue)
    }
}
