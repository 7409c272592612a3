import CheckoutCore
import Foundation

/// Encodes a value to the bytes `JSONEncoder` writes with `.sortedKeys` and
/// `.withoutEscapingSlashes` (a reply's form), at a fraction of its cost: the value is encoded into
/// a small tree of its own, whose objects' keys are sorted as `JSONEncoder` sorts them (Swift's
/// `String` order) and written by ``/CheckoutCore/JSONWriter``.
///
/// What the two could write differently is left to `JSONEncoder`, whole: floating-point numbers,
/// `Decimal`, `Date`, `Data` and `URL` (which `JSONEncoder` writes in forms of its own), a key
/// written twice in one object, a super encoder. ``encode(_:)`` then answers nil, as it does when
/// the value's encoding throws; the caller encodes with `JSONEncoder`. (The coding path is kept
/// for keys, not for array elements; the wire types do not read it.) A test compares the two
/// byte for byte.
enum SortedJSONEncoder {
    /// The JSON of `value`, or nil where `JSONEncoder` must write it.
    static func encode(_ value: some Encodable) -> Data? {
        let root = Slot()
        let encoder = TreeEncoder(slot: root, codingPath: [])
        guard (try? value.encode(to: encoder)) != nil else { return nil }
        var writer = JSONWriter(capacity: 512, escapingSlashes: false)
        guard root.write(to: &writer) else { return nil }
        return Data(writer.bytes)
    }

    /// Why the tree gives a value up to `JSONEncoder`.
    struct LeftToFoundation: Error {}

    /// Where one value goes: set once.
    final class Slot {
        var value: Value = .unset
        /// A value's own `encode(to:)` is writing into this slot.
        var isOpen = false

        enum Value {
            case unset
            case null
            case bool(Bool)
            case integer(Int64)
            case unsigned(UInt64)
            case string(String)
            case object(Object)
            case array(Array)
        }

        func write(to writer: inout JSONWriter) -> Bool {
            switch value {
            case .unset:
                // An encoder given nothing: JSONEncoder writes `{}` for a top-level value, an
                // error elsewhere; left to it.
                return false
            case .null: writer.raw("null")
            case .bool(let flag): writer.bool(flag)
            case .integer(let number): writer.integer(number)
            case .unsigned(let number): writer.integer(number)
            case .string(let text): writer.string(text)
            case .object(let object):
                guard object.members.count < 2 || object.sortMembers() else { return false }
                writer.byte(UInt8(ascii: "{"))
                for (index, member) in object.members.enumerated() {
                    if index > 0 { writer.byte(UInt8(ascii: ",")) }
                    writer.string(member.key)
                    writer.byte(UInt8(ascii: ":"))
                    guard member.slot.write(to: &writer) else { return false }
                }
                writer.byte(UInt8(ascii: "}"))
            case .array(let array):
                writer.byte(UInt8(ascii: "["))
                for (index, element) in array.elements.enumerated() {
                    if index > 0 { writer.byte(UInt8(ascii: ",")) }
                    guard element.write(to: &writer) else { return false }
                }
                writer.byte(UInt8(ascii: "]"))
            }
            return true
        }
    }

    final class Object {
        var members: [(key: String, slot: Slot)] = []

        /// Sorts the members by key; false when a key is there twice (JSONEncoder's choice then
        /// is its own).
        func sortMembers() -> Bool {
            members.sort { $0.key < $1.key }
            for index in members.indices.dropFirst() where members[index - 1].key == members[index].key {
                return false
            }
            return true
        }

        func slot(for key: String) -> Slot {
            let slot = Slot()
            members.append((key, slot))
            return slot
        }
    }

    final class Array {
        var elements: [Slot] = []

        func append() -> Slot {
            let slot = Slot()
            elements.append(slot)
            return slot
        }
    }

