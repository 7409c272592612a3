import CheckoutCore
import CheckoutWeb

extension PaymentResponse {
    /// The response in `node`, as `init(from:)` reads it: `requestId`, `methodName` and `details`
    /// required, the shipping and payer members optional (`null` absent), unknown members ignored.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides.
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        var requestId: String?
        var methodName: String?
        var details: JSONValue?
        var shippingAddress: PaymentAddress?
        var shippingOption: String?
        var payerName: String?
        var payerEmail: String?
        var payerPhone: String?
        for member in try node.members() {
            switch MemberKey(member.key) {
            case "requestId": requestId = try member.value.string()
            case "methodName": methodName = try member.value.string()
            // Required, and read as a member.value even when `null` (`JSONValue.null`).
            case "details": details = try JSONValue(node: member.value)
            case "shippingAddress":
                if member.value.isNull { continue }
                shippingAddress = try PaymentAddress(node: member.value)
            case "shippingOption": shippingOption = try member.value.optionalString()
            case "payerName": payerName = try member.value.optionalString()
            case "payerEmail": payerEmail = try member.value.optionalString()
            case "payerPhone": payerPhone = try member.value.optionalString()
            default: continue
            }
        }
        guard let requestId, let methodName, let details else { throw EventJSONDecoder.Unread() }
        self.init(
            requestId: requestId, methodName: methodName, details: details, shippingAddress: shippingAddress,
            shippingOption: shippingOption, payerName: payerName, payerEmail: payerEmail, payerPhone: payerPhone)
    }
}
