import Foundation

/// Any JSON value, kept losslessly: the browser's opaque objects (`paymentData`, Apple's
/// recurring-payment requests, W3C `data` members) pass through a relay unchanged, and Stripe's
/// objects keep the fields they do not model (spec P10).
///
/// Numbers keep their exact value: an integer that fits in 64 bits is ``integer(_:)``, any other
/// number ``number(_:)`` as a `Decimal`, never as binary floating point. Objects keep every key;
/// when encoded, keys come out sorted, so the same value always gives the same bytes.
public enum JSONValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number that fits in 64 bits.
    case integer(Int64)
    /// Any other number, exactly.
    case number(Decimal)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: JSONKey.self) {
            var members: [String: JSONValue] = [:]
            for key in keyed.allKeys {
                members[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !unkeyed.isAtEnd {
                elements.append(try unkeyed.decode(JSONValue.self))
            }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Decimal.self) {
            self = .number(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Encodes the value as it was decoded.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .integer(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var unkeyed = encoder.unkeyedContainer()
            for element in elements {
                try unkeyed.encode(element)
            }
        case .object(let members):
            var keyed = encoder.container(keyedBy: JSONKey.self)
            for (key, value) in members {
                try keyed.encode(value, forKey: JSONKey(key))
            }
        }
    }

    /// The value as compact JSON text with sorted keys.
    public var jsonText: String {
        // Written directly, the bytes `JSONEncoder` writes, at a fraction of its cost (a relayed
        // payment's token data is made text here, once a session: BENCHMARKS.md, the relay); a
        // `Decimal` number, which `JSONEncoder` writes its own way, is left to it.
        var writer = JSONWriter(capacity: 256, escapingSlashes: false)
        if write(to: &writer) { return writer.output }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case is a plain JSON value.
        guard let data = try? encoder.encode(self) else { preconditionFailure("a JSONValue always encodes") }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes the value as `JSONEncoder` writes it with `.sortedKeys` and
    /// `.withoutEscapingSlashes`; false, with the writer part-way, when it holds a ``number(_:)``.
    package func write(to writer: inout JSONWriter) -> Bool {
        switch self {
        case .null: writer.raw("null")
        case .bool(let flag): writer.bool(flag)
        case .integer(let number): writer.integer(number)
        case .number: return false
        case .string(let text): writer.string(text)
        case .array(let elements):
            writer.byte(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                guard element.write(to: &writer) else { return false }
            }
            writer.byte(UInt8(ascii: "]"))
        case .object(let members):
            writer.byte(UInt8(ascii: "{"))
            // `JSONEncoder`'s order: `e\u{301}x` comes before `z` in it, after `é` in `String` order.
            for (index, member) in members.sorted(by: { JSONWriter.precedesAsEncoderKey($0.key, $1.key) })
                .enumerated()
            {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                writer.string(member.key)
                writer.byte(UInt8(ascii: ":"))
                guard member.value.write(to: &writer) else { return false }
            }
            writer.byte(UInt8(ascii: "}"))
        }
        return true
    }

    /// The value as a core token's payment data: a string as it is, any other value as its
    /// ``jsonText``.
    package var paymentDataText: String {
        if case .string(let string) = self { return string }
        return jsonText
    }

    /// Parses JSON text (any value, not only objects and arrays); nil when it is not JSON.
    public init?(jsonText: String) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(jsonText.utf8)) else { return nil }
        self = value
    }

    /// ``jsonText``.
    public var description: String { jsonText }
}

/// A coding key of any name, for reading every key of an object.
package struct JSONKey: CodingKey, Hashable {
    package var stringValue: String
    package var intValue: Int? { nil }

    package init(_ string: String) { self.stringValue = string }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}
