import Foundation

/// A summary item paid at intervals (PassKit's `PKRecurringPaymentSummaryItem`): a subscription's
/// regular or trial billing.
///
/// ``PaymentRequest`` checks it (``PaymentRequest/problems``): its amount in the request's
/// currency and not negative, ``intervalCount`` at least 1, ``endDate`` not before
/// ``startDate``.
public struct RecurringPaymentSummaryItem: Hashable, Sendable, CustomStringConvertible {
    /// What the line is for.
    public var label: String
    /// The amount of each payment.
    public var amount: Money
    /// Final or pending.
    public var type: SummaryItemType
    /// The first payment's date; nil for now.
    public var startDate: Date?
    /// The unit of the interval between payments.
    public var intervalUnit: RecurringPaymentIntervalUnit
    /// How many units between payments: 1 or more.
    public var intervalCount: Int
    /// The last payment's date; nil for no end.
    public var endDate: Date?

    /// A recurring item, monthly unless told otherwise, with PassKit's defaults.
    public init(
        label: String,
        amount: Money,
        type: SummaryItemType = .final,
        startDate: Date? = nil,
        intervalUnit: RecurringPaymentIntervalUnit = .month,
        intervalCount: Int = 1,
        endDate: Date? = nil
    ) {
        self.label = label
        self.amount = amount
        self.type = type
        self.startDate = startDate
        self.intervalUnit = intervalUnit
        self.intervalCount = intervalCount
        self.endDate = endDate
    }

    /// `RecurringPaymentSummaryItem("Tea club", 9.99 USD every 1 month)`.
    public var description: String {
        "RecurringPaymentSummaryItem(\(label.quotedForMessage), \(amount) every \(intervalCount) \(intervalUnit))"
    }

    /// Every reason the item is not acceptable, with paths under `path`.
    package func problems(currency: CurrencyCode?, path: String) -> [CheckoutError] {
        var problems = termAmountProblems(amount, currency: currency, path: path + ".amount")
        if intervalCount < 1 {
            problems.append(
                CheckoutError(
                    code: .invalidField, message: "\(path).intervalCount \(intervalCount) must be 1 or more",
                    field: path + ".intervalCount", value: String(intervalCount)))
        }
        if let startDate, let endDate, endDate < startDate {
            problems.append(
                CheckoutError(
                    code: .invalidField,
                    message: "\(path).endDate \(ISO8601Date.string(endDate)) is before its startDate "
                        + ISO8601Date.string(startDate),
                    field: path + ".endDate", value: ISO8601Date.string(endDate)))
        }
        return problems
    }
}

extension RecurringPaymentSummaryItem: Codable {
    private enum CodingKeys: String, CodingKey {
        case label, amount, type, startDate, intervalUnit, intervalCount, endDate
    }

    /// Decodes the members by their names, dates as ISO 8601 strings; `type`, `intervalUnit` and
    /// `intervalCount` default as the initializer does. An unknown key is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "RecurringPaymentSummaryItem")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            label: try container.decode(String.self, forKey: .label),
            amount: try container.decode(Money.self, forKey: .amount),
            type: try container.decodeIfPresent(SummaryItemType.self, forKey: .type) ?? .final,
            startDate: try container.decodeISO8601DateIfPresent(forKey: .startDate),
            intervalUnit: try container.decodeIfPresent(RecurringPaymentIntervalUnit.self, forKey: .intervalUnit)
                ?? .month,
            intervalCount: try container.decodeIfPresent(Int.self, forKey: .intervalCount) ?? 1,
            endDate: try container.decodeISO8601DateIfPresent(forKey: .endDate)
        )
    }

    /// Encodes every member; absent dates are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encode(amount, forKey: .amount)
        try container.encode(type, forKey: .type)
        try container.encodeISO8601DateIfPresent(startDate, forKey: .startDate)
        try container.encode(intervalUnit, forKey: .intervalUnit)
        try container.encode(intervalCount, forKey: .intervalCount)
        try container.encodeISO8601DateIfPresent(endDate, forKey: .endDate)
    }
}

/// The problems of an amount of a payment's terms (a billing item's, a threshold's, a token
/// context's): in `currency` (when known) and not negative.
package func termAmountProblems(_ amount: Money, currency: CurrencyCode?, path: String) -> [CheckoutError] {
    var problems: [CheckoutError] = []
    if let problem = amount.currencyProblem(expected: currency, path: path) { problems.append(problem) }
    if amount.isNegative {
        problems.append(
            CheckoutError(
                code: .negativeAmount, message: "\(path) \(amount) must not be negative", field: path,
                value: amount.description))
    }
    return problems
}
