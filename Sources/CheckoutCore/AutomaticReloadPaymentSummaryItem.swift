/// A summary item paid when a balance falls below a threshold (PassKit's
/// `PKAutomaticReloadPaymentSummaryItem`): a transit card topped up automatically.
public struct AutomaticReloadPaymentSummaryItem: Hashable, Sendable, CustomStringConvertible {
    /// What the line is for.
    public var label: String
    /// The amount of each reload.
    public var amount: Money
    /// Final or pending.
    public var type: SummaryItemType
    /// The balance below which a reload happens, in the request's currency.
    public var thresholdAmount: Money

    /// An automatic-reload item.
    public init(label: String, amount: Money, type: SummaryItemType = .final, thresholdAmount: Money) {
        self.label = label
        self.amount = amount
        self.type = type
        self.thresholdAmount = thresholdAmount
    }

    /// `AutomaticReloadPaymentSummaryItem("Top-up", 20.00 USD below 5.00 USD)`.
    public var description: String {
        "AutomaticReloadPaymentSummaryItem(\(label.quotedForMessage), \(amount) below \(thresholdAmount))"
    }

    /// Every reason the item is not acceptable, with paths under `path`.
    package func problems(currency: CurrencyCode?, path: String) -> [CheckoutError] {
        termAmountProblems(amount, currency: currency, path: path + ".amount")
            + termAmountProblems(thresholdAmount, currency: currency, path: path + ".thresholdAmount")
    }
}

extension AutomaticReloadPaymentSummaryItem: Codable {
    private enum CodingKeys: String, CodingKey {
        case label, amount, type, thresholdAmount
    }

    /// Decodes the members by their names; `type` defaults to `final`. An unknown key is refused
    /// with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "AutomaticReloadPaymentSummaryItem")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            label: try container.decode(String.self, forKey: .label),
            amount: try container.decode(Money.self, forKey: .amount),
            type: try container.decodeIfPresent(SummaryItemType.self, forKey: .type) ?? .final,
            thresholdAmount: try container.decode(Money.self, forKey: .thresholdAmount)
        )
    }

    /// Encodes every member.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encode(amount, forKey: .amount)
        try container.encode(type, forKey: .type)
        try container.encode(thresholdAmount, forKey: .thresholdAmount)
    }
}
