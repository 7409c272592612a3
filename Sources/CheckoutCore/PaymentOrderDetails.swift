import Foundation

/// An order the customer can track in Wallet after paying (PassKit's `PKPaymentOrderDetails`,
/// Apple Pay on the web's `ApplePayPaymentOrderDetails`), set on a successful
/// ``PaymentAuthorizationResult``.
///
/// The authentication token is a secret between Wallet and the merchant's order web service: a
/// description shows it masked, and so does a transcript's JSON (spec E8), which encodes this value
/// with `CodingUserInfoKey.checkoutMasksSecrets` set. Other JSON (scenario files, a
/// relay's answer to its page) carries it whole.
public struct PaymentOrderDetails: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The order type's identifier, such as `order.com.example.shop`.
    public var orderTypeIdentifier: String
    /// The order's identifier within its type.
    public var orderIdentifier: String
    /// The URL of the merchant's order web service.
    public var webServiceURL: URL
    /// The token that authenticates Wallet to that service.
    public var authenticationToken: String

    /// Order details, with PassKit's labels.
    public init(orderTypeIdentifier: String, orderIdentifier: String, webServiceURL: URL, authenticationToken: String) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.webServiceURL = webServiceURL
        self.authenticationToken = authenticationToken
    }

    /// `PaymentOrderDetails(order.com.example.shop/ORDER-1, token: •••)`.
    public var description: String {
        "PaymentOrderDetails(\(orderTypeIdentifier)/\(orderIdentifier), token: •••)"
    }

    private enum CodingKeys: String, CodingKey {
        case orderTypeIdentifier, orderIdentifier, webServiceURL, authenticationToken
    }

    /// Decodes the four members, all required (`webServiceURL` an absolute URL string); an
    /// unknown key is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "PaymentOrderDetails")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .webServiceURL)
        guard let url = URL(string: text), url.scheme != nil else {
            throw DecodingError.dataCorruptedError(
                forKey: .webServiceURL, in: container, debugDescription: "webServiceURL \(text) is not an absolute URL")
        }
        self.init(
            orderTypeIdentifier: try container.decode(String.self, forKey: .orderTypeIdentifier),
            orderIdentifier: try container.decode(String.self, forKey: .orderIdentifier),
            webServiceURL: url,
            authenticationToken: try container.decode(String.self, forKey: .authenticationToken)
        )
    }

    /// Encodes the four members, `webServiceURL` as its string; the token as `•••` when the
    /// encoder masks secrets (a transcript).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(orderTypeIdentifier, forKey: .orderTypeIdentifier)
        try container.encode(orderIdentifier, forKey: .orderIdentifier)
        try container.encode(webServiceURL.absoluteString, forKey: .webServiceURL)
        let masks = encoder.userInfo[.checkoutMasksSecrets] as? Bool == true
        try container.encode(masks ? "•••" : authenticationToken, forKey: .authenticationToken)
    }
}

extension CodingUserInfoKey {
    /// Set to `true` by the encoders that write a transcript's JSON (spec E8): a model that holds
    /// a secret writes it masked.
    public static let checkoutMasksSecrets = CodingUserInfoKey(rawValue: "checkoutMasksSecrets")!
}
