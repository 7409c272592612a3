import CheckoutCore

extension ApplePayPaymentTokenContext {
    /// Writes the context as `JSONEncoder` encodes it with `.sortedKeys`, `merchantDomain` left
    /// out when there is none.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.member("amount", amount)
        writer.member("externalIdentifier", externalIdentifier)
        writer.member("merchantDomain", ifPresent: merchantDomain)
        writer.member("merchantIdentifier", merchantIdentifier)
        writer.member("merchantName", merchantName)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension [ApplePayPaymentTokenContext] {
    /// Writes the contexts as a JSON array (``ApplePayPaymentTokenContext/writeJSON(to:)``).
    package func writeJSON(to writer: inout JSONWriter) {
        writer.array(self) { $0.writeJSON(to: &$1) }
    }
}
