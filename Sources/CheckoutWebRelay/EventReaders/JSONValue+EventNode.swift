import CheckoutCore

extension JSONValue {
    /// The value in `node`, as `init(from:)` reads it through the tree decoder: a number only as a
    /// whole number that fits in 64 bits (any other is `JSONDecoder`'s to read, as `Decimal`).
    ///
    /// - Throws: ``EventJSONDecoder/Unread`` where the `Decodable` path decides.
    init(node: EventJSONDecoder.Node) throws(EventJSONDecoder.Unread) {
        switch node {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let text):
            guard let whole = Int64(text, radix: 10) else { throw EventJSONDecoder.Unread() }
            self = .integer(whole)
        case .string(let text): self = .string(text)
        case .array(let elements):
            var values: [JSONValue] = []
            for element in elements { values.append(try JSONValue(node: element)) }
            self = .array(values)
        case .object(let members):
            // Key by key in the page's order, as `init(from:)` fills it, at its size from the start.
            var values: [String: JSONValue] = .init(minimumCapacity: members.count)
            for member in members { values[member.key] = try JSONValue(node: member.value) }
            self = .object(values)
        }
    }
}
