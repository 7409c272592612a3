import CheckoutCore

extension PaymentMethod {
    /// The method as text, as a packed transcript keeps it (``FlowLog/compact()``): its display
    /// name and its network, each `-` when it has none, else its length in UTF-8 bytes, `:` and
    /// itself; then its type's raw value. ``init(packedText:)`` reads it back, to the scalar.
    var packedText: String {
        func field(_ text: String?) -> String {
            text.map { "\($0.utf8.count):\($0)" } ?? "-"
        }
        return field(displayName) + field(network?.rawValue) + type.rawValue
    }

    /// The method ``packedText`` wrote; nil for text it did not write.
    init?(packedText: String) {
        var rest = Substring(packedText)
        func field() -> String?? {
            if rest.utf8.first == UInt8(ascii: "-") {
                rest = rest.dropFirst()
                return .some(nil)
            }
            guard let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":")),
                let count = Int(Substring(rest.utf8[..<colon])), count >= 0
            else { return nil }
            let start = rest.utf8.index(after: colon)
            guard let end = rest.utf8.index(start, offsetBy: count, limitedBy: rest.utf8.endIndex),
                let text = String(rest.utf8[start..<end])
            else { return nil }
            rest = Substring(rest.utf8[end...])
            return .some(text)
        }
        guard let displayName = field(), let network = field(), let type = PaymentMethodType(rawValue: String(rest))
        else { return nil }
        self.init(displayName: displayName, network: network.map(PaymentNetwork.init(rawValue:)), type: type)
    }
}
