import CheckoutCore

/// The W3C Payment Request `PaymentDetailsModifier`: details that apply when the payer uses a
/// given payment method. The core has no counterpart; ``PaymentDetailsUpdate`` keeps these as
/// they are.
public struct PaymentDetailsModifier: Codable, Hashable, Sendable {
    /// The payment method identifier the modifier applies to, such as `https://apple.com/apple-pay`.
    public var supportedMethods: String
    /// The total that replaces the details' total for that method.
    public var total: PaymentItem?
    /// Items shown in addition to the display items for that method.
    public var additionalDisplayItems: [PaymentItem]?
    /// Method-specific data, kept as it is.
    public var data: JSONValue?

    /// A modifier.
    public init(
        supportedMethods: String,
        total: PaymentItem? = nil,
        additionalDisplayItems: [PaymentItem]? = nil,
        data: JSONValue? = nil
    ) {
        self.supportedMethods = supportedMethods
        self.total = total
        self.additionalDisplayItems = additionalDisplayItems
        self.data = data
    }
}
