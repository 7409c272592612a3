/// Google Pay payloads, each following the example and the member table of Google's reference
/// field by field (sources named on each).
enum GooglePayFixtures {
    /// `IntermediatePaymentData` for `INITIALIZE`, with the redacted `IntermediateAddress`, the
    /// `SelectionOptionData` and `OfferData`: developers.google.com/pay/api/web/reference/response-objects
    /// (IntermediatePaymentData, IntermediateAddress, SelectionOptionData, OfferData).
    static let initialize = """
        {"callbackTrigger": "INITIALIZE",
         "shippingAddress": {"administrativeArea": "CA", "countryCode": "US", "locality": "Mountain View",
                             "postalCode": "94043"},
         "shippingOptionData": {"id": "shipping-001"},
         "offerData": {"redemptionCodes": ["exampleCode"]}}
        """

    /// `IntermediatePaymentData` for `PAYMENT_METHOD`: the card's network before authorization
    /// (response-objects, IntermediatePaymentData.paymentMethodData).
    static let paymentMethod = """
        {"callbackTrigger": "PAYMENT_METHOD", "paymentMethodData": {"type": "CARD", "info": {"cardNetwork": "VISA"}}}
        """

    /// `TransactionInfo` with display items: developers.google.com/pay/api/web/reference/request-objects
    /// (TransactionInfo, DisplayItem).
    static let transactionInfo = """
        {"displayItems": [{"label": "Subtotal", "type": "SUBTOTAL", "price": "11.00"},
                          {"label": "Tax", "type": "TAX", "price": "1.00", "status": "FINAL"}],
         "countryCode": "US", "currencyCode": "USD", "totalPriceStatus": "FINAL", "totalPrice": "12.00",
         "totalPriceLabel": "Total"}
        """

    /// `ShippingOptionParameters` with three `SelectionOption`s: request-objects
    /// (ShippingOptionParameters, SelectionOption).
    static let shippingOptionParameters = """
        {"defaultSelectedOptionId": "shipping-001",
         "shippingOptions": [
           {"id": "shipping-001", "label": "$0.00: Free shipping",
            "description": "Free Shipping delivered in 5 business days."},
           {"id": "shipping-002", "label": "$1.99: Standard shipping",
            "description": "Standard shipping delivered in 3 business days."},
           {"id": "shipping-003", "label": "$10: Express shipping",
            "description": "Express shipping delivered in 1 business day."}]}
        """

    /// `PaymentDataRequestUpdate` with an `OfferInfo` and a `PaymentDataError`: request-objects
    /// (PaymentDataRequestUpdate, OfferInfo, OfferDetail) and response-objects (PaymentDataError).
    static let offerUpdate = """
        {"newOfferInfo": {"offers": [{"redemptionCode": "exampleCode", "description": "example description"}]},
         "error": {"reason": "OFFER_INVALID", "message": "Invalid redemption code", "intent": "OFFER"}}
        """

    /// `PaymentData` for a card with the full shipping `Address` and the email: response-objects
    /// (PaymentData, PaymentMethodData, CardInfo, PaymentMethodTokenizationData, Address).
    static let paymentData = """
        {"apiVersion": 2, "apiVersionMinor": 0,
         "paymentMethodData": {"type": "CARD", "description": "Visa •••• 1234",
                               "info": {"cardNetwork": "VISA", "cardDetails": "1234"},
                               "tokenizationData": {"type": "PAYMENT_GATEWAY", "token": "examplePaymentMethodToken"}},
         "email": "jane@example.com",
         "shippingAddress": {"name": "Jane Doe", "postalCode": "94043", "countryCode": "US",
                             "phoneNumber": "+1 650-555-5555", "address1": "1600 Amphitheatre Parkway",
                             "address2": "", "address3": "", "locality": "Mountain View",
                             "administrativeArea": "CA", "sortingCode": ""},
         "shippingOptionData": {"id": "shipping-001"}}
        """

    /// `PaymentAuthorizationResult` with `ERROR`: response-objects (PaymentAuthorizationResult,
    /// PaymentDataError).
    static let authorizationError = """
        {"transactionState": "ERROR",
         "error": {"reason": "PAYMENT_DATA_INVALID", "message": "Insufficient funds", "intent": "PAYMENT_AUTHORIZATION"}}
        """
}
