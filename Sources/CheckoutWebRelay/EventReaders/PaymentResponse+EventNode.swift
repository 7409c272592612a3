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
        for (key, value) in try node.members() {
            switch MemberKey(key) {
            case "requestId": requestId = try value.string()
            case "methodName": methodName = try value.string()
            // Required, and read as a value even when `null` (`JSONValue.null`).
            case "details": details = try JSONValue(node: value)
            case "shippingAddress":
                if value.isNull { continue }
                shippingAddress = try PaymentAddress(node: value)
            case "shippingOption": shippingOption = try value.optionalString()
            case "payerName": payerName = try value.optionalString()
            case "payerEmail": payerEmail = try value.optionalString()
            case "payerPhone": payerPhone = try value.optionalString()
            default: continue
            }
        }
        guard let requestId, let methodName, let details else { throw EventJSONDecoder.Unread() }
        self.init(
            requestId: requestId, methodName: methodName, details: details, shippingAddress: shippingAddress,
            shippingOption: shippingOption, payerName: payerName, payerEmail: payerEmail, payerPhone: payerPhone)
    }
}
