import CheckoutCore

extension PaymentCurrencyAmount {
    /// Writes the amount as `JSONEncoder` encodes it with `.sortedKeys`: `{currency, value}`.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.member("currency", currency)
        writer.member("value", value)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension PaymentItem {
    /// Writes the item as `JSONEncoder` encodes it with `.sortedKeys`, `pending` left out when
    /// there is none.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.key("amount")
        amount.writeJSON(to: &writer)
        writer.member("label", label)
        if let pending {
            writer.key("pending")
            writer.bool(pending)
        }
        writer.byte(UInt8(ascii: "}"))
    }
}

extension [PaymentItem] {
    /// Writes the items as a JSON array (``PaymentItem/writeJSON(to:)``).
    package func writeJSON(to writer: inout JSONWriter) {
        writer.array(self) { $0.writeJSON(to: &$1) }
    }
}
