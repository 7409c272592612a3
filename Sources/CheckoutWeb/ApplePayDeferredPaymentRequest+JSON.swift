import CheckoutCore

extension ApplePayDeferredPaymentRequest {
    /// Writes the request as `JSONEncoder` encodes it with `.sortedKeys`, absent members left out.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.member("billingAgreement", ifPresent: billingAgreement)
        writer.key("deferredBilling")
        deferredBilling.writeJSON(to: &writer)
        writer.member("freeCancellationDate", ifPresent: freeCancellationDate)
        writer.member("freeCancellationDateTimeZone", ifPresent: freeCancellationDateTimeZone)
        writer.member("managementURL", managementURL)
        writer.member("paymentDescription", paymentDescription)
        writer.member("tokenNotificationURL", ifPresent: tokenNotificationURL)
        writer.byte(UInt8(ascii: "}"))
    }
}
