import CheckoutWeb

extension PaymentAddress {
    /// The address in `node`, as `init(from:)` reads it: every member optional, `null` absent,
    /// unknown members ignored beside a known one.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides: a member of the
    ///   wrong kind, or an object with members and none of an address's (which it refuses, spec W2).
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        self.init()
        let members = try node.members()
        var known = false
        for (key, value) in members {
            switch MemberKey(key) {
            case "country": country = try value.optionalString()
            case "addressLine": addressLine = try value.optionalStrings()
            case "region": region = try value.optionalString()
            case "city": city = try value.optionalString()
            case "dependentLocality": dependentLocality = try value.optionalString()
            case "postalCode": postalCode = try value.optionalString()
            case "sortingCode": sortingCode = try value.optionalString()
            case "organization": organization = try value.optionalString()
            case "recipient": recipient = try value.optionalString()
            case "phone": phone = try value.optionalString()
            default: continue
            }
            known = true
        }
        if !known, !members.isEmpty { throw EventJSONDecoder.Unread() }
    }
}
