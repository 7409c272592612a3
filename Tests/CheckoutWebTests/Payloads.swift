/// Wire payloads written after the examples of Apple's "Apple Pay on the web" reference and of
/// the W3C Payment Request text, each with every documented member set.
enum Payloads {
    static let applePayPaymentContact = """
        {"phoneNumber": "+1 415 555 0100", "emailAddress": "ravi@example.com",
         "givenName": "Ravi", "familyName": "Patel",
         "phoneticGivenName": "ラヴィ", "phoneticFamilyName": "パテル",
         "addressLines": ["1 Infinite Loop", "Building 4", "Floor 2"],
         "subLocality": "Rancho Rinconada", "locality": "Cupertino", "postalCode": "95014",
         "subAdministrativeArea": "Santa Clara", "administrativeArea": "CA",
         "country": "United States", "countryCode": "US"}
        """

    static let applePayLineItem = """
        {"type": "final", "label": "Monthly subscription", "amount": "9.99",
         "paymentTiming": "recurring", "recurringPaymentStartDate": "2026-12-01T00:00:00.000Z",
         "recurringPaymentIntervalUnit": "month", "recurringPaymentIntervalCount": 1,
         "recurringPaymentEndDate": "2027-12-01T00:00:00.000Z",
         "deferredPaymentDate": "2026-12-15T00:00:00.000Z",
         "automaticReloadPaymentThresholdAmount": "5.00"}
        """

    static let applePayShippingMethod = """
        {"label": "Free Shipping", "detail": "Arrives in 5 to 7 days", "amount": "0.00",
         "identifier": "FreeShip",
         "dateComponentsRange": {
           "startDateComponents": {"years": 2026, "months": 12, "days": 4, "hours": 0},
           "endDateComponents": {"years": 2026, "months": 12, "days": 6, "hours": 0}}}
        """

    static let applePayPaymentPass = """
        {"primaryAccountIdentifier": "V0010013019", "primaryAccountNumberSuffix": "1234",
         "deviceAccountIdentifier": "DNITHE302308", "deviceAccountNumberSuffix": "5678",
         "activationState": "activated"}
        """

    static let applePayPaymentMethod = """
        {"displayName": "Visa 1234", "network": "Visa", "type": "credit",
         "paymentPass": \(applePayPaymentPass),
         "billingContact": {"givenName": "Ravi", "familyName": "Patel", "countryCode": "US",
                            "postalCode": "95014"},
         "bindToken": "bind-123"}
        """

    static let applePayPaymentToken = """
        {"paymentMethod": \(applePayPaymentMethod),
         "transactionIdentifier": "8E0A4D4C0C1F4A1B9E8B7A6C5D4E3F2A",
         "paymentData": {"version": "EC_v1", "data": "3+f4oOTwPa6f1UZ6tG...",
                         "signature": "MIAGCSqGSIb3DQEHAqCAMIACAQEx...",
                         "header": {"ephemeralPublicKey": "MFkwEwYHKoZIzj0CAQ...",
                                    "publicKeyHash": "tx4pWWbJ+Qe1z0FB...",
                                    "transactionId": "8e0a4d4c0c1f"}}}
        """

    static let applePayPayment = """
        {"token": \(applePayPaymentToken),
         "billingContact": {"givenName": "Ravi", "familyName": "Patel",
                            "addressLines": ["1 Infinite Loop"], "locality": "Cupertino",
                            "administrativeArea": "CA", "postalCode": "95014", "countryCode": "US"},
         "shippingContact": \(applePayPaymentContact),
         "installmentAuthorizationToken": "inst-456"}
        """

