import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import CheckoutWebRelay
import Foundation

/// A Google Pay page's events, as its `paymentDataCallbacks` forward them; the members follow
/// Google's reference (developers.google.com/pay/api/web/reference/response-objects:
/// IntermediatePaymentData, IntermediateAddress, SelectionOptionData, OfferData, PaymentData,
/// Address).
enum GooglePage {
    static func json(_ session: String, changed data: String) -> String {
        #"{"session": "\#(session)", "type": "googlepay.paymentdatachanged", "intermediatePaymentData": \#(data)}"#
    }

    static func changed(_ session: String, _ data: String) throws -> RelayEvent {
        try Page.event(json(session, changed: data))
    }

    static func address(country: String = "US", locality: String = "Austin", area: String = "TX") -> String {
        #"{"administrativeArea": "\#(area)", "countryCode": "\#(country)", "locality": "\#(locality)", "postalCode": "78701"}"#
    }

    static func initialize(_ session: String, address: String = address(), option: String = "express") throws
        -> RelayEvent
    {
        try changed(
            session,
            #"{"callbackTrigger": "INITIALIZE", "shippingAddress": \#(address), "shippingOptionData": {"id": "\#(option)"}}"#
        )
    }

    static func shippingAddress(_ session: String, _ address: String = address()) throws -> RelayEvent {
        try changed(session, #"{"callbackTrigger": "SHIPPING_ADDRESS", "shippingAddress": \#(address)}"#)
    }

    static func shippingOption(_ session: String, _ id: String) throws -> RelayEvent {
        try changed(session, #"{"callbackTrigger": "SHIPPING_OPTION", "shippingOptionData": {"id": "\#(id)"}}"#)
    }

    static func offer(_ session: String, _ codes: [String]) throws -> RelayEvent {
        let list = codes.map { "\"\($0)\"" }.joined(separator: ", ")
        return try changed(session, #"{"callbackTrigger": "OFFER", "offerData": {"redemptionCodes": [\#(list)]}}"#)
    }

    static func paymentMethod(_ session: String, network: String = "VISA") throws -> RelayEvent {
        try changed(
            session,
            #"{"callbackTrigger": "PAYMENT_METHOD", "paymentMethodData": {"type": "CARD", "info": {"cardNetwork": "\#(network)"}}}"#
        )
    }

    static func authorizedJSON(_ session: String, name: String = "Jane Doe") -> String {
        #"""
        {"session": "\#(session)", "type": "googlepay.paymentauthorized", "paymentData": {"apiVersion": 2, "apiVersionMinor": 0,
         "paymentMethodData": {"type": "CARD", "description": "Visa •••• 1234", "info": {"cardNetwork": "VISA", "cardDetails": "1234"},
          "tokenizationData": {"type": "PAYMENT_GATEWAY", "token": "examplePaymentMethodToken"}},
         "email": "jane@example.com",
         "shippingAddress": {"name": "\#(name)", "postalCode": "78701", "countryCode": "US", "phoneNumber": "+1 512-555-0100",
          "address1": "1 Congress Ave", "address2": "", "address3": "", "locality": "Austin", "administrativeArea": "TX",
          "sortingCode": ""},
         "shippingOptionData": {"id": "standard"}}}
        """#
    }

    static func authorized(_ session: String, name: String = "Jane Doe") throws -> RelayEvent {
        try Page.event(authorizedJSON(session, name: name))
    }
}

/// A merchant whose answers carry the core error named by the address's city (`shippingContactInvalid`,
/// `couponCodeExpired`, ...), so that each error crosses the relay; otherwise it answers as
/// ``Shop`` does. An authorization whose shipping contact's name names a code is declined with it.
final class ErrorNamingMerchant: PaymentAuthorizationDelegate {
    static let codes: [PaymentError.Code] = [
        .shippingContactInvalid, .shippingAddressUnserviceable, .shippingOptionInvalid, .couponCodeInvalid,
        .couponCodeExpired, .billingContactInvalid, .unknown,
    ]

    private static func named(_ name: String?) -> PaymentError? {
        guard let name, codes.contains(PaymentError.Code(rawValue: name)) else { return nil }
        return PaymentError(code: PaymentError.Code(rawValue: name), message: "error \(name)")
    }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        if let error = Self.named(payment.shippingContact?.name) {
            handler(PaymentAuthorizationResult(status: .failure, errors: [error]))
        } else {
            handler(.success)
        }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        var update = Shop.answer(contact: contact)
        if let error = Self.named(contact.postalAddress?.city) { update.errors = [error] }
        handler(update)
    }
}
