import CheckoutCore
import CheckoutWeb

extension ApplePayPayment {
    /// The payment in `node`, as its synthesized `init(from:)` reads it: `token` required, the
    /// contacts and `installmentAuthorizationToken` optional, unknown members ignored.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides.
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        var token: ApplePayPaymentToken?
        var billingContact: ApplePayPaymentContact?
        var shippingContact: ApplePayPaymentContact?
        var installmentAuthorizationToken: String?
        for (key, value) in try node.members() {
            switch key {
            case "token": token = try ApplePayPaymentToken(node: value)
            case "billingContact":
                if value.isNull { continue }
                billingContact = try ApplePayPaymentContact(node: value)
            case "shippingContact":
                if value.isNull { continue }
                shippingContact = try ApplePayPaymentContact(node: value)
            case "installmentAuthorizationToken": installmentAuthorizationToken = try value.optionalString()
            default: continue
            }
        }
        guard let token else { throw EventJSONDecoder.Unread() }
        self.init(
            token: token, billingContact: billingContact, shippingContact: shippingContact,
            installmentAuthorizationToken: installmentAuthorizationToken)
    }
}

extension ApplePayPaymentToken {
    /// The token in `node`, as its synthesized `init(from:)` reads it: `paymentMethod` required,
    /// `transactionIdentifier` and `paymentData` optional (`null` absent), unknown members ignored.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides.
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        var paymentMethod: ApplePayPaymentMethod?
        var transactionIdentifier: String?
        var paymentData: JSONValue?
        for (key, value) in try node.members() {
            switch key {
            case "paymentMethod": paymentMethod = try ApplePayPaymentMethod(node: value)
            case "transactionIdentifier": transactionIdentifier = try value.optionalString()
            case "paymentData":
                if value.isNull { continue }
                paymentData = try JSONValue(node: value)
            default: continue
            }
        }
        guard let paymentMethod else { throw EventJSONDecoder.Unread() }
        self.init(
            paymentMethod: paymentMethod, transactionIdentifier: transactionIdentifier, paymentData: paymentData)
    }
}
