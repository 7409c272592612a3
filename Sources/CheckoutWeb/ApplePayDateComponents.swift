import CheckoutCore

/// Apple Pay on the web's `ApplePayDateComponents`: a point in time as calendar components.
///
/// The member names are WebKit's IDL's (`years`, `months`, `days`, `hours`). Every member is
/// optional; an object with keys and none of these is refused (spec W2).
public struct ApplePayDateComponents: Codable, Hashable, Sendable {
    /// The year.
    public var years: Int?
    /// The month, 1 to 12.
    public var months: Int?
    /// The day of the month.
    public var days: Int?
    /// The hour of the day.
    public var hours: Int?

    /// Components, every one optional.
    public init(years: Int? = nil, months: Int? = nil, days: Int? = nil, hours: Int? = nil) {
        self.years = years
        self.months = months
        self.days = days
        self.hours = hours
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case years, months, days, hours
    }

    /// Decodes the four members; an object with keys and none of them is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "ApplePayDateComponents")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            years: try container.decodeIfPresent(Int.self, forKey: .years),
            months: try container.decodeIfPresent(Int.self, forKey: .months),
            days: try container.decodeIfPresent(Int.self, forKey: .days),
            hours: try container.decodeIfPresent(Int.self, forKey: .hours)
        )
    }

    /// The calendar day these components name.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/missingField`` naming `years`,
    ///   `months` or `days` when one is absent, ``/CheckoutCore/CheckoutError/Code/invalidField`` for a day
    ///   that does not exist, and ``/CheckoutCore/CheckoutError/Code/invalidField`` naming `hours` when an hour
    ///   other than 0 is given: a ``/CheckoutCore/CalendarDay`` has no hours, and it is not dropped in silence.
    public func calendarDay() throws -> CalendarDay {
        guard let years else { throw missingMember("years", "a delivery day needs its year") }
        guard let months else { throw missingMember("months", "a delivery day needs its month") }
        guard let days else { throw missingMember("days", "a delivery day needs its day") }
        if let hours, hours != 0 {
            throw unmappable("hours", String(hours), "cannot be kept: a delivery estimate is a calendar day")
        }
        return try CalendarDay(year: years, month: months, day: days)
    }

    /// The day's components (no hours).
    public init(_ day: CalendarDay) {
        self.init(years: day.year, months: day.month, days: day.day)
    }
}

/// Apple Pay on the web's `ApplePayDateComponentsRange`: when a shipping method delivers.
public struct ApplePayDateComponentsRange: Codable, Hashable, Sendable {
    /// The start of the range.
    public var startDateComponents: ApplePayDateComponents
    /// The end of the range.
    public var endDateComponents: ApplePayDateComponents

    /// A range between two points.
    public init(startDateComponents: ApplePayDateComponents, endDateComponents: ApplePayDateComponents) {
        self.startDateComponents = startDateComponents
        self.endDateComponents = endDateComponents
    }

    /// The core delivery range.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `startDateComponents.…` or `endDateComponents.…` (see
    ///   ``ApplePayDateComponents/calendarDay()``), or `endDateComponents` when the range ends
    ///   before it starts.
    public func core() throws -> DeliveryDateRange {
        let start = try inside("startDateComponents") { try startDateComponents.calendarDay() }
        let end = try inside("endDateComponents") { try endDateComponents.calendarDay() }
        do {
            return try DeliveryDateRange(start: start, end: end)
        } catch var error as CheckoutError {
            error.field = "endDateComponents"
            throw error
        }
    }

    /// The core range as components.
    public init(_ core: DeliveryDateRange) {
        self.init(
            startDateComponents: ApplePayDateComponents(core.start),
            endDateComponents: ApplePayDateComponents(core.end)
        )
    }
}
