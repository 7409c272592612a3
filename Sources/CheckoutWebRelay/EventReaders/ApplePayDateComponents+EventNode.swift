import CheckoutWeb

extension ApplePayDateComponentsRange {
    /// The range in `node`, as its synthesized `init(from:)` reads it: both ends required.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides.
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        var start: ApplePayDateComponents?
        var end: ApplePayDateComponents?
        for member in try node.members() {
            switch MemberKey(member.key) {
            case "startDateComponents": start = try ApplePayDateComponents(node: member.value)
            case "endDateComponents": end = try ApplePayDateComponents(node: member.value)
            default: continue
            }
        }
        guard let start, let end else { throw EventJSONDecoder.Unread() }
        self.init(startDateComponents: start, endDateComponents: end)
    }
}

extension ApplePayDateComponents {
    /// The components in `node`, as `init(from:)` reads them: four optional whole numbers,
    /// unknown members ignored beside a known one.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides: a number that is
    ///   not a plain integer, a member of the wrong kind, an object with members and none of these.
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        self.init()
        try node.readOptionalMembers { member throws(EventJSONDecoder.Unread) in
            switch MemberKey(member.key) {
            case "years": years = try member.value.optionalInt()
            case "months": months = try member.value.optionalInt()
            case "days": days = try member.value.optionalInt()
            case "hours": hours = try member.value.optionalInt()
            default: return false
            }
            return true
        }
    }
}
