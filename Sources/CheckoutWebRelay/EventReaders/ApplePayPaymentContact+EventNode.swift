import CheckoutWeb

extension ApplePayPaymentContact {
    /// The contact in `node`, as `init(from:)` reads it: every member optional, `null` absent,
    /// unknown members ignored beside a known one.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides: a member of the
    ///   wrong kind, or an object with members and none of a contact's (which it refuses, spec W2).
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        self.init()
        try node.readOptionalMembers { member throws(EventJSONDecoder.Unread) in
            switch MemberKey(member.key) {
            case "phoneNumber": phoneNumber = try member.value.optionalString()
            case "emailAddress": emailAddress = try member.value.optionalString()
            case "givenName": givenName = try member.value.optionalString()
            case "familyName": familyName = try member.value.optionalString()
            case "phoneticGivenName": phoneticGivenName = try member.value.optionalString()
            case "phoneticFamilyName": phoneticFamilyName = try member.value.optionalString()
            case "addressLines": addressLines = try member.value.optionalStrings()
            case "subLocality": subLocality = try member.value.optionalString()
            case "locality": locality = try member.value.optionalString()
            case "postalCode": postalCode = try member.value.optionalString()
            case "subAdministrativeArea": subAdministrativeArea = try member.value.optionalString()
            case "administrativeArea": administrativeArea = try member.value.optionalString()
            case "country": country = try member.value.optionalString()
            case "countryCode": countryCode = try member.value.optionalString()
            default: return false
            }
            return true
        }
    }
}
