import CheckoutCore

extension PaymentShippingOption {
    /// Writes the option as `JSONEncoder` encodes it with `.sortedKeys`, `selected` left out when
    /// there is none.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.key("amount")
        amount.writeJSON(to: &writer)
        writer.member("id", id)
        writer.member("label", label)
        if let selected {
            writer.key("selected")
            writer.bool(selected)
        }
        writer.byte(UInt8(ascii: "}"))
    }
}
