import CheckoutCore

extension ApplePayError {
    /// Writes the error as `JSONEncoder` encodes it with `.sortedKeys`: `{code, contactField,
    /// message}`, `contactField` left out when there is none.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.member("code", code.rawValue)
        writer.member("contactField", ifPresent: contactField?.rawValue)
        writer.member("message", message)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension [ApplePayError] {
    /// Writes the errors as a JSON array (``ApplePayError/writeJSON(to:)``).
    package func writeJSON(to writer: inout JSONWriter) {
        writer.array(self) { $0.writeJSON(to: &$1) }
    }
}
