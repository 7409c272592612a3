/// How the goods reach the customer (PassKit's `PKShippingType`).
public enum ShippingType: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Shipped to an address (the default).
    case shipping
    /// Delivered, typically the same day.
    case delivery
    /// Collected by the customer at a store.
    case storePickup
    /// Collected from the customer, as for a repair service.
    case servicePickup

    /// The type's name, such as `storePickup`.
    public var description: String { rawValue }
}

/// A calendar day, `"2026-12-24"` in JSON, for delivery estimates.
public struct CalendarDay: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The year, 1 to 9999.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, from 1.
    public let day: Int

    /// A day of the proleptic Gregorian calendar.
    ///
    /// - Throws: ``CheckoutError/Code/invalidField`` for a day that does not exist (2026-02-29).
    public init(year: Int, month: Int, day: Int) throws {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day)
        else {
            throw CheckoutError(
                code: .invalidField,
                message: "\(year)-\(month)-\(day) is not a calendar day",
                field: "date",
                value: "\(year)-\(month)-\(day)"
            )
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`.
    ///
    /// - Throws: ``CheckoutError/Code/invalidField`` for anything else.
    public init(_ text: String) throws {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else {
            throw CheckoutError(
                code: .invalidField,
                message: "date \(text.quotedForMessage) is not of the form YYYY-MM-DD",
                field: "date",
                value: text.clippedForError
            )
        }
        try self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Orders days chronologically.
    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension CalendarDay: Codable {
    /// Decodes from a `YYYY-MM-DD` string, validated as ``init(_:)-(String)`` does.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = try decoder.validating { try CalendarDay(text) }
    }

    /// Encodes as a `YYYY-MM-DD` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The days between which a shipping method delivers (PassKit's `PKDateComponentsRange`).
public struct DeliveryDateRange: Hashable, Sendable, Codable {
    /// The earliest day.
    public let start: CalendarDay
    /// The latest day, not before ``start``.
    public let end: CalendarDay

    /// - Throws: ``CheckoutError/Code/invalidField`` when `end` is before `start`.
    public init(start: CalendarDay, end: CalendarDay) throws {
        guard start <= end else {
            throw CheckoutError(
                code: .invalidField,
                message: "delivery range ends (\(end)) before it starts (\(start))",
                field: "end",
                value: end.description
            )
        }
        self.start = start
        self.end = end
    }

    private enum CodingKeys: String, CodingKey {
        case start
        case end
    }

    /// Decodes `{"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"}`, validated as
    /// ``init(start:end:)-(CalendarDay,_)`` does.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "DeliveryDateRange")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decode(CalendarDay.self, forKey: .start)
        let end = try container.decode(CalendarDay.self, forKey: .end)
        self = try decoder.validating(at: CodingKeys.end) { try DeliveryDateRange(start: start, end: end) }
    }
}

/// A way to ship the order and its cost (PassKit's `PKShippingMethod`).
public struct ShippingMethod: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Identifies the method within a request; unique among a request's methods.
    public var identifier: String
    /// A short name, such as "Express".
    public var label: String
    /// More detail, such as "Arrives in 1-2 days".
    public var detail: String?
    /// The cost, zero or more.
    public var amount: Money
    /// When it delivers, if known.
    public var deliveryDateRange: DeliveryDateRange?

    /// A shipping method; nothing is validated here (see
    /// ``problems(in:currency:)``).
    public init(
        identifier: String,
        label: String,
        detail: String? = nil,
        amount: Money,
        deliveryDateRange: DeliveryDateRange? = nil
    ) {
        self.identifier = identifier
        self.label = label
        self.detail = detail
        self.amount = amount
        self.deliveryDateRange = deliveryDateRange
    }

    /// The identifier and the cost, and the delivery days when known:
    /// `ShippingMethod(express, 15.00 USD)`, `ShippingMethod(standard, 0.00 USD, 2026-12-24...2026-12-28)`.
    /// The label and detail are left out (the identifier names the method in logs and transcripts).
    public var description: String {
        let days = deliveryDateRange.map { ", \($0.start)...\($0.end)" } ?? ""
        return "ShippingMethod(\(identifier), \(amount)\(days))"
    }
}

extension ShippingMethod {
    private enum CodingKeys: String, CodingKey {
        case identifier, label, detail, amount, deliveryDateRange
    }

    /// Decodes the property names; `detail` and `deliveryDateRange` may be absent, an unknown key
    /// is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "ShippingMethod")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            identifier: try container.decode(String.self, forKey: .identifier),
            label: try container.decode(String.self, forKey: .label),
            detail: try container.decodeIfPresent(String.self, forKey: .detail),
            amount: try container.decode(Money.self, forKey: .amount),
            deliveryDateRange: try container.decodeIfPresent(DeliveryDateRange.self, forKey: .deliveryDateRange)
        )
    }
}

/// Whether a summary item's amount is known (PassKit's `PKPaymentSummaryItemType`).
public enum SummaryItemType: String, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The amount is known.
    case final
    /// The amount is not known yet (a ride's fare).
    case pending

    /// The type's name: `final` or `pending`.
    public var description: String { rawValue }
}

/// A line of the payment sheet's summary (PassKit's `PKPaymentSummaryItem`). In a list of summary
/// items the last one is the grand total.
public struct SummaryItem: Hashable, Sendable, Codable, CustomStringConvertible {
    /// What the line is for; for the grand total, the merchant's name.
    public var label: String
    /// The amount.
    public var amount: Money
    /// Final or pending.
    public var type: SummaryItemType

    /// A summary line; its amount is final unless told otherwise.
    public init(label: String, amount: Money, type: SummaryItemType = .final) {
        self.label = label
        self.amount = amount
        self.type = type
    }

    /// The label, quoted, and the amount, then `pending` for a pending amount:
    /// `SummaryItem("Tax", 1.20 USD)`, `SummaryItem("Ride", 12.00 USD, pending)`.
    public var description: String {
        "SummaryItem(\(label.quotedForMessage), \(amount)\(type == .pending ? ", pending" : ""))"
    }

    private enum CodingKeys: String, CodingKey {
        case label
        case amount
        case type
    }

    /// Decodes `{"label", "amount": {"currency", "value"}, "type"}`; `type` defaults to `final`, an
    /// unknown key is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "SummaryItem")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            label: try container.decode(String.self, forKey: .label),
            amount: try container.decode(Money.self, forKey: .amount),
            type: try container.decodeIfPresent(SummaryItemType.self, forKey: .type) ?? .final
        )
    }
}
