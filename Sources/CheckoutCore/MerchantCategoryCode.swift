/// The merchant's category (PassKit's `PKMerchantCategoryCode`, Apple Pay on the web's
/// `merchantCategoryCode`): an ISO 18245 code of four digits, such as `5411` for grocery stores.
///
/// Kept as its four digits (a code may start with zeros, `0742`); ``PaymentRequest/problems``
/// refuses a value that is not four ASCII digits, naming `merchantCategoryCode`.
public struct MerchantCategoryCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The four digits.
    public var rawValue: String
    /// A code by its digits (checked by the request's validation).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The digits.
    public var description: String { rawValue }

    /// Whether the code is four ASCII digits.
    public var isWellFormed: Bool {
        rawValue.utf8.count == 4 && rawValue.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Decodes the digits as a string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the digits as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
