import Foundation

/// A model value's JSON text as a transcript records it (spec E8): what `JSONEncoder` encodes,
/// written byte for byte as `JSONSerialization` writes it with `.sortedKeys` (keys in its
/// case-insensitive, numeric order; `/` escaped as `\/`).
///
/// The value is encoded into a tree of its own and written by ``JSONWriter``, without the text
/// `JSONEncoder` would make, its parse, and the bridged dictionaries `JSONSerialization` sorts:
/// that round trip was three fifths of the explorer's time (issue 16). Values whose JSON the two
/// Foundation coders could write differently (floating-point numbers, `Decimal`, `Date`, `Data`,
/// `URL`, integers beyond `Int64`), and values encoded in ways the tree does not model (a super
/// encoder, a nested container asked for twice under one key, nesting past 500 levels, where
/// Foundation refuses to write) are left to them, whole: ``text(_:)`` answers nil and the caller
/// uses ``foundationText(_:)``. (The coding path is not kept as `JSONEncoder` keeps it for array
/// elements; no model reads it.)
package enum ModelJSON {
    /// The JSON of `value`, or nil when it holds a value this encoder leaves to Foundation or its
    /// encoding fails.
    package static func text(_ value: some Encodable) -> String? {
        let encoder = TreeEncoder(codingPath: [], context: Context())
        guard (try? value.encode(to: encoder)) != nil, !encoder.context.leftToFoundation, let root = encoder.root
        else { return nil }
        var writer = JSONWriter()
        guard write(root, to: &writer, depth: 0) else { return nil }
        return writer.output
    }

    /// The JSON of `value` through `JSONEncoder` and `JSONSerialization`, as it was always
    /// written (the reference ``text(_:)`` is tested against).
    package static func foundationText(_ value: some Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            let again = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return nil }
        return String(decoding: again, as: UTF8.self)
    }

    /// Writes `node`; false when it nests deeper than ``deepest`` (left to Foundation, which
    /// refuses 512 levels).
    private static func write(_ node: Node, to writer: inout JSONWriter, depth: Int) -> Bool {
        guard depth <= deepest else { return false }
        switch node.value {
        case .null: writer.raw("null")
        case .bool(let flag): writer.raw(flag ? "true" : "false")
        case .number(let text): writer.raw(text)
        case .string(let text): writer.string(text)
        case .array(let items):
            writer.raw("[")
            for (index, item) in items.enumerated() {
                if index > 0 { writer.raw(",") }
                guard write(item, to: &writer, depth: depth + 1) else { return false }
            }
            writer.raw("]")
        case .object(let fields):
            writer.raw("{")
            for (index, field) in sorted(fields).enumerated() {
                if index > 0 { writer.raw(",") }
                writer.string(field.key)
                writer.raw(":")
                guard write(field.node, to: &writer, depth: depth + 1) else { return false }
            }
            writer.raw("}")
        }
        return true
    }

    /// The deepest nesting the tree writes itself.
    private static let deepest = 500

    /// An object's fields in `JSONSerialization`'s order of sorted keys (``precedes(_:_:)``), with
    /// whether each key is all ASCII letters worked out once rather than at every comparison.
    private static func sorted(_ fields: [Field]) -> [Field] {
        guard fields.count > 1 else { return fields }
        let letters = fields.map { isLetters($0.key) }
        var order = Array(fields.indices)
        order.sort { a, b in precedes(fields[a].key, letters[a], fields[b].key, letters[b]) }
        return order.map { fields[$0] }
    }

    /// `JSONSerialization`'s order of sorted keys: `compare` with `.numeric`, `.caseInsensitive`
    /// and `.forcedOrdering` in the system locale. Keys of ASCII letters alone that differ other
    /// than in case (every key of CheckoutCore's models) are ordered as that comparison orders
    /// them, by their lower-cased bytes, without it.
    package static func precedes(_ a: String, _ b: String) -> Bool {
        precedes(a, isLetters(a), b, isLetters(b))
    }

    private static func precedes(_ a: String, _ aIsLetters: Bool, _ b: String, _ bIsLetters: Bool) -> Bool {
        if aIsLetters, bIsLetters {
            let x = a.utf8.lazy.map { $0 | 0x20 }
            let y = b.utf8.lazy.map { $0 | 0x20 }
            if !x.elementsEqual(y) { return x.lexicographicallyPrecedes(y) }
        }
        return foundationPrecedes(a, b)
    }

    /// Whether the key is all ASCII letters.
    private static func isLetters(_ key: String) -> Bool {
        key.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    private static func foundationPrecedes(_ a: String, _ b: String) -> Bool {
        let options: String.CompareOptions = [.numeric, .caseInsensitive, .forcedOrdering]
        return a.compare(b, options: options, range: a.startIndex..<a.endIndex, locale: NSLocale.system)
            == .orderedAscending
    }

    /// A value the tree leaves to Foundation's coders.
    struct LeftToFoundation: Error {}

    /// What every encoder and container of one value shares: whether a part of it (a
    /// `superEncoder` call, which cannot throw) was left to Foundation.
    final class Context {
        var leftToFoundation = false
    }

    /// One field of an object node.
    struct Field {
        let key: String
        let node: Node
    }

    /// One value of the tree; containers fill theirs in after handing it to their parent.
    final class Node {
        enum Value {
            case null
            case bool(Bool)
            case number(String)
            case string(String)
            case array([Node])
            /// The fields in the order they were first set (a key set again keeps its place and
            /// takes the new value, as `JSONEncoder`'s containers do).
            case object([Field])
        }

        var value: Value

        init(_ value: Value) { self.value = value }

        /// Appends `item` to this array node.
        func append(_ item: Node) {
            guard case .array(var items) = value else { return }
            value = .null  // let go of the array, so that the append does not copy it
            items.append(item)
            value = .array(items)
        }

        /// Whether this object node has `key` set.
        func has(_ key: String) -> Bool {
            guard case .object(let fields) = value else { return false }
            return fields.contains { $0.key == key }
        }

        /// Sets `key` of this object node (a key set again keeps its first spelling, as a
        /// `Dictionary` does when the two are equal but not the same scalars).
        func set(_ key: String, _ item: Node) {
            guard case .object(var fields) = value else { return }
            value = .null
            if let index = fields.firstIndex(where: { $0.key == key }) {
                fields[index] = Field(key: fields[index].key, node: item)
            } else {
                fields.append(Field(key: key, node: item))
            }
            value = .object(fields)
        }
    }

    /// A leaf for `value`, nil when it is not one (it encodes itself into an encoder). The type
    /// is compared, not cast to: a failed cast costs a runtime search.
    static func leaf<T: Encodable>(_ value: T, _ context: Context) throws -> Node? {
        func number<N: BinaryInteger>(_: N.Type) -> Node { Node(.number(String(unsafeBitCast(value, to: N.self)))) }
        let type = T.self
        if type == String.self { return Node(.string(unsafeBitCast(value, to: String.self))) }
        if type == Bool.self { return Node(.bool(unsafeBitCast(value, to: Bool.self))) }
        if type == Int.self { return number(Int.self) }
        if type == Int64.self { return number(Int64.self) }
        if type == Int32.self { return number(Int32.self) }
        if type == Int16.self { return number(Int16.self) }
        if type == Int8.self { return number(Int8.self) }
        if type == UInt8.self { return number(UInt8.self) }
        if type == UInt16.self { return number(UInt16.self) }
        if type == UInt32.self { return number(UInt32.self) }
        if type == UInt64.self, unsafeBitCast(value, to: UInt64.self) <= UInt64(Int64.max) {
            return number(UInt64.self)
        }
        if type == UInt.self, unsafeBitCast(value, to: UInt.self) <= UInt(Int64.max) { return number(UInt.self) }
        if type == UInt64.self || type == UInt.self || type == Double.self || type == Float.self
            || type == Decimal.self || type == Date.self || type == Data.self || type == URL.self
        {
            // Marked as well as thrown: a model that catches the error must not get a value
            // without the field.
            context.leftToFoundation = true
            throw LeftToFoundation()
        }
        return nil
    }

    /// A node for `value`: a leaf, or what it encodes into an encoder of its own.
    static func node<T: Encodable>(_ value: T, at path: [any CodingKey], _ context: Context) throws -> Node {
        if let leaf = try leaf(value, context) { return leaf }
        let encoder = TreeEncoder(codingPath: path, context: context)
        try value.encode(to: encoder)
        // A value that encodes nothing is `{}`, as JSONEncoder writes it.
        return encoder.root ?? Node(.object([]))
    }
}

