/// Whether the customer may edit the shipping contact on the sheet (PassKit's
/// `PKShippingContactEditingMode`, Apple Pay on the web's `ApplePayShippingContactEditingMode`).
///
/// An open set: Apple may add modes, so any name is kept as it is; Apple Pay on the web's
/// validation (CheckoutWeb) refuses a name the browser does not know.
public struct ShippingContactEditingMode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The mode's name, as Apple Pay on the web spells it.
    public var rawValue: String
    /// A mode by its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name.
    public var description: String { rawValue }

    /// The customer may edit the contact (PassKit's `available`, formerly `enabled`).
    public static let available = ShippingContactEditingMode(rawValue: "available")
    /// The contact is a store's, chosen for pickup: the customer cannot edit it.
    public static let storePickup = ShippingContactEditingMode(rawValue: "storePickup")
    /// The modes Apple documents.
    public static let documented: [ShippingContactEditingMode] = [.available, .storePickup]

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
