import CheckoutCore

extension PaymentValidationErrors {
    /// Writes the errors as `JSONEncoder` encodes them with `.sortedKeys`, absent members left
    /// out; false, with the writer part-way, when `paymentMethod` holds a `Decimal` number (left
    /// to `JSONEncoder`).
    package func writeJSON(to writer: inout JSONWriter) -> Bool {
        writer.byte(UInt8(ascii: "{"))
        writer.member("error", ifPresent: error)
        if let payer {
            writer.key("payer")
            payer.writeJSON(to: &writer)
        }
        if let paymentMethod {
            writer.key("paymentMethod")
            guard paymentMethod.write(to: &writer) else { return false }
        }
        if let shippingAddress {
            writer.key("shippingAddress")
            shippingAddress.writeJSON(to: &writer)
        }
        writer.byte(UInt8(ascii: "}"))
        return true
    }
}
