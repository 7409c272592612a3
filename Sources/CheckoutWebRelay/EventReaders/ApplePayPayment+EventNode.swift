import CheckoutCore
import CheckoutWeb

extension ApplePayPayment {
    /// The payment in `node`, as its synthesized `init(from:)` reads it: `token` required, the
    /// contacts and `installmentAuthorizationToken` optional, unknown members ignored.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides.
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        // Filled in place, member by member (a payment is 832 bytes: copied whole from a local,
        // it was a fifth of the reading's time); the empty token is replaced or the reading fails.
        self.init(token: ApplePayPaymentToken(paymentMethod: ApplePayPaymentMethod()))
        var hasToken = false
        for member in try node.members() {
            switch MemberKey(member.key) {
            case "token":
                token = try ApplePayPaymentToken(node: member.value)
                hasToken = true
            case "billingContact":
                billingContact = try member.value.isNull ? nil : ApplePayPaymentContact(node: member.value)
            case "shippingContact":
                shippingContact = try member.value.isNull ? nil : ApplePayPaymentContact(node: member.value)
            case "installmentAuthorizationToken": installmentAuthorizationToken = try member.value.optionalString()
            default: continue
            }
        }
        guard hasToken else { throw EventJSONDecoder.Unread() }
    }
}

extension ApplePayPaymentToken {
    /// The token in `node`, as its synthesized `init(from:)` reads it: `paymentMethod` required,
    /// `transactionIdentifier` and `paymentData` optional (`null` absent), unknown members ignored.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides.
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        // Filled in place, as the payment is; the empty method is replaced or the reading fails.
        self.init(paymentMethod: ApplePayPaymentMethod())
        var hasPaymentMethod = false
        for member in try node.members() {
            switch MemberKey(member.key) {
            case "paymentMethod":
                paymentMethod = try ApplePayPaymentMethod(node: member.value)
                hasPaymentMethod = true
            case "transactionIdentifier": transactionIdentifier = try member.value.optionalString()
            case "paymentData": paymentData = try member.value.isNull ? nil : JSONValue(node: member.value)
            default: continue
            }
        }
        guard hasPaymentMethod else { throw EventJSONDecoder.Unread() }
    }
}
