import CheckoutCore

/// A line of the Express Checkout Element's payment interface: `{name, amount}`, the amount an
/// integer in the currency's smallest unit (stripe-js `LineItem`; source:
/// docs.stripe.com/js/elements_object/express_checkout_element_click_event, `resolve`'s
/// `lineItems`). A discount is a line with a negative amount.
///
/// `name` ↔ ``/CheckoutCore/SummaryItem/label``, `amount` ↔ ``/CheckoutCore/SummaryItem/amount``
/// through ``/CheckoutCore/Money``. The element has no pending type: a pending core item cannot
/// be written.
public struct ExpressCheckoutLineItem: Codable, Hashable, Sendable {
    /// What the line is for.
    public var name: String
    /// The amount in the currency's smallest unit as Stripe counts it.
    public var amount: Int64

    /// A line.
    public init(name: String, amount: Int64) {
        self.name = name
        self.amount = amount
    }

    private enum CodingKeys: String, CodingKey { case name, amount }

    /// Reads `{name, amount}`; an amount that is not an integer is refused with its path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        amount = try container.decodeExpressCheckoutAmount(forKey: .amount)
    }

    /// The core summary item in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `amount` when it has no exact value in
    ///   `currency`.
    public func core(currency: CurrencyCode) throws -> SummaryItem {
        SummaryItem(label: name, amount: try ExpressCheckoutAmount.money(amount, currency: currency, path: "amount"))
    }

    /// The core item as a line.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `amount` when Stripe's digits cannot carry
    ///   it, or `type` for a pending item (the element shows every amount as final).
    public init(_ core: SummaryItem) throws {
        guard core.type == .final else {
            throw unmappable("type", core.type.rawValue, "has no Express Checkout form: every line is final")
        }
        self.init(name: core.label, amount: try ExpressCheckoutAmount.integer(core.amount, path: "amount"))
    }
}
