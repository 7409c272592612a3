import CheckoutCore

extension ApplePayAutomaticReloadPaymentRequest {
    /// Writes the request as `JSONEncoder` encodes it with `.sortedKeys`, absent members left out.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.key("automaticReloadBilling")
        automaticReloadBilling.writeJSON(to: &writer)
        writer.member("billingAgreement", ifPresent: billingAgreement)
        writer.member("managementURL", managementURL)
        writer.member("paymentDescription", paymentDescription)
        writer.member("tokenNotificationURL", ifPresent: tokenNotificationURL)
        writer.byte(UInt8(ascii: "}"))
    }
}