    /// Sets a slot from a value, or refuses what `JSONEncoder` writes its own way. Types are told
    /// apart by their metatypes: a cast to a protocol (`as? any BinaryInteger`) asks the runtime for
    /// conformances, which cost more than the rest of the encoding.
    static func set<T: Encodable>(_ value: T, in slot: Slot, codingPath: @autoclosure () -> [any CodingKey]) throws {
        let type = T.self
        if type == String.self {
            slot.value = .string(unsafeBitCast(value, to: String.self))
        } else if type == Int.self {
            slot.value = .integer(Int64(unsafeBitCast(value, to: Int.self)))
        } else if type == Bool.self {
            slot.value = .bool(unsafeBitCast(value, to: Bool.self))
        } else if type == Int64.self {
            slot.value = .integer(unsafeBitCast(value, to: Int64.self))
        } else if type == Int32.self {
            slot.value = .integer(Int64(unsafeBitCast(value, to: Int32.self)))
        } else if type == Int16.self {
            slot.value = .integer(Int64(unsafeBitCast(value, to: Int16.self)))
        } else if type == Int8.self {
            slot.value = .integer(Int64(unsafeBitCast(value, to: Int8.self)))
        } else if type == UInt.self {
            slot.value = .unsigned(UInt64(unsafeBitCast(value, to: UInt.self)))
        } else if type == UInt64.self {
            slot.value = .unsigned(unsafeBitCast(value, to: UInt64.self))
        } else if type == UInt32.self {
            slot.value = .unsigned(UInt64(unsafeBitCast(value, to: UInt32.self)))
        } else if type == UInt16.self {
            slot.value = .unsigned(UInt64(unsafeBitCast(value, to: UInt16.self)))
        } else if type == UInt8.self {
            slot.value = .unsigned(UInt64(unsafeBitCast(value, to: UInt8.self)))
        } else if type == Double.self || type == Float.self || type == Decimal.self || type == Date.self
            || type == Data.self || type == URL.self || slot.isOpen
        {
            // Written JSONEncoder's own way; or a value that encodes itself into its own slot again
            // (a scalar of a type not told apart here, such as `Int128`), left to JSONEncoder too.
            throw LeftToFoundation()
        } else {
            slot.isOpen = true
            try value.encode(to: TreeEncoder(slot: slot, codingPath: codingPath()))
        }
    }

    struct TreeEncoder: Encoder {
        let slot: Slot
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let object: Object
            if case .object(let existing) = slot.value {
                object = existing
            } else {
                object = Object()
                slot.value = .object(object)
            }
            return KeyedEncodingContainer(Keyed<Key>(object: object, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let array: Array
            if case .array(let existing) = slot.value {
                array = existing
            } else {
                array = Array()
                slot.value = .array(array)
            }
            return Unkeyed(array: array, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(slot: slot, codingPath: codingPath)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let object: Object
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { object.slot(for: key.stringValue).value = .null }
        mutating func encode(_ value: String, forKey key: Key) throws {
            object.slot(for: key.stringValue).value = .string(value)
        }
        mutating func encode(_ value: Int, forKey key: Key) throws {
            object.slot(for: key.stringValue).value = .integer(Int64(value))
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            object.slot(for: key.stringValue).value = .bool(value)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try SortedJSONEncoder.set(value, in: object.slot(for: key.stringValue), codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            TreeEncoder(slot: object.slot(for: key.stringValue), codingPath: codingPath + [key])
                .container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            TreeEncoder(slot: object.slot(for: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
        }

        // An unset slot: the write gives the value up to JSONEncoder.
        mutating func superEncoder() -> any Encoder {
            _ = object.slot(for: "super")
            return Refusing(codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            _ = object.slot(for: key.stringValue)
            return Refusing(codingPath: codingPath)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let array: Array
        let codingPath: [any CodingKey]
        var count: Int { array.elements.count }

        mutating func encodeNil() throws { array.append().value = .null }
        mutating func encode(_ value: String) throws { array.append().value = .string(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try SortedJSONEncoder.set(value, in: array.append(), codingPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            TreeEncoder(slot: array.append(), codingPath: codingPath).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            TreeEncoder(slot: array.append(), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            _ = array.append()
            return Refusing(codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { slot.value = .null }
        mutating func encode(_ value: String) throws { slot.value = .string(value) }
        mutating func encode(_ value: Int) throws { slot.value = .integer(Int64(value)) }
        mutating func encode(_ value: Bool) throws { slot.value = .bool(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try SortedJSONEncoder.set(value, in: slot, codingPath: codingPath)
        }
    }

    /// A super encoder: left to `JSONEncoder` (its containers throw when used).
    struct Refusing: Encoder {
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(RefusingKeyed<Key>(codingPath: codingPath))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyed(codingPath: codingPath) }
        func singleValueContainer() -> any SingleValueEncodingContainer { RefusingSingle(codingPath: codingPath) }
    }

    struct RefusingKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let codingPath: [any CodingKey]
        mutating func encodeNil(forKey key: Key) throws { throw LeftToFoundation() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw LeftToFoundation() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        { KeyedEncodingContainer(RefusingKeyed<NestedKey>(codingPath: codingPath)) }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            RefusingUnkeyed(codingPath: codingPath)
        }
        mutating func superEncoder() -> any Encoder { Refusing(codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { Refusing(codingPath: codingPath) }
    }

    struct RefusingUnkeyed: UnkeyedEncodingContainer {
        let codingPath: [any CodingKey]
        var count: Int { 0 }
        mutating func encodeNil() throws { throw LeftToFoundation() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw LeftToFoundation() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        { KeyedEncodingContainer(RefusingKeyed<NestedKey>(codingPath: codingPath)) }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { Refusing(codingPath: codingPath) }
    }

    struct RefusingSingle: SingleValueEncodingContainer {
        let codingPath: [any CodingKey]
        mutating func encodeNil() throws { throw LeftToFoundation() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw LeftToFoundation() }
    }
}
