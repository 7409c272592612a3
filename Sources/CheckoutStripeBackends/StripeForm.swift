import CheckoutCore

/// Stripe's form encoding (`application/x-www-form-urlencoded`) with nested parameters written
/// as brackets: `shipping[address][line1]=1%20Main%20St`, lists as `payment_method_types[0]=card`.
public struct StripeForm: Hashable, Sendable {
    /// The fields in order, each with its key path.
    public private(set) var fields: [(path: [String], value: String)] = []

    /// An empty form.
    public init() {}

    /// Adds `value` under the key path (`"shipping", "address", "line1"`); nil adds nothing.
    public mutating func add(_ path: String..., value: String?) {
        add(path, value: value)
    }

    /// Adds `value` under the key path; nil adds nothing.
    public mutating func add(_ path: [String], value: String?) {
        guard let value else { return }
        fields.append((path, value))
    }

    /// Adds a JSON value under the key path, as Stripe's form encoding nests it: an object's
    /// members and an array's elements (by index) in brackets, `true` and `false` as words,
    /// numbers as written, `null` as the empty string (Stripe's way to unset a field).
    public mutating func add(json value: JSONValue, under path: [String]) {
        switch value {
        case .object(let members):
            for key in members.keys.sorted() { add(json: members[key] ?? .null, under: path + [key]) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { add(json: element, under: path + [String(index)]) }
        case .null: add(path, value: "")
        case .bool(let flag): add(path, value: flag ? "true" : "false")
        case .integer(let number): add(path, value: String(number))
        case .number(let number): add(path, value: "\(number)")
        case .string(let text): add(path, value: text)
        }
    }

    /// The key of a path: the first name, then each further one in brackets.
    public static func key(_ path: [String]) -> String {
        guard let first = path.first else { return "" }
        return path.dropFirst().reduce(first) { "\($0)[\($1)]" }
    }

    /// The encoded body or query: `key=value` pairs joined by `&`, every byte but the unreserved
    /// ones (letters, digits, `-._~`) percent-encoded.
    public var encoded: String {
        fields.map { "\(Self.escape(Self.key($0.path)))=\(Self.escape($0.value))" }.joined(separator: "&")
    }

    /// Percent-encodes every byte but letters, digits and `-._~`.
    public static func escape(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }

    /// Forms are equal when their fields are.
    public static func == (lhs: StripeForm, rhs: StripeForm) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.path == $1.path && $0.value == $1.value }
    }

    /// Hashes the fields.
    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.path)
            hasher.combine(field.value)
        }
    }
}
