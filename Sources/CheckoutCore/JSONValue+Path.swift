/// Reading into a ``JSONValue``: by key, by path, and each case's payload.
extension JSONValue {
    /// The value at `key` of an object; nil for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The value at a path of keys and array indices separated by dots, such as
    /// `amount_details.tip.amount` or `payment_method_types.0`; nil where the path leads nowhere.
    /// The empty path is the value itself.
    public func value(at path: String) -> JSONValue? {
        guard !path.isEmpty else { return self }
        var current = self
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .object(let members):
                guard let next = members[String(component)] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(component), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The text, for a string.
    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The number, for a whole number within 64 bits.
    public var integerValue: Int64? {
        guard case .integer(let number) = self else { return nil }
        return number
    }

    /// The flag, for `true` or `false`.
    public var boolValue: Bool? {
        guard case .bool(let flag) = self else { return nil }
        return flag
    }

    /// The members, for an object.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }
}
