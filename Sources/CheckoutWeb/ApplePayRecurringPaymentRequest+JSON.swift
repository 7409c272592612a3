import CheckoutCore

extension ApplePayRecurringPaymentRequest {
    /// Writes the request as `JSONEncoder` encodes it with `.sortedKeys`, absent members left out.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.member("billingAgreement", ifPresent: billingAgreement)
        writer.member("managementURL", managementURL)
        writer.member("paymentDescription", paymentDescription)
        writer.key("regularBilling")
        regularBilling.writeJSON(to: &writer)
        writer.member("tokenNotificationURL", ifPresent: tokenNotificationURL)
        if let trialBilling {
            writer.key("trialBilling")
            trialBilling.writeJSON(to: &writer)
        }
        writer.byte(UInt8(ascii: "}"))
    }
}
