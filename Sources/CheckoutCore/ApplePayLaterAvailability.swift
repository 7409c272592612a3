/// Whether the sheet may offer Apple Pay Later for the purchase (PassKit's
/// `PKApplePayLaterAvailability`, Apple Pay on the web's `ApplePayLaterAvailability`).
///
/// An open set: Apple may add reasons, so any name is kept as it is; Apple Pay on the web's
/// validation (CheckoutWeb) refuses a name the browser does not know.
public struct ApplePayLaterAvailability: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The value's name, as Apple Pay on the web spells it.
    public var rawValue: String
    /// A value by its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name.
    public var description: String { rawValue }

    /// Apple Pay Later may be offered, the default.
    public static let available = ApplePayLaterAvailability(rawValue: "available")
    /// An item of the purchase is not eligible.
    public static let unavailableItemIneligible = ApplePayLaterAvailability(rawValue: "unavailableItemIneligible")
    /// The purchase is a recurring transaction.
    public static let unavailableRecurringTransaction = ApplePayLaterAvailability(
        rawValue: "unavailableRecurringTransaction")
    /// The values Apple documents (WebKit's `ApplePayLaterAvailability.idl`).
    public static let documented: [ApplePayLaterAvailability] = [
        .available, .unavailableItemIneligible, .unavailableRecurringTransaction,
    ]

    /// Decodes the name as a string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the name as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
