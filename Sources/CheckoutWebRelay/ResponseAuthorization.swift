import CheckoutCore
import CheckoutFlows
import CheckoutWeb

/// A W3C `PaymentResponse` read as the flow's authorization (spec W7, A6): the token, the
/// billing contact and the full shipping contact that
/// ``/CheckoutFlows/PaymentAuthorizationFlow/authorize(_:billingContact:shippingContact:)`` takes.
///
/// - The token: ``/CheckoutWeb/PaymentResponse/token()`` (`requestId`, `methodName`, `details`).
/// - The shipping contact, when the response has a `shippingAddress` or the request asks for a
///   shipping contact field: the address (``/CheckoutWeb/PaymentAddress/core()``), its name the
///   `payerName` (else the address's `recipient`), its email the `payerEmail`, its phone the
///   `payerPhone` (else the address's `phone`). WebKit fills the response's payer members from
///   Apple Pay's shipping contact, so the payer's details go back there. The flow checks it
///   against the address the last `shippingaddresschange` selected and limits it to the
///   requested fields.
/// - The billing contact, when the request asks for billing fields: the payer's name, email and
///   phone (the response carries no billing address; a request that requires one is refused by
///   A6 with `billingContact.postalAddress` missing).
/// - `shippingOption` must be the sheet's selected shipping method, when the response names one
///   (with no sheet, the flow has ended and refuses the authorization itself).
struct ResponseAuthorization {
    var token: PaymentToken
    var billingContact: Contact?
    var shippingContact: Contact?

    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the response's member (`requestId`,
    ///   `shippingAddress.country`, `shippingOption`).
    init(_ response: PaymentResponse, request: PaymentRequest, sheet: PaymentSheet?) throws {
        token = try response.token()
        let payer = response.payer
        if let sheet, let option = response.shippingOption, !option.isEmpty,
            option != sheet.selectedShippingMethodID
        {
            let selectedShippingOptionID = sheet.selectedShippingMethodID
            throw CheckoutError(
                code: .invalidField,
                message: "shippingOption \(option.debugDescription) is not the shipping option selected "
                    + "(\(selectedShippingOptionID.map(\.debugDescription) ?? "none"))",
                field: "shippingOption", value: option)
        }
        if response.shippingAddress != nil || !request.requiredShippingContactFields.isEmpty {
            var contact: Contact
            do {
                contact = try response.shippingAddress?.core() ?? Contact()
            } catch let error as CheckoutError {
                throw error.nested(under: "shippingAddress")
            }
            contact.name = payer.name ?? contact.name
            contact.emailAddress = payer.emailAddress
            contact.phoneNumber = payer.phoneNumber ?? contact.phoneNumber
            shippingContact = contact
        }
        billingContact = request.requiredBillingContactFields.isEmpty ? nil : payer
    }
}
