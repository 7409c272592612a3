import CheckoutWeb

extension ApplePayPaymentMethod {
    /// The card in `node`, as `init(from:)` reads it: every member optional, `null` absent,
    /// unknown members ignored beside a known one.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides: a member of the
    ///   wrong kind, a `type` that is not an ``ApplePayPaymentMethodType``, or an object with
    ///   members and none of a payment method's (which it refuses, spec W2).
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        self.init()
        try node.readOptionalMembers { member throws(EventJSONDecoder.Unread) in
            switch MemberKey(member.key) {
            case "displayName": displayName = try member.value.optionalString()
            case "network": network = try member.value.optionalString()
            case "type": type = try member.value.optionalRawValue(ApplePayPaymentMethodType.self)
            case "paymentPass":
                paymentPass = try member.value.isNull ? nil : ApplePayPaymentPass(node: member.value)
            case "billingContact":
                billingContact = try member.value.isNull ? nil : ApplePayPaymentContact(node: member.value)
            case "bindToken": bindToken = try member.value.optionalString()
            default: return false
            }
            return true
        }
    }
}

extension ApplePayPaymentPass {
    /// The pass in `node`, as its synthesized `init(from:)` reads it: the two primary members and
    /// `activationState` required, the device's members optional, unknown members ignored.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides.
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        var primaryAccountIdentifier: String?
        var primaryAccountNumberSuffix: String?
        var deviceAccountIdentifier: String?
        var deviceAccountNumberSuffix: String?
        var activationState: ApplePayPaymentPassActivationState?
        for member in try node.members() {
            switch MemberKey(member.key) {
            case "primaryAccountIdentifier": primaryAccountIdentifier = try member.value.string()
            case "primaryAccountNumberSuffix": primaryAccountNumberSuffix = try member.value.string()
            case "deviceAccountIdentifier": deviceAccountIdentifier = try member.value.optionalString()
            case "deviceAccountNumberSuffix": deviceAccountNumberSuffix = try member.value.optionalString()
            case "activationState":
                // Required: `null` is refused, as `decode(_:forKey:)` refuses it.
                guard let state = try member.value.optionalRawValue(ApplePayPaymentPassActivationState.self) else {
                    throw EventJSONDecoder.Unread()
                }
                activationState = state
            default: continue
            }
        }
        guard let primaryAccountIdentifier, let primaryAccountNumberSuffix, let activationState else {
            throw EventJSONDecoder.Unread()
        }
        self.init(
            primaryAccountIdentifier: primaryAccountIdentifier, primaryAccountNumberSuffix: primaryAccountNumberSuffix,
            deviceAccountIdentifier: deviceAccountIdentifier, deviceAccountNumberSuffix: deviceAccountNumberSuffix,
            activationState: activationState)
    }
}
