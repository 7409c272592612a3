import CheckoutCore
import CheckoutWeb

extension RelayEvent {
    /// The event in `node`, read straight from the parsed tree, as `init(from:)` reads it, for
    /// the Apple Pay and W3C Payment Request events: `session`, `type` and the type's own members;
    /// every other member ignored, as `init(from:)` ignores it.
    ///
    /// It answers only where `init(from:)` answers the same value: anything that fails there (a
    /// member missing or of the wrong kind, an unknown `type`, a foreign payload) or that the tree
    /// decoder leaves to `JSONDecoder` (a number that is not a plain integer) throws, and so do
    /// the Google Pay and Express Checkout Element events, which only the `Decodable` path reads.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides.
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        let members = try node.members()
        /// The member named `name`, or nil.
        func member(_ name: MemberKey) -> EventJSONDecoder.Node? {
            members.first { MemberKey($0.key) == name }?.value
        }
        /// The member named `name`, which the event requires.
        func required(_ name: MemberKey) throws(EventJSONDecoder.Unread) -> EventJSONDecoder.Node {
            guard let node = member(name) else { throw EventJSONDecoder.Unread() }
            return node
        }
        let session = try required("session").string()
        let payload: Payload
        // The types read here, by their names (`RelayEventType(rawValue:)` hashes the name to
        // find it); any other name, known or not, is the `Decodable` path's.
        switch MemberKey(try required("type").string()) {
        case "validatemerchant":
            payload = .validateMerchant(validationURL: try required("validationURL").string())
        case "shippingcontactselected":
            payload = .shippingContactSelected(try ApplePayPaymentContact(node: required("shippingContact")))
        case "shippingmethodselected":
            payload = .shippingMethodSelected(try ApplePayShippingMethod(node: required("shippingMethod")))
        case "paymentmethodselected":
            payload = .paymentMethodSelected(try ApplePayPaymentMethod(node: required("paymentMethod")))
        case "couponcodechanged":
            payload = .couponCodeChanged(try required("couponCode").string())
        case "paymentauthorized":
            payload = .paymentAuthorized(try ApplePayPayment(node: required("payment")))
        case "cancel":
            payload = .cancel
        case "shippingaddresschange":
            payload = .shippingAddressChange(try PaymentAddress(node: required("shippingAddress")))
        case "shippingoptionchange":
            payload = .shippingOptionChange(try required("shippingOption").string())
        case "paymentmethodchange":
            let methodName = try required("methodName").string()
            var methodDetails: JSONValue?
            // Optional: `null` is absent, as `decodeIfPresent` reads it.
            if let details = member("methodDetails"), !details.isNull {
                methodDetails = try JSONValue(node: details)
            }
            payload = .paymentMethodChange(methodName: methodName, methodDetails: methodDetails)
        case "paymentresponse":
            payload = .paymentResponse(try PaymentResponse(node: required("response")))
        case "payerdetailchange":
            let name = try member("payerName")?.optionalString()
            let email = try member("payerEmail")?.optionalString()
            let phone = try member("payerPhone")?.optionalString()
            // `init(from:)` refuses an event with none of the three (spec W2).
            if name == nil, email == nil, phone == nil { throw EventJSONDecoder.Unread() }
            payload = .payerDetailChange(payerName: name, payerEmail: email, payerPhone: phone)
        default:
            throw EventJSONDecoder.Unread()
        }
        self.init(session: session, payload)
    }
}
