import CheckoutCore

/// The body of a Stripe API error response: `{"error": {...}}`; other fields are kept in
/// ``unmodeledFields`` and written back.
public struct StripeErrorResponse: Hashable, Sendable, Codable {
    /// The error object.
    public var error: StripeError
    /// Every field of the body but `error`, as Stripe sent it.
    public var unmodeledFields: [String: JSONValue] = [:]

    /// The envelope around an error.
    public init(error: StripeError) { self.error = error }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case error
    }

    /// Decodes Stripe's error body.
    public init(from decoder: any Decoder) throws {
        error = try decoder.container(keyedBy: CodingKeys.self).decode(StripeError.self, forKey: .error)
        unmodeledFields = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
    }

    /// Encodes Stripe's error body.
    public func encode(to encoder: any Encoder) throws {
        try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(error, forKey: .error)
    }
}
