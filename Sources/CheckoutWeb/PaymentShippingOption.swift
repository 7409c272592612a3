import CheckoutCore

/// The W3C Payment Request `PaymentShippingOption`: `{id, label, amount, selected}`.
///
/// `id` ↔ ``/CheckoutCore/ShippingMethod/identifier``, `label` ↔ ``/CheckoutCore/ShippingMethod/label``, `amount` ↔
/// ``/CheckoutCore/ShippingMethod/amount``. The core method has no detail or delivery range on the W3C side
/// (``init(_:selected:)`` leaves them out) and no `selected` flag: the core keeps the selection
/// on the flow, so ``PaymentDetailsUpdate`` passes it as an identifier.
public struct PaymentShippingOption: Codable, Hashable, Sendable {
    /// Identifies the option within the request.
    public var id: String
    /// What the browser shows.
    public var label: String
    /// The cost.
    public var amount: PaymentCurrencyAmount
    /// Whether this option is the selected one (default false).
    public var selected: Bool?

    /// An option.
    public init(id: String, label: String, amount: PaymentCurrencyAmount, selected: Bool? = nil) {
        self.id = id
        self.label = label
        self.amount = amount
        self.selected = selected
    }

    /// The core shipping method (no detail, no delivery range).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `amount.currency` or `amount.value`.
    public func core() throws -> ShippingMethod {
        ShippingMethod(identifier: id, label: label, amount: try inside("amount") { try amount.core() })
    }

    /// The core method as an option; `selected` is written only when true. The core `detail` and
    /// delivery range have no W3C member and are not carried.
    public init(_ core: ShippingMethod, selected: Bool = false) {
        self.init(
            id: core.identifier, label: core.label, amount: PaymentCurrencyAmount(core.amount),
            selected: selected ? true : nil)
    }
}