    static let applePayPaymentRequest = """
        {"features": ["couponCode"],
         "merchantCapabilities": ["supports3DS", "supportsEMV", "supportsCredit", "supportsDebit"],
         "supportedNetworks": ["visa", "masterCard", "amex", "discover"],
         "countryCode": "US",
         "requiredBillingContactFields": ["postalAddress", "name"],
         "billingContact": {"givenName": "Ravi", "familyName": "Patel"},
         "requiredShippingContactFields": ["postalAddress", "name", "phone", "email"],
         "shippingContact": {"emailAddress": "ravi@example.com"},
         "applicationData": "eyJvcmRlciI6IjEyMyJ9",
         "supportedCountries": ["US", "CA"],
         "installmentConfiguration": {"paymentInstallmentConfiguration": "x"},
         "supportsCouponCode": true, "couponCode": "WELCOME",
         "shippingContactEditingMode": "available",
         "applePayLaterAvailability": "available",
         "merchantCategoryCode": "5411",
         "total": {"label": "Demo (Card is not charged)", "type": "final", "amount": "1.99"},
         "lineItems": [{"label": "Bag Subtotal", "type": "final", "amount": "1.00"},
                       {"label": "Estimated Shipping", "type": "pending", "amount": "0.99"}],
         "currencyCode": "USD",
         "shippingType": "shipping",
         "shippingMethods": [{"label": "Free Shipping", "detail": "Arrives in 5 to 7 days",
                              "amount": "0.00", "identifier": "FreeShip"}],
         "recurringPaymentRequest": {"paymentDescription": "Subscription",
                                     "regularBilling": {"label": "Monthly", "amount": "1.99"},
                                     "managementURL": "https://example.com/manage"},
         "automaticReloadPaymentRequest": {"paymentDescription": "Top up",
                                           "automaticReloadBilling": {"label": "Reload", "amount": "20.00"},
                                           "managementURL": "https://example.com/reload"},
         "multiTokenContexts": [{"merchantIdentifier": "merchant.com.example.partner",
                                 "externalIdentifier": "partner-1", "merchantName": "Partner",
                                 "amount": "0.50"}],
         "deferredPaymentRequest": {"paymentDescription": "Hotel", "deferredBilling": {"label": "Stay",
                                    "amount": "120.00", "paymentTiming": "deferred",
                                    "deferredPaymentDate": "2025-01-08T00:00:00.000Z"},
                                    "managementURL": "https://example.com/stay"},
         "disbursementRequest": {"requiredRecipientContactFields": ["name"]}}
        """

    static let applePayError = """
        {"code": "shippingContactInvalid", "contactField": "postalCode", "message": "ZIP Code is invalid"}
        """

    private static let extensionUpdates = """
        "newRecurringPaymentRequest": {"paymentDescription": "Subscription",
                                       "regularBilling": {"label": "Monthly", "amount": "2.99"},
                                       "managementURL": "https://example.com/manage"},
        "newAutomaticReloadPaymentRequest": {"paymentDescription": "Top up",
                                             "automaticReloadBilling": {"label": "Reload", "amount": "20.00"},
                                             "managementURL": "https://example.com/reload"},
        "newMultiTokenContexts": [{"merchantIdentifier": "merchant.com.example.partner",
                                   "externalIdentifier": "partner-1", "merchantName": "Partner", "amount": "0.50"}],
        "newDeferredPaymentRequest": {"paymentDescription": "Hotel",
                                      "deferredBilling": {"label": "Stay", "amount": "120.00",
                                                          "deferredPaymentDate": "2025-01-08T00:00:00Z"},
                                      "managementURL": "https://example.com/stay"},
        "newDisbursementRequest": {"requiredRecipientContactFields": ["name"]}
        """

    static let applePayShippingContactUpdate = """
        {"newTotal": {"label": "Demo", "type": "final", "amount": "2.98"},
         "newLineItems": [{"label": "Bag Subtotal", "type": "final", "amount": "1.99"},
                          {"label": "Shipping", "type": "final", "amount": "0.99"}],
         "errors": [\(applePayError)],
         "newShippingMethods": [{"label": "Standard", "detail": "3-5 days", "amount": "0.99",
                                 "identifier": "standard"}],
         \(extensionUpdates)}
        """

