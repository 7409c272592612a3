import CheckoutCore

extension ApplePayDateComponents {
    /// Writes the components as `JSONEncoder` encodes them with `.sortedKeys`, absent ones left
    /// out.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.member("days", ifPresent: days)
        writer.member("hours", ifPresent: hours)
        writer.member("months", ifPresent: months)
        writer.member("years", ifPresent: years)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension ApplePayDateComponentsRange {
    /// Writes the range as `JSONEncoder` encodes it with `.sortedKeys`.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.key("endDateComponents")
        endDateComponents.writeJSON(to: &writer)
        writer.key("startDateComponents")
        startDateComponents.writeJSON(to: &writer)
        writer.byte(UInt8(ascii: "}"))
    }
}
