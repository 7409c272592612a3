import CheckoutCore

/// Apple Pay on the web's `ApplePayLineItemType`: whether an amount is known.
public enum ApplePayLineItemType: String, Codable, Hashable, Sendable, CaseIterable {
    /// The amount is not known yet (core ``/CheckoutCore/SummaryItemType/pending``).
    case pending
    /// The amount is final (core ``/CheckoutCore/SummaryItemType/final``), the default.
    case final
}

/// Apple Pay on the web's `ApplePayPaymentTiming`: when a line item is paid.
public enum ApplePayPaymentTiming: String, Codable, Hashable, Sendable, CaseIterable {
    /// Paid now, the default.
    case immediate
    /// Paid at intervals.
    case recurring
    /// Paid at a later date.
    case deferred
    /// Paid when a balance falls below a threshold.
    case automaticReload
}

/// Apple Pay on the web's `ApplePayRecurringPaymentDateUnit`.
public enum ApplePayRecurringPaymentDateUnit: String, Codable, Hashable, Sendable, CaseIterable {
    /// Years.
    case year
    /// Months.
    case month
    /// Days.
    case day
    /// Hours.
    case hour
    /// Minutes.
    case minute
}

/// Apple Pay on the web's `ApplePayLineItem`: a line of the sheet's summary, or its total.
///
/// The amount is a decimal string in the request's currency, kept as the page sent it; dates
/// are kept as the strings the page's `Date` values serialise to. Conversion to ``/CheckoutCore/SummaryItem``
/// (``core(currency:)``) needs the currency and keeps `label`, `amount` and `type`; the
/// payment-timing members (`paymentTiming` other than immediate and the recurring, deferred and
/// automatic-reload members) have no core counterpart and stay on this value
/// (``membersWithoutCoreCounterpart``).
public struct ApplePayLineItem: Codable, Hashable, Sendable {
    /// Final (the default when absent) or pending.
    public var type: ApplePayLineItemType?
    /// What the line is for; for the total, the merchant's name.
    public var label: String
    /// The amount, a decimal string such as `"12.50"`, in the request's currency; `""` for a
    /// pending item sent without one (WebKit accepts a pending line item without an amount).
    public var amount: String
    /// When the item is paid; absent means immediately.
    public var paymentTiming: ApplePayPaymentTiming?
    /// The first recurring payment's date.
    public var recurringPaymentStartDate: String?
    /// The unit of the recurring interval (default month).
    public var recurringPaymentIntervalUnit: ApplePayRecurringPaymentDateUnit?
    /// How many units between recurring payments (default 1).
    public var recurringPaymentIntervalCount: Int?
    /// The last recurring payment's date.
    public var recurringPaymentEndDate: String?
    /// The deferred payment's date.
    public var deferredPaymentDate: String?
    /// The balance below which an automatic reload happens, a decimal string.
    public var automaticReloadPaymentThresholdAmount: String?

    /// A line item; only the label and the amount are needed.
    public init(
        type: ApplePayLineItemType? = nil,
        label: String,
        amount: String,
        paymentTiming: ApplePayPaymentTiming? = nil,
        recurringPaymentStartDate: String? = nil,
        recurringPaymentIntervalUnit: ApplePayRecurringPaymentDateUnit? = nil,
        recurringPaymentIntervalCount: Int? = nil,
        recurringPaymentEndDate: String? = nil,
        deferredPaymentDate: String? = nil,
        automaticReloadPaymentThresholdAmount: String? = nil
    ) {
        self.type = type
        self.label = label
        self.amount = amount
        self.paymentTiming = paymentTiming
        self.recurringPaymentStartDate = recurringPaymentStartDate
        self.recurringPaymentIntervalUnit = recurringPaymentIntervalUnit
        self.recurringPaymentIntervalCount = recurringPaymentIntervalCount
        self.recurringPaymentEndDate = recurringPaymentEndDate
        self.deferredPaymentDate = deferredPaymentDate
        self.automaticReloadPaymentThresholdAmount = automaticReloadPaymentThresholdAmount
    }

    private enum CodingKeys: String, CodingKey {
        case type, label, amount, paymentTiming, recurringPaymentStartDate, recurringPaymentIntervalUnit
        case recurringPaymentIntervalCount, recurringPaymentEndDate, deferredPaymentDate
        case automaticReloadPaymentThresholdAmount
    }

