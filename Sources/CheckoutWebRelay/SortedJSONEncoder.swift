import CheckoutCore
import Foundation

/// Encodes a value to the bytes `JSONEncoder` writes with `.sortedKeys` and
/// `.withoutEscapingSlashes` (a reply's form), at a fraction of its cost: the value is encoded into
/// a small tree of its own, whose objects' keys are sorted as `JSONEncoder` sorts them (by their
/// UTF-8 bytes) and written by ``/CheckoutCore/JSONWriter``.
///
/// What the two could write differently is left to `JSONEncoder`, whole: floating-point numbers,
/// `Decimal`, `Date`, `Data` and `URL` (which `JSONEncoder` writes in forms of its own), a key
/// written twice in one object, a super encoder. ``encode(_:)`` then answers nil, as it does when
/// the value's encoding throws; the caller encodes with `JSONEncoder`. (The coding path is kept
/// for keys, not for array elements; the wire types do not read it.) A test compares the two
/// byte for byte.
///
/// The tree's objects and arrays are ``Container``s holding their members' values inline: a
/// scalar costs no allocation of its own, an object or array one.
///
/// The relay writes the replies of Apple Pay and the W3C sheet without `Encodable`, by the wire
/// types' own writers (``RelayReply/writtenJSON``); this encoder writes the others (Google Pay's,
/// the Express Checkout Element's) and what those writers leave to `Encodable`.
enum SortedJSONEncoder {
    /// The JSON of `value`, or nil where `JSONEncoder` must write it.
    static func encode(_ value: some Encodable) -> Data? {
        let root = Container(isObject: false)
        root.members.append(("", .unset))
        guard (try? value.encode(to: TreeEncoder(target: Target(root, 0), codingPath: []))) != nil else {
            return nil
        }
        var writer = JSONWriter(capacity: 512, escapingSlashes: false)
        guard write(root.members[0].value, to: &writer) else { return nil }
        return Data(writer.bytes)
    }

    /// Why the tree gives a value up to `JSONEncoder`.
    struct LeftToFoundation: Error {}

    /// A value of the tree.
    enum Value {
        /// Nothing was encoded: JSONEncoder writes `{}` at the top and refuses it elsewhere; left
        /// to it.
        case unset
        /// A value's own `encode(to:)` is writing here.
        case open
        case null
        case bool(Bool)
        case integer(Int64)
        case unsigned(UInt64)
        case string(String)
        case container(Container)
    }

    /// An object (members with keys) or an array (members without).
    final class Container {
        let isObject: Bool
        /// Unchecked: only the encoding that made the container touches it, one access at a time;
        /// the dynamic exclusivity checks were a tenth of the encoding.
        @exclusivity(unchecked) var members: [(key: String, value: Value)] = []

        init(isObject: Bool) {
            self.isObject = isObject
            members.reserveCapacity(isObject ? 8 : 4)
        }

        /// A new member; its index.
        func append(_ key: String, _ value: Value) -> Int {
            members.append((key, value))
            return members.count - 1
        }
    }

    /// Where one value goes: a container's member.
    struct Target {
        let container: Container
        let index: Int

        init(_ container: Container, _ index: Int) {
            self.container = container
            self.index = index
        }

        var value: Value {
            get { container.members[index].value }
            nonmutating set { container.members[index].value = newValue }
        }

        /// The container of `isObject`'s kind here, made if there is none yet.
        func container(isObject: Bool) -> Container {
            if case .container(let existing) = value, existing.isObject == isObject { return existing }
            let made = Container(isObject: isObject)
            value = .container(made)
            return made
        }
    }

    static func write(_ value: Value, to writer: inout JSONWriter) -> Bool {
        switch value {
        case .unset, .open: return false
        case .null: writer.raw("null")
        case .bool(let flag): writer.bool(flag)
        case .integer(let number): writer.integer(number)
        case .unsigned(let number): writer.integer(number)
        case .string(let text): writer.string(text)
        case .container(let container):
            if container.isObject {
                if container.members.count > 1 {
                    // `String` order first: it puts keys equal as `String`s side by side, and is
                    // the bytes' order, `JSONEncoder`'s, for every key in its canonical form (every
                    // ASCII key). A key twice: which one JSONEncoder keeps is its own choice.
                    container.members.sort { $0.key < $1.key }
                    var inBytesOrder = true
                    for index in container.members.indices.dropFirst() {
                        let (before, after) = (container.members[index - 1].key, container.members[index].key)
                        if before == after { return false }
                        if inBytesOrder, !JSONWriter.precedesAsEncoderKey(before, after) { inBytesOrder = false }
                    }
                    if !inBytesOrder { container.members.sort { JSONWriter.precedesAsEncoderKey($0.key, $1.key) } }
                }
                writer.byte(UInt8(ascii: "{"))
                for index in container.members.indices {
                    if index > 0 { writer.byte(UInt8(ascii: ",")) }
                    writer.string(container.members[index].key)
                    writer.byte(UInt8(ascii: ":"))
                    guard write(container.members[index].value, to: &writer) else { return false }
                }
                writer.byte(UInt8(ascii: "}"))
            } else {
                writer.byte(UInt8(ascii: "["))
                for index in container.members.indices {
                    if index > 0 { writer.byte(UInt8(ascii: ",")) }
                    guard write(container.members[index].value, to: &writer) else { return false }
                }
                writer.byte(UInt8(ascii: "]"))
            }
        }
        return true
    }

