import CheckoutCore

extension PaymentDetailsUpdate {
    /// Writes the update as `JSONEncoder` encodes it with `.sortedKeys`, absent members left out;
    /// false, with the writer part-way, when `paymentMethodErrors` or a modifier's `data` holds a
    /// `Decimal` number (left to `JSONEncoder`).
    package func writeJSON(to writer: inout JSONWriter) -> Bool {
        writer.byte(UInt8(ascii: "{"))
        if let displayItems {
            writer.key("displayItems")
            displayItems.writeJSON(to: &writer)
        }
        writer.member("error", ifPresent: error)
        if let modifiers {
            writer.key("modifiers")
            writer.byte(UInt8(ascii: "["))
            for modifier in modifiers {
                writer.element()
                guard modifier.writeJSON(to: &writer) else { return false }
            }
            writer.byte(UInt8(ascii: "]"))
        }
        if let payerErrors {
            writer.key("payerErrors")
            payerErrors.writeJSON(to: &writer)
        }
        if let paymentMethodErrors {
            writer.key("paymentMethodErrors")
            guard paymentMethodErrors.write(to: &writer) else { return false }
        }
        if let shippingAddressErrors {
            writer.key("shippingAddressErrors")
            shippingAddressErrors.writeJSON(to: &writer)
        }
        if let shippingOptions {
            writer.key("shippingOptions")
            writer.array(shippingOptions) { $0.writeJSON(to: &$1) }
        }
        if let total {
            writer.key("total")
            total.writeJSON(to: &writer)
        }
        writer.byte(UInt8(ascii: "}"))
        return true
    }
}
