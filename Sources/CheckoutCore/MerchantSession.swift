import Foundation

/// What the sheet asks a merchant for when it needs a merchant session: PassKit's
/// `didRequestMerchantSessionUpdate`, Apple Pay on the web's `onvalidatemerchant` (spec W5).
public struct MerchantSessionRequest: Hashable, Sendable, Codable {
    /// The URL the merchant's server posts its merchant identity to (Apple Pay on the web's
    /// `validationURL`).
    public var validationURL: URL

    /// A request for a merchant session from `validationURL`.
    public init(validationURL: URL) {
        self.validationURL = validationURL
    }
}

/// An opaque merchant session, as Apple's server returned it: its JSON text, passed on unchanged
/// and never shown (its description and every transcript say only that there is one).
public struct MerchantSession: Hashable, Sendable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The session's JSON, as Apple's server returned it.
    public let json: String

    /// A merchant session whose JSON is `json`.
    public init(json: String) {
        self.json = json
    }

    public init(from decoder: any Decoder) throws {
        json = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(json)
    }

    /// Says that there is a session, never what it holds.
    public var description: String { "MerchantSession(\(json.utf8.count) bytes, not shown)" }

    public var debugDescription: String { description }
}

/// The merchant's answer to a merchant-session request (PassKit's
/// `PKPaymentRequestMerchantSessionUpdate`): the session, or a failure, which ends the flow as a
/// failed merchant validation ends Apple Pay's sheet.
public struct MerchantSessionUpdate: Hashable, Sendable, Codable {
    /// Whether the merchant got a session.
    public enum Status: String, Hashable, Sendable, Codable {
        case success
        case failure
    }

    private enum CodingKeys: String, CodingKey {
        case status
        case merchantSession
    }

    /// Set on the update a flow makes for a delegate that does not implement the optional
    /// method (spec A9), so that the transcript can say a default answered.
    package var isDefaultAnswer = false

    /// Whether the merchant got a session.
    public var status: Status
    /// The session, with ``Status/success``.
    public var merchantSession: MerchantSession?

    /// An update with `status` and, on success, the session.
    public init(status: Status, merchantSession: MerchantSession? = nil) {
        self.status = status
        self.merchantSession = merchantSession
    }

    /// The update that carries `session`.
    public static func success(_ session: MerchantSession) -> MerchantSessionUpdate {
        MerchantSessionUpdate(status: .success, merchantSession: session)
    }

    /// The update that says no session could be had.
    public static var failure: MerchantSessionUpdate { MerchantSessionUpdate(status: .failure) }

    /// Whether the update carries a session to pass on.
    public var isSuccess: Bool { status == .success && merchantSession != nil }
}
