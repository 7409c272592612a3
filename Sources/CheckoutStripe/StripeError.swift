import CheckoutCore

/// An error from Stripe's API, keeping Stripe's error `type`, `code` and `decline_code`.
public struct StripeError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// `card_error`, `invalid_request_error`, `api_error`, ...
    public var type: String
    /// Stripe's error code: `card_declined`, `incorrect_zip`, `expired_card`, ...
    public var code: String?
    /// For a declined card: `generic_decline`, `insufficient_funds`, `lost_card`, ...
    public var declineCode: String?
    /// Stripe's message.
    public var message: String

    /// An error with Stripe's type, code, decline code and message.
    public init(type: String, code: String? = nil, declineCode: String? = nil, message: String) {
        self.type = type
        self.code = code
        self.declineCode = declineCode
        self.message = message
    }

    /// Whether this is a card error (`type == "card_error"`).
    public var isCardError: Bool { type == "card_error" }

    /// `type/code/declineCode: message`, such as
    /// `card_error/card_declined/generic_decline: Your card was declined.`.
    public var description: String {
        "\(type)" + (code.map { "/\($0)" } ?? "") + (declineCode.map { "/\($0)" } ?? "") + ": \(message)"
    }

    private enum CodingKeys: String, CodingKey {
        case type
        case code
        case declineCode = "decline_code"
        case message
    }
}
