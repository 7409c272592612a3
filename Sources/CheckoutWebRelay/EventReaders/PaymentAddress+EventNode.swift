import CheckoutWeb

extension PaymentAddress {
    /// The address in `node`, as `init(from:)` reads it: every member optional, `null` absent,
    /// unknown members ignored beside a known one.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides: a member of the
    ///   wrong kind, or an object with members and none of an address's (which it refuses, spec W2).
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        self.init()
        try node.readOptionalMembers { member throws(EventJSONDecoder.Unread) in
            switch MemberKey(member.key) {
            case "country": country = try member.value.optionalString()
            case "addressLine": addressLine = try member.value.optionalStrings()
            case "region": region = try member.value.optionalString()
            case "city": city = try member.value.optionalString()
            case "dependentLocality": dependentLocality = try member.value.optionalString()
            case "postalCode": postalCode = try member.value.optionalString()
            case "sortingCode": sortingCode = try member.value.optionalString()
            case "organization": organization = try member.value.optionalString()
            case "recipient": recipient = try member.value.optionalString()
            case "phone": phone = try member.value.optionalString()
            default: return false
            }
            return true
        }
    }
}
