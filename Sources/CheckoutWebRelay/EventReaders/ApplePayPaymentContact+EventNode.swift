import CheckoutWeb

extension ApplePayPaymentContact {
    /// The contact in `node`, as `init(from:)` reads it: every member optional, `null` absent,
    /// unknown members ignored beside a known one.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides: a member of the
    ///   wrong kind, or an object with members and none of a contact's (which it refuses, spec W2).
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        self.init()
        let members = try node.members()
        var known = false
        for (key, value) in members {
            switch MemberKey(key) {
            case "phoneNumber": phoneNumber = try value.optionalString()
            case "emailAddress": emailAddress = try value.optionalString()
            case "givenName": givenName = try value.optionalString()
            case "familyName": familyName = try value.optionalString()
            case "phoneticGivenName": phoneticGivenName = try value.optionalString()
            case "phoneticFamilyName": phoneticFamilyName = try value.optionalString()
            case "addressLines": addressLines = try value.optionalStrings()
            case "subLocality": subLocality = try value.optionalString()
            case "locality": locality = try value.optionalString()
            case "postalCode": postalCode = try value.optionalString()
            case "subAdministrativeArea": subAdministrativeArea = try value.optionalString()
            case "administrativeArea": administrativeArea = try value.optionalString()
            case "country": country = try value.optionalString()
            case "countryCode": countryCode = try value.optionalString()
            default: continue
            }
            known = true
        }
        if !known, !members.isEmpty { throw EventJSONDecoder.Unread() }
    }
}