    /// The tree's value for `value`, or nil for one that encodes itself (into `target`, which it
    /// then fills); throws for what `JSONEncoder` writes its own way. Types are told apart by
    /// their metatypes: a cast to a protocol (`as? any BinaryInteger`) asks the runtime for
    /// conformances, which cost more than the rest of the encoding.
    static func set<T: Encodable>(_ value: T, in target: Target, codingPath: @autoclosure () -> [any CodingKey])
        throws
    {
        let type = T.self
        if type == String.self {
            target.value = .string(unsafeBitCast(value, to: String.self))
        } else if type == Int.self {
            target.value = .integer(Int64(unsafeBitCast(value, to: Int.self)))
        } else if type == Bool.self {
            target.value = .bool(unsafeBitCast(value, to: Bool.self))
        } else if type == Int64.self {
            target.value = .integer(unsafeBitCast(value, to: Int64.self))
        } else if type == Int32.self {
            target.value = .integer(Int64(unsafeBitCast(value, to: Int32.self)))
        } else if type == Int16.self {
            target.value = .integer(Int64(unsafeBitCast(value, to: Int16.self)))
        } else if type == Int8.self {
            target.value = .integer(Int64(unsafeBitCast(value, to: Int8.self)))
        } else if type == UInt.self {
            target.value = .unsigned(UInt64(unsafeBitCast(value, to: UInt.self)))
        } else if type == UInt64.self {
            target.value = .unsigned(unsafeBitCast(value, to: UInt64.self))
        } else if type == UInt32.self {
            target.value = .unsigned(UInt64(unsafeBitCast(value, to: UInt32.self)))
        } else if type == UInt16.self {
            target.value = .unsigned(UInt64(unsafeBitCast(value, to: UInt16.self)))
        } else if type == UInt8.self {
            target.value = .unsigned(UInt64(unsafeBitCast(value, to: UInt8.self)))
        } else if type == Double.self || type == Float.self || type == Decimal.self || type == Date.self
            || type == Data.self || type == URL.self
        {
            throw LeftToFoundation()
        } else {
            // A value that encodes itself into its own place again (a scalar of a type not told
            // apart here, such as `Int128`) is left to JSONEncoder too.
            if case .open = target.value { throw LeftToFoundation() }
            target.value = .open
            try value.encode(to: TreeEncoder(target: target, codingPath: codingPath()))
        }
    }

    struct TreeEncoder: Encoder {
        let target: Target
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keyed<Key>(object: target.container(isObject: true), codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            Unkeyed(array: target.container(isObject: false), codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(target: target, codingPath: codingPath)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let object: Container
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { _ = object.append(key.stringValue, .null) }
        mutating func encode(_ value: String, forKey key: Key) throws {
            _ = object.append(key.stringValue, .string(value))
        }
        mutating func encode(_ value: Int, forKey key: Key) throws {
            _ = object.append(key.stringValue, .integer(Int64(value)))
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws { _ = object.append(key.stringValue, .bool(value)) }

        // The protocol's own `encodeIfPresent`s are its extension's generic code, which looks up
        // this container's metadata on each call.
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            if let value { _ = object.append(key.stringValue, .string(value)) }
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            if let value { _ = object.append(key.stringValue, .integer(Int64(value))) }
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            if let value { _ = object.append(key.stringValue, .bool(value)) }
        }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) }
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let target = Target(object, object.append(key.stringValue, .unset))
            try SortedJSONEncoder.set(value, in: target, codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            TreeEncoder(target: Target(object, object.append(key.stringValue, .unset)), codingPath: codingPath + [key])
                .container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            TreeEncoder(target: Target(object, object.append(key.stringValue, .unset)), codingPath: codingPath + [key])
                .unkeyedContainer()
        }

        // An unset member: the write gives the value up to JSONEncoder.
        mutating func superEncoder() -> any Encoder {
            _ = object.append("super", .unset)
            return Refusing(codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            _ = object.append(key.stringValue, .unset)
            return Refusing(codingPath: codingPath)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let array: Container
        let codingPath: [any CodingKey]
        var count: Int { array.members.count }

        mutating func encodeNil() throws { _ = array.append("", .null) }
        mutating func encode(_ value: String) throws { _ = array.append("", .string(value)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try SortedJSONEncoder.set(value, in: Target(array, array.append("", .unset)), codingPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            TreeEncoder(target: Target(array, array.append("", .unset)), codingPath: codingPath)
                .container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            TreeEncoder(target: Target(array, array.append("", .unset)), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            _ = array.append("", .unset)
            return Refusing(codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let target: Target
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { target.value = .null }
        mutating func encode(_ value: String) throws { target.value = .string(value) }
        mutating func encode(_ value: Int) throws { target.value = .integer(Int64(value)) }
        mutating func encode(_ value: Bool) throws { target.value = .bool(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try SortedJSONEncoder.set(value, in: target, codingPath: codingPath)
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