    /// Decodes every member; `amount` may be absent on a pending item (it is then `""`), as WebKit
    /// accepts such an item (`ApplePaySession.cpp`, LayoutTests `ApplePaySession.html`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decodeIfPresent(ApplePayLineItemType.self, forKey: .type)
        let amount =
            type == .pending
            ? try container.decodeIfPresent(String.self, forKey: .amount) ?? ""
            : try container.decode(String.self, forKey: .amount)
        self.init(
            type: type,
            label: try container.decode(String.self, forKey: .label),
            amount: amount,
            paymentTiming: try container.decodeIfPresent(ApplePayPaymentTiming.self, forKey: .paymentTiming),
            recurringPaymentStartDate: try container.decodeIfPresent(String.self, forKey: .recurringPaymentStartDate),
            recurringPaymentIntervalUnit: try container.decodeIfPresent(
                ApplePayRecurringPaymentDateUnit.self, forKey: .recurringPaymentIntervalUnit),
            recurringPaymentIntervalCount: try container.decodeIfPresent(
                Int.self, forKey: .recurringPaymentIntervalCount),
            recurringPaymentEndDate: try container.decodeIfPresent(String.self, forKey: .recurringPaymentEndDate),
            deferredPaymentDate: try container.decodeIfPresent(String.self, forKey: .deferredPaymentDate),
            automaticReloadPaymentThresholdAmount: try container.decodeIfPresent(
                String.self, forKey: .automaticReloadPaymentThresholdAmount)
        )
    }

    /// The core summary item, with `amount` read in `currency`; a pending item without an amount
    /// is a pending zero.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with field `amount` when the string is not an amount of
    ///   `currency` (malformed, finer than its minor unit, out of range).
    public func core(currency: CurrencyCode) throws -> SummaryItem {
        let isPending = type == .pending
        return SummaryItem(
            label: label,
            amount: isPending && amount.isEmpty
                ? .zero(currency) : try wireMoney(amount, currency: currency, path: "amount"),
            type: isPending ? .pending : .final
        )
    }

    /// The members present here that ``core(currency:)`` has no place for, by their wire names.
    public var membersWithoutCoreCounterpart: [String] {
        var names: [String] = []
        if let paymentTiming, paymentTiming != .immediate { names.append("paymentTiming") }
        if recurringPaymentStartDate != nil { names.append("recurringPaymentStartDate") }
        if recurringPaymentIntervalUnit != nil { names.append("recurringPaymentIntervalUnit") }
        if recurringPaymentIntervalCount != nil { names.append("recurringPaymentIntervalCount") }
        if recurringPaymentEndDate != nil { names.append("recurringPaymentEndDate") }
        if deferredPaymentDate != nil { names.append("deferredPaymentDate") }
        if automaticReloadPaymentThresholdAmount != nil { names.append("automaticReloadPaymentThresholdAmount") }
        return names
    }

    /// The core summary item as Apple's line item: the amount as a string with the currency's
    /// minor digits, `type` written out (`"final"` or `"pending"`).
    public init(_ core: SummaryItem) {
        self.init(type: core.type == .pending ? .pending : .final, label: core.label, amount: core.amount.amountString)
    }
}

extension [ApplePayLineItem] {
    /// The items in the core's terms, each error naming `path[index].…`.
    func core(currency: CurrencyCode, path: String) throws -> [SummaryItem] {
        try enumerated().map { index, item in try inside("\(path)[\(index)]") { try item.core(currency: currency) } }
    }
}

/// Splits core summary items into Apple's `total` (the last) and line items (the others).
///
/// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/emptyList`` naming `field` when there
///   are no items: Apple requires a total.
func appleTotalAndLineItems(_ items: [SummaryItem], field: String) throws -> (ApplePayLineItem, [ApplePayLineItem]) {
    guard let last = items.last else {
        throw CheckoutError(
            code: .emptyList,
            message: "\(field) is empty: Apple Pay needs a total, the last summary item",
            field: field
        )
    }
    return (ApplePayLineItem(last), items.dropLast().map(ApplePayLineItem.init))
}