    static let applePayShippingMethodUpdate = """
        {"newTotal": {"label": "Demo", "type": "final", "amount": "2.98"},
         "newLineItems": [{"label": "Shipping", "type": "final", "amount": "0.99"}],
         "newShippingMethods": [{"label": "Express", "detail": "1 day", "amount": "4.99",
                                 "identifier": "express"}],
         \(extensionUpdates)}
        """

    static let applePayPaymentMethodUpdate = """
        {"newTotal": {"label": "Demo", "type": "final", "amount": "2.01"},
         "newLineItems": [{"label": "Credit card surcharge", "type": "final", "amount": "0.02"}],
         "errors": [{"code": "billingContactInvalid", "contactField": "postalAddress",
                     "message": "Billing address is required"}],
         "newShippingMethods": [{"label": "Standard", "detail": "3-5 days", "amount": "0.99",
                                 "identifier": "standard"}],
         \(extensionUpdates)}
        """

    static let applePayCouponCodeUpdate = """
        {"newTotal": {"label": "Demo", "type": "final", "amount": "1.49"},
         "newLineItems": [{"label": "Discount", "type": "final", "amount": "-0.50"}],
         "errors": [{"code": "couponCodeExpired", "message": "This coupon has expired"}],
         "newShippingMethods": [{"label": "Standard", "detail": "3-5 days", "amount": "0.99",
                                 "identifier": "standard"}],
         \(extensionUpdates)}
        """

    static let applePayPaymentAuthorizationResult = """
        {"status": 1,
         "errors": [{"code": "shippingContactInvalid", "contactField": "addressLines",
                     "message": "We cannot deliver to a P.O. box"}],
         "orderDetails": {"orderTypeIdentifier": "order.com.example", "orderIdentifier": "ORDER-1",
                          "webServiceURL": "https://example.com/orders", "authenticationToken": "abc"}}
        """

    static let paymentAddress = """
        {"country": "US", "addressLine": ["1 Main St", "Suite 100"], "region": "TX", "city": "Austin",
         "dependentLocality": "Downtown", "postalCode": "78701", "sortingCode": "CEDEX 1",
         "organization": "Example Inc.", "recipient": "Jane Doe", "phone": "+15125550100"}
        """

    static let paymentItem = """
        {"label": "Estimated tax", "amount": {"currency": "USD", "value": "1.50"}, "pending": true}
        """

    static let paymentShippingOption = """
        {"id": "standard", "label": "Standard shipping", "amount": {"currency": "USD", "value": "5.00"},
         "selected": true}
        """

    static let paymentDetailsUpdate = """
        {"total": {"label": "Total", "amount": {"currency": "USD", "value": "60.00"}},
         "displayItems": [{"label": "Subtotal", "amount": {"currency": "USD", "value": "55.00"}},
                          \(paymentItem)],
         "shippingOptions": [{"id": "standard", "label": "Standard", "amount": {"currency": "USD",
                              "value": "5.00"}, "selected": true},
                             {"id": "express", "label": "Express", "amount": {"currency": "USD",
                              "value": "15.00"}}],
         "modifiers": [{"supportedMethods": "https://apple.com/apple-pay",
                        "total": {"label": "Total", "amount": {"currency": "USD", "value": "59.00"}},
                        "additionalDisplayItems": [{"label": "Apple Pay discount",
                                                    "amount": {"currency": "USD", "value": "-1.00"}}],
                        "data": {"additionalLineItems": []}}],
         "error": "We cannot ship to this address on Sundays.",
         "shippingAddressErrors": {"addressLine": "a", "city": "b", "country": "c",
                                   "dependentLocality": "d", "organization": "e", "phone": "f",
                                   "postalCode": "g", "recipient": "h", "region": "i", "sortingCode": "j"},
         "payerErrors": {"email": "Use your work email", "name": "Full name, please", "phone": "A mobile number"},
         "paymentMethodErrors": {"billingAddress": {"postalCode": "Unknown postal code"}}}
        """
}
