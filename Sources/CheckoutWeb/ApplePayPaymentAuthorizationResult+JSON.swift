import CheckoutCore

extension ApplePayPaymentAuthorizationResult {
    /// Writes the result as `JSONEncoder` encodes it with `.sortedKeys`: `{errors, orderDetails,
    /// status}`, absent members left out.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        if let errors {
            writer.key("errors")
            errors.writeJSON(to: &writer)
        }
        if let orderDetails {
            writer.key("orderDetails")
            orderDetails.writeJSON(to: &writer)
        }
        writer.key("status")
        writer.integer(status)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension ApplePayPaymentOrderDetails {
    /// Writes the order details as `JSONEncoder` encodes them with `.sortedKeys`.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.member("authenticationToken", authenticationToken)
        writer.member("orderIdentifier", orderIdentifier)
        writer.member("orderTypeIdentifier", orderTypeIdentifier)
        writer.member("webServiceURL", webServiceURL)
        writer.byte(UInt8(ascii: "}"))
    }
}
