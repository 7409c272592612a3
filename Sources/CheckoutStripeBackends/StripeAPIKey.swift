import CheckoutStripe

/// A Stripe API key: secret (`sk_…`), restricted (`rk_…`) or publishable (`pk_…`); masked in
/// every description, mirror and error (spec P9).
public struct StripeAPIKey: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// What the key may do.
    public enum Kind: String, Hashable, Sendable {
        /// `sk_…` or `rk_…`: the merchant's server; retrieves and confirms by intent id.
        case secret
        /// `pk_…`: a client; retrieves and confirms with the intent's client secret.
        case publishable
    }

    /// Secret or publishable.
    public let kind: Kind
    /// Whether the key is a test-mode key (`…_test_…`).
    public let isTestMode: Bool
    /// The whole key, in the clear. Send it to Stripe; never log it.
    public let unmaskedValue: String

    /// Parses a key.
    ///
    /// - Throws: ``/CheckoutStripe/StripeError`` `invalid_request_error` / `api_key_invalid` (Stripe's
    ///   "invalid API key") for a string that is not one; the message never shows the string.
    public init(_ text: String) throws {
        let parts = text.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, ["sk", "rk", "pk"].contains(parts[0]), ["test", "live"].contains(parts[1]),
            !parts[2].isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else {
            throw StripeError(
                type: "invalid_request_error", code: "api_key_invalid",
                message: "The API key is not a Stripe key (sk_…, rk_… or pk_…, test or live).")
        }
        kind = parts[0] == "pk" ? .publishable : .secret
        isTestMode = parts[1] == "test"
        unmaskedValue = text
    }

    /// `sk_test_•••`: the kind and mode, never the secret part.
    public var description: String {
        String(unmaskedValue.split(separator: "_", maxSplits: 2).prefix(2).joined(separator: "_")) + "_•••"
    }
    /// `StripeAPIKey(sk_test_•••)`.
    public var debugDescription: String { "StripeAPIKey(\(description))" }
    /// Mirrors show the masked form only.
    public var customMirror: Mirror { Mirror(self, children: ["kind": kind, "key": description]) }
}
