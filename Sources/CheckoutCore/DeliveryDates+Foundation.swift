import Foundation

/// Delivery days from Foundation's dates, as PassKit takes them (`PKDateComponentsRange` of
/// `DateComponents`, usually made from a `Date` by a calendar).
extension CalendarDay {
    /// The day `components` name: its `year`, `month` and `day` in the Gregorian calendar (the
    /// components' calendar, if set, must be Gregorian; other components are ignored).
    ///
    /// - Throws: ``CheckoutError/Code/missingField`` naming `year`, `month` or `day` when it is
    ///   missing, ``CheckoutError/Code/invalidField`` naming `calendar` for another calendar, and
    ///   as ``init(year:month:day:)`` for a day that does not exist.
    public init(_ components: DateComponents) throws {
        if let calendar = components.calendar, calendar.identifier != .gregorian {
            throw CheckoutError(
                code: .invalidField, message: "delivery dates are Gregorian days, not \(calendar.identifier)",
                field: "calendar", value: "\(calendar.identifier)")
        }
        func required(_ value: Int?, _ name: String) throws -> Int {
            guard let value, value != NSDateComponentUndefined else {
                throw CheckoutError(
                    code: .missingField, message: "the date components have no \(name)", field: name, value: "nil")
            }
            return value
        }
        try self.init(
            year: try required(components.year, "year"), month: try required(components.month, "month"),
            day: try required(components.day, "day"))
    }

    /// The day `date` falls on in `timeZone`, in the Gregorian calendar.
    public init(_ date: Date, in timeZone: TimeZone) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        try self.init(calendar.dateComponents([.year, .month, .day], from: date))
    }

    /// The day as date components (`year`, `month`, `day`, Gregorian), as PassKit reads them.
    public var dateComponents: DateComponents {
        DateComponents(calendar: Calendar(identifier: .gregorian), year: year, month: month, day: day)
    }
}

extension DeliveryDateRange {
    /// PassKit's `PKDateComponentsRange(start:end:)`: the days the components name.
    ///
    /// - Throws: as ``CalendarDay/init(_:)-(DateComponents)`` (its field under `start` or `end`), and
    ///   as ``init(start:end:)-(CalendarDay,_)`` when `end` is before `start`.
    public init(start: DateComponents, end: DateComponents) throws {
        try self.init(start: try Self.day(start, "start"), end: try Self.day(end, "end"))
    }

    /// The days `start` and `end` fall on in `timeZone`.
    public init(start: Date, end: Date, in timeZone: TimeZone) throws {
        try self.init(start: try CalendarDay(start, in: timeZone), end: try CalendarDay(end, in: timeZone))
    }

    private static func day(_ components: DateComponents, _ path: String) throws -> CalendarDay {
        do {
            return try CalendarDay(components)
        } catch var error as CheckoutError {
            error.field = error.field.map { "\(path).\($0)" } ?? path
            throw error
        }
    }
}

extension ShippingMethod {
    /// A method as PassKit's `PKShippingMethod(label:amount:)` makes one, whose identifier is
    /// optional: the label is the identifier (the sheet tells methods apart by identifier, so two
    /// methods with one label are refused as duplicates, naming the field, spec A1 and E7).
    public init(
        label: String, amount: Money, detail: String? = nil, deliveryDateRange: DeliveryDateRange? = nil
    ) {
        self.init(identifier: label, label: label, detail: detail, amount: amount, deliveryDateRange: deliveryDateRange)
    }
}
