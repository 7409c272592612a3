import CheckoutCore

/// An intent's `next_action`: what the customer must do, such as `use_stripe_sdk` for 3-D
/// Secure or `redirect_to_url`. The action's own hash (`use_stripe_sdk`, `redirect_to_url`'s
/// `return_url`, `display_bank_transfer_instructions`, ...) is kept in ``unmodeledFields`` and
/// written back; read it with ``StripeFieldReading/field(_:)``.
public struct StripeNextAction: Hashable, Sendable, Codable, StripeFieldReading {
    /// `use_stripe_sdk`, `redirect_to_url`, `verify_with_microdeposits`, ...
    public var type: String
    /// For `redirect_to_url`: where to send the customer.
    public var redirectURL: String?
    /// Every field of Stripe's hash, as Stripe sent it, but `type`.
    public var unmodeledFields: [String: JSONValue] = [:]

    /// A next action of this type.
    public init(type: String, redirectURL: String? = nil) {
        self.type = type
        self.redirectURL = redirectURL
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case type
    }

    /// Decodes Stripe's `next_action` hash.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        unmodeledFields = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
        redirectURL = unmodeledFields["redirect_to_url"]?.value(at: "url")?.stringValue
    }

    /// Encodes Stripe's `next_action` hash; ``redirectURL`` goes into `redirect_to_url.url`.
    public func encode(to encoder: any Encoder) throws {
        var kept = unmodeledFields
        if let redirectURL {
            var redirect = kept["redirect_to_url"]?.objectValue ?? [:]
            redirect["url"] = .string(redirectURL)
            kept["redirect_to_url"] = .object(redirect)
        }
        try StripeUnmodeledFields.write(kept, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
    }
}
