import CheckoutCore

extension ApplePayLineItem {
    /// Writes the item as `JSONEncoder` encodes it with `.sortedKeys` (its `Codable` form, absent
    /// members left out), keys in `JSONEncoder`'s order.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.member("amount", amount)
        writer.member("automaticReloadPaymentThresholdAmount", ifPresent: automaticReloadPaymentThresholdAmount)
        writer.member("deferredPaymentDate", ifPresent: deferredPaymentDate)
        writer.member("label", label)
        writer.member("paymentTiming", ifPresent: paymentTiming?.rawValue)
        writer.member("recurringPaymentEndDate", ifPresent: recurringPaymentEndDate)
        writer.member("recurringPaymentIntervalCount", ifPresent: recurringPaymentIntervalCount)
        writer.member("recurringPaymentIntervalUnit", ifPresent: recurringPaymentIntervalUnit?.rawValue)
        writer.member("recurringPaymentStartDate", ifPresent: recurringPaymentStartDate)
        writer.member("type", ifPresent: type?.rawValue)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension [ApplePayLineItem] {
    /// Writes the items as a JSON array (``ApplePayLineItem/writeJSON(to:)``).
    package func writeJSON(to writer: inout JSONWriter) {
        writer.array(self) { $0.writeJSON(to: &$1) }
    }
}
