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
        func member(_ name: String) -> EventJSONDecoder.Node? {
            members.first { $0.key == name }?.value
        }
        /// The member named `name`, which the event requires.
        func required(_ name: String) throws(EventJSONDecoder.Unread) -> EventJSONDecoder.Node {
            guard let node = member(name) else { throw EventJSONDecoder.Unread() }
            return node
        }
        let session = try required("session").string()
        guard let type = RelayEventType(rawValue: try required("type").string()) else {
            throw EventJSONDecoder.Unread()
        }
        let payload: Payload
        switch type {
        case .validateMerchant:
            payload = .validateMerchant(validationURL: try required("validationURL").string())
        case .shippingContactSelected:
            payload = .shippingContactSelected(try ApplePayPaymentContact(node: required("shippingContact")))
        case .shippingMethodSelected:
            payload = .shippingMethodSelected(try ApplePayShippingMethod(node: required("shippingMethod")))
        case .paymentMethodSelected:
            payload = .paymentMethodSelected(try ApplePayPaymentMethod(node: required("paymentMethod")))
        case .couponCodeChanged:
            payload = .couponCodeChanged(try required("couponCode").string())
        case .paymentAuthorized:
            payload = .paymentAuthorized(try ApplePayPayment(node: required("payment")))
        case .cancel:
            payload = .cancel
        case .shippingAddressChange:
            payload = .shippingAddressChange(try PaymentAddress(node: required("shippingAddress")))
        case .shippingOptionChange:
            payload = .shippingOptionChange(try required("shippingOption").string())
        case .paymentMethodChange:
            let methodName = try required("methodName").string()
            var methodDetails: JSONValue?
            // Optional: `null` is absent, as `decodeIfPresent` reads it.
            if let details = member("methodDetails"), !details.isNull {
                methodDetails = try JSONValue(node: details)
            }
            payload = .paymentMethodChange(methodName: methodName, methodDetails: methodDetails)
        case .paymentResponse:
            payload = .paymentResponse(try PaymentResponse(node: required("response")))
        case .payerDetailChange:
            let name = try member("payerName")?.optionalString()
            let email = try member("payerEmail")?.optionalString()
            let phone = try member("payerPhone")?.optionalString()
            // `init(from:)` refuses an event with none of the three (spec W2).
            if name == nil, email == nil, phone == nil { throw EventJSONDecoder.Unread() }
            payload = .payerDetailChange(payerName: name, payerEmail: email, payerPhone: phone)
        case .googlePayPaymentDataChanged, .googlePayPaymentAuthorized, .expressCheckoutClick,
            .expressCheckoutShippingAddressChange, .expressCheckoutShippingRateChange, .expressCheckoutConfirm:
            throw EventJSONDecoder.Unread()
        }
        self.init(session: session, payload)
    }
}
