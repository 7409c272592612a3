import Foundation

/// A summary item paid at a later date (PassKit's `PKDeferredPaymentSummaryItem`): a hotel
/// booked now and charged at check-in.
public struct DeferredPaymentSummaryItem: Hashable, Sendable, CustomStringConvertible {
    /// What the line is for.
    public var label: String
    /// The amount to be paid.
    public var amount: Money
    /// Final or pending.
    public var type: SummaryItemType
    /// When the payment is taken.
    public var deferredDate: Date

    /// A deferred item.
    public init(label: String, amount: Money, type: SummaryItemType = .final, deferredDate: Date) {
        self.label = label
        self.amount = amount
        self.type = type
        self.deferredDate = deferredDate
    }

    /// `DeferredPaymentSummaryItem("Stay", 120.00 USD on 2025-01-08T00:00:00.000Z)`.
    public var description: String {
        "DeferredPaymentSummaryItem(\(label.quotedForMessage), \(amount) on \(ISO8601Date.string(deferredDate)))"
    }

    /// Every reason the item is not acceptable, with paths under `path`.
    package func problems(currency: CurrencyCode?, path: String) -> [CheckoutError] {
        termAmountProblems(amount, currency: currency, path: path + ".amount")
    }
}

extension DeferredPaymentSummaryItem: Codable {
    private enum CodingKeys: String, CodingKey {
        case label, amount, type, deferredDate
    }

    /// Decodes the members by their names, `deferredDate` an ISO 8601 string; `type` defaults to
    /// `final`. An unknown key is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "DeferredPaymentSummaryItem")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            label: try container.decode(String.self, forKey: .label),
            amount: try container.decode(Money.self, forKey: .amount),
            type: try container.decodeIfPresent(SummaryItemType.self, forKey: .type) ?? .final,
            deferredDate: try container.decodeISO8601Date(forKey: .deferredDate)
        )
    }

    /// Encodes every member.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encode(amount, forKey: .amount)
        try container.encode(type, forKey: .type)
        try container.encode(ISO8601Date.string(deferredDate), forKey: .deferredDate)
    }
}