/// The encoder of ``ModelJSON``: each container writes into the node it made.
private final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    let context: ModelJSON.Context
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// The value encoded: an object, an array or a single value.
    var root: ModelJSON.Node?

    init(codingPath: [any CodingKey], context: ModelJSON.Context) {
        self.codingPath = codingPath
        self.context = context
    }

    /// The encoder for a `superEncoder` call: the tree does not model one, so the value is left
    /// to Foundation; what is encoded into it is not written.
    func leftToFoundation() -> any Encoder {
        context.leftToFoundation = true
        return TreeEncoder(codingPath: codingPath, context: context)
    }

    private func make(_ value: ModelJSON.Node.Value) -> ModelJSON.Node {
        if let root { return root }
        let node = ModelJSON.Node(value)
        root = node
        return node
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedTree(node: make(.object([])), encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedTree(node: make(.array([])), encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleTree(encoder: self) }

    fileprivate func set(_ node: ModelJSON.Node) { root = node }
}

private struct KeyedTree<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: ModelJSON.Node
    /// The encoder whose path and context this container shares.
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func nested(_ key: Key) -> TreeEncoder {
        TreeEncoder(codingPath: codingPath + [key], context: encoder.context)
    }

    mutating func encodeNil(forKey key: Key) throws { node.set(key.stringValue, ModelJSON.Node(.null)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.set(key.stringValue, try ModelJSON.node(value, at: codingPath + [key], encoder.context))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        // Asked for again under a key already set, `JSONEncoder` adds to what is there: not modelled.
        if node.has(key.stringValue) { encoder.context.leftToFoundation = true }
        let nested = ModelJSON.Node(.object([]))
        node.set(key.stringValue, nested)
        return KeyedEncodingContainer(KeyedTree<NestedKey>(node: nested, encoder: self.nested(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        if node.has(key.stringValue) { encoder.context.leftToFoundation = true }
        let nested = ModelJSON.Node(.array([]))
        node.set(key.stringValue, nested)
        return UnkeyedTree(node: nested, encoder: self.nested(key))
    }

    mutating func superEncoder() -> any Encoder { encoder.leftToFoundation() }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.leftToFoundation() }
}

private struct UnkeyedTree: UnkeyedEncodingContainer {
    let node: ModelJSON.Node
    /// The encoder whose path and context this container shares.
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int {
        if case .array(let items) = node.value { return items.count }
        return 0
    }

    mutating func encodeNil() throws { node.append(ModelJSON.Node(.null)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.append(try ModelJSON.node(value, at: codingPath, encoder.context))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = ModelJSON.Node(.object([]))
        node.append(nested)
        return KeyedEncodingContainer(KeyedTree<NestedKey>(node: nested, encoder: encoder))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ModelJSON.Node(.array([]))
        node.append(nested)
        return UnkeyedTree(node: nested, encoder: encoder)
    }

    mutating func superEncoder() -> any Encoder { encoder.leftToFoundation() }
}

private struct SingleTree: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.set(ModelJSON.Node(.null)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.set(try ModelJSON.node(value, at: codingPath, encoder.context))
    }
}
