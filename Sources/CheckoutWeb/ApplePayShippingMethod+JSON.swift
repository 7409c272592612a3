import CheckoutCore

extension ApplePayShippingMethod {
    /// Writes the method as `JSONEncoder` encodes it with `.sortedKeys`, `dateComponentsRange`
    /// left out when there is none.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.member("amount", amount)
        if let dateComponentsRange {
            writer.key("dateComponentsRange")
            dateComponentsRange.writeJSON(to: &writer)
        }
        writer.member("detail", detail)
        writer.member("identifier", identifier)
        writer.member("label", label)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension [ApplePayShippingMethod] {
    /// Writes the methods as a JSON array (``ApplePayShippingMethod/writeJSON(to:)``).
    package func writeJSON(to writer: inout JSONWriter) {
        writer.array(self) { $0.writeJSON(to: &$1) }
    }
}
