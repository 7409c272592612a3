import CheckoutCore

/// The W3C Payment Request `PaymentItem`: a display item or the total.
///
/// `pending: true` ↔ ``/CheckoutCore/SummaryItemType/pending``; absent or false ↔ ``/CheckoutCore/SummaryItemType/final``.
public struct PaymentItem: Codable, Hashable, Sendable {
    /// What the item is for.
    public var label: String
    /// The amount.
    public var amount: PaymentCurrencyAmount
    /// Whether the amount may still change (default false).
    public var pending: Bool?

    /// An item.
    public init(label: String, amount: PaymentCurrencyAmount, pending: Bool? = nil) {
        self.label = label
        self.amount = amount
        self.pending = pending
    }

    /// The core summary item.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `amount.currency` or `amount.value`.
    public func core() throws -> SummaryItem {
        SummaryItem(
            label: label,
            amount: try inside("amount") { try amount.core() },
            type: pending == true ? .pending : .final
        )
    }

    /// The core item; a pending one has `pending: true`, a final one no `pending` member.
    public init(_ core: SummaryItem) {
        self.init(
            label: core.label, amount: PaymentCurrencyAmount(core.amount), pending: core.type == .pending ? true : nil)
    }
}
