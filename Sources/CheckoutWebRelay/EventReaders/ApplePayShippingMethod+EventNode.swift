import CheckoutWeb

extension ApplePayShippingMethod {
    /// The method in `node`, as its synthesized `init(from:)` reads it: `label`, `detail`,
    /// `amount` and `identifier` strings, `dateComponentsRange` optional, unknown members ignored.
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides: a required member
    ///   missing or `null`, a member of the wrong kind.
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        var label: String?
        var detail: String?
        var amount: String?
        var identifier: String?
        var range: ApplePayDateComponentsRange?
        for member in try node.members() {
            switch MemberKey(member.key) {
            case "label": label = try member.value.string()
            case "detail": detail = try member.value.string()
            case "amount": amount = try member.value.string()
            case "identifier": identifier = try member.value.string()
            case "dateComponentsRange":
                if member.value.isNull { continue }
                range = try ApplePayDateComponentsRange(node: member.value)
            default: continue
            }
        }
        guard let label, let detail, let amount, let identifier else { throw EventJSONDecoder.Unread() }
        self.init(label: label, detail: detail, amount: amount, identifier: identifier, dateComponentsRange: range)
    }
}
