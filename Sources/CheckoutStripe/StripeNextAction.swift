/// An intent's `next_action`: what the customer must do, such as `use_stripe_sdk` for 3-D
/// Secure or `redirect_to_url`.
public struct StripeNextAction: Hashable, Sendable, Codable {
    /// `use_stripe_sdk`, `redirect_to_url`, `verify_with_microdeposits`, ...
    public var type: String
    /// For `redirect_to_url`: where to send the customer.
    public var redirectURL: String?

    /// A next action of this type.
    public init(type: String, redirectURL: String? = nil) {
        self.type = type
        self.redirectURL = redirectURL
    }

    private enum CodingKeys: String, CodingKey {
        case type
        case redirectToURL = "redirect_to_url"
    }

    private enum RedirectKeys: String, CodingKey {
        case url
    }

    /// Decodes Stripe's `next_action` hash.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        if container.contains(.redirectToURL), try !container.decodeNil(forKey: .redirectToURL) {
            let redirect = try container.nestedContainer(keyedBy: RedirectKeys.self, forKey: .redirectToURL)
            redirectURL = try redirect.decodeIfPresent(String.self, forKey: .url)
        }
    }

    /// Encodes Stripe's `next_action` hash.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        if let redirectURL {
            var redirect = container.nestedContainer(keyedBy: RedirectKeys.self, forKey: .redirectToURL)
            try redirect.encode(redirectURL, forKey: .url)
        }
    }
}
