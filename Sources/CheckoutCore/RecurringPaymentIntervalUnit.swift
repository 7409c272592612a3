/// The calendar unit of a recurring payment's interval (PassKit's `intervalUnit`, an
/// `NSCalendar.Unit` limited to these five; Apple Pay on the web's
/// `ApplePayRecurringPaymentDateUnit`).
public enum RecurringPaymentIntervalUnit: String, Hashable, Sendable, Codable, CaseIterable {
    /// Years.
    case year
    /// Months, the default.
    case month
    /// Days.
    case day
    /// Hours.
    case hour
    /// Minutes.
    case minute
}
