import CheckoutCore

extension PaymentDetailsModifier {
    /// Writes the modifier as `JSONEncoder` encodes it with `.sortedKeys`, absent members left
    /// out; false, with the writer part-way, when `data` holds a `Decimal` number (left to
    /// `JSONEncoder`).
    package func writeJSON(to writer: inout JSONWriter) -> Bool {
        writer.byte(UInt8(ascii: "{"))
        if let additionalDisplayItems {
            writer.key("additionalDisplayItems")
            additionalDisplayItems.writeJSON(to: &writer)
        }
        if let data {
            writer.key("data")
            guard data.write(to: &writer) else { return false }
        }
        writer.member("supportedMethods", supportedMethods)
        if let total {
            writer.key("total")
            total.writeJSON(to: &writer)
        }
        writer.byte(UInt8(ascii: "}"))
        return true
    }
}
