/// The body of a Stripe API error response: `{"error": {...}}`.
public struct StripeErrorResponse: Hashable, Sendable, Codable {
    /// The error object.
    public var error: StripeError

    /// The envelope around an error.
    public init(error: StripeError) { self.error = error }
}
