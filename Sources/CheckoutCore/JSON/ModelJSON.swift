import Foundation

/// A model value's JSON text as a transcript records it (spec E8): what `JSONEncoder` encodes,
/// written byte for byte as `JSONSerialization` writes it with `.sortedKeys` (keys in its
/// case-insensitive, numeric order; `/` escaped as `\/`).
///
/// The value is encoded into a tree of its own and written by ``JSONWriter``, without the text
/// `JSONEncoder` would make, its parse, and the bridged dictionaries `JSONSerialization` sorts:
/// that round trip was three fifths of the explorer's time (BENCHMARKS.md). Values whose JSON the two
/// Foundation coders could write differently (floating-point numbers, `Decimal`, `Date`, `Data`,
/// `URL`, integers beyond `Int64`), and values encoded in ways the tree does not model (a super
/// encoder, a nested container asked for twice under one key, nesting past 500 levels, where
/// Foundation refuses to write) are left to them, whole: ``text(_:)`` answers nil and the caller
/// uses ``foundationText(_:)``. (The coding path is not kept as `JSONEncoder` keeps it for array
/// elements; no model reads it.)
///
/// The tree is flat (``Tree``): its nodes and their fields in arrays, indexed, each leaf written
/// as JSON text when encoded, each key too; an object's keys are sorted when it is written, in an
/// order worked out once for each list of keys that is not all letters (``order(of:)``).
package enum ModelJSON {
    /// The JSON of `value`, or nil when it holds a value this encoder leaves to Foundation or its
    /// encoding fails.
    package static func text(_ value: some Encodable) -> String? {
        var writer = JSONWriter()
        guard write(value, to: &writer) else { return nil }
        return writer.output
    }

    /// Writes the JSON of `value` to `writer`; false, with nothing written, where ``text(_:)`` is
    /// nil.
    package static func write(_ value: some Encodable, to writer: inout JSONWriter) -> Bool {
        let tree = Tree()
        let encoder = TreeEncoder(tree: tree, parent: nil, key: nil)
        guard (try? value.encode(to: encoder)) != nil, !tree.leftToFoundation, let root = encoder.root else {
            return false
        }
        let mark = writer.count
        guard tree.write(root, to: &writer, depth: 0) else {
            writer.truncate(to: mark)
            return false
        }
        return true
    }

    /// The JSON of `value` through `JSONEncoder` and `JSONSerialization`, as it was always
    /// written (the reference ``text(_:)`` is tested against).
    package static func foundationText(_ value: some Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.userInfo = [.checkoutMasksSecrets: true]
        guard let data = try? encoder.encode(value),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            let again = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return nil }
        return String(decoding: again, as: UTF8.self)
    }

    /// The deepest nesting the tree writes itself.
    fileprivate static let deepest = 500

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
        key.utf8.allSatisfy(isLetter)
    }

    @inline(__always)
    fileprivate static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func foundationPrecedes(_ a: String, _ b: String) -> Bool {
        let options: String.CompareOptions = [.numeric, .caseInsensitive, .forcedOrdering]
        return a.compare(b, options: options, range: a.startIndex..<a.endIndex, locale: NSLocale.system)
            == .orderedAscending
    }

    /// The order in which `keys` (an object's, in the order they were set) are written: the
    /// indices of `keys`, sorted by ``precedes(_:_:)`` as `Array.sort` sorts them. Worked out
    /// once for each list of keys, told apart by their bytes (`spelling`: their JSON strings one
    /// after the other), and kept: comparing keys that are not all letters goes through
    /// Foundation's collation, a few thousand instructions a comparison, and a program writes
    /// few lists of keys (a model type's, with its optional fields present or not).
    package static func order(of keys: [String]) -> [Int] {
        var spelling = JSONWriter()
        for key in keys { spelling.string(key) }
        return order(of: keys, spelling: Array(spelling.bytes))
    }

    fileprivate static func order(of keys: [String], spelling: [UInt8]) -> [Int] {
        let key = OrderKey(spelling)
        if let known = orders[key] { return known }
        let letters = keys.map(isLetters)
        var order = Array(keys.indices)
        order.sort { a, b in precedes(keys[a], letters[a], keys[b], letters[b]) }
        orders.keep(order, for: key)
        return order
    }

    /// The orders worked out, by the spelling of their keys; at most the cache's capacity of them
    /// (later ones are worked out each time).
    private static let orders = KeyOrderCache<OrderKey>(capacity: 4_096)

    /// A list of keys by its bytes, hashed at once.
    private struct OrderKey: Hashable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// Whether a key of letters alone (bytes `a`, as written between its quotes) comes before
    /// another (`b`): by their lower-cased bytes; nil when the two are equal that way (then
    /// Foundation's comparison decides).
    @inline(__always)
    fileprivate static func lettersPrecede(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        for index in 0..<min(a.count, b.count) {
            let x = a[index] | 0x20
            let y = b[index] | 0x20
            if x != y { return x < y }
        }
        return a.count == b.count ? nil : a.count < b.count
    }

    /// A value the tree leaves to Foundation's coders.
    struct LeftToFoundation: Error {}

    /// The encoded value: nodes, the fields of objects and the items of arrays (``Link``), and
    /// the JSON text of leaves and keys, each in one array; what every encoder and container of
    /// one value shares. Only ever reached from the thread encoding the value.
    final class Tree {
        enum Kind: UInt8 {
            case null
            case `true`
            case `false`
            /// A number or a string, written already: `text[start..<end]`.
            case text
            /// An array: its items are the links from `start` to `end` (-1 when none).
            case array
            /// An object: its fields are the links from `start` to `end` (-1 when none), in the
            /// order they were first set (a key set again keeps its place and takes the new value,
            /// as `JSONEncoder`'s containers do).
            case object
        }

        struct Node {
            let kind: Kind
            var start: Int32
            var end: Int32
        }

        /// A field of an object or an item of an array, in a list of its container's.
        struct Link {
            /// The field's key ("" for an item).
            let key: String
            /// The key's JSON string: `text[keyStart..<keyEnd]`, quotes included.
            let keyStart: Int32
            let keyEnd: Int32
            let keyIsLetters: Bool
            var node: Int32
            var next: Int32 = -1
        }

        @exclusivity(unchecked) var nodes: [Node] = []
        @exclusivity(unchecked) var links: [Link] = []
        /// The JSON text of the leaves and the keys.
        @exclusivity(unchecked) var text = JSONWriter(capacity: 1_024)
        /// Link indices of the objects being written (each object sorts its own at the end).
        @exclusivity(unchecked) private var scratch: [Int32] = []
        /// Whether a part of the value (a `superEncoder` call, which cannot throw) was left to
        /// Foundation.
        var leftToFoundation = false

        init() {
            nodes.reserveCapacity(64)
            links.reserveCapacity(64)
        }

        func add(_ kind: Kind, _ start: Int32 = -1, _ end: Int32 = -1) -> Int32 {
            nodes.append(Node(kind: kind, start: start, end: end))
            return Int32(nodes.count - 1)
        }

        func string(_ value: String) -> Int32 {
            let start = Int32(text.count)
            text.string(value)
            return add(.text, start, Int32(text.count))
        }

        func bool(_ value: Bool) -> Int32 { add(value ? .true : .false) }

        func number(_ value: some BinaryInteger) -> Int32 {
            let start = Int32(text.count)
            text.integer(value)
            return add(.text, start, Int32(text.count))
        }

        /// Marks the value as left to Foundation and throws.
        func leaveToFoundation() throws -> Never {
            // Marked as well as thrown: a model that catches the error must not get a value
            // without the field.
            leftToFoundation = true
            throw LeftToFoundation()
        }

        /// A leaf for `value`, nil when it is not one (it encodes itself into an encoder). The
        /// type is compared, not cast to: a failed cast costs a runtime search.
        func leaf<T: Encodable>(_ value: T) throws -> Int32? {
            let type = T.self
            if type == String.self { return string(unsafeBitCast(value, to: String.self)) }
            if type == Bool.self { return bool(unsafeBitCast(value, to: Bool.self)) }
            if type == Int.self { return number(unsafeBitCast(value, to: Int.self)) }
            if type == Int64.self { return number(unsafeBitCast(value, to: Int64.self)) }
            if type == Int32.self { return number(unsafeBitCast(value, to: Int32.self)) }
            if type == Int16.self { return number(unsafeBitCast(value, to: Int16.self)) }
            if type == Int8.self { return number(unsafeBitCast(value, to: Int8.self)) }
            if type == UInt8.self { return number(unsafeBitCast(value, to: UInt8.self)) }
            if type == UInt16.self { return number(unsafeBitCast(value, to: UInt16.self)) }
            if type == UInt32.self { return number(unsafeBitCast(value, to: UInt32.self)) }
            if type == UInt64.self, unsafeBitCast(value, to: UInt64.self) <= UInt64(Int64.max) {
                return number(unsafeBitCast(value, to: UInt64.self))
            }
            if type == UInt.self, unsafeBitCast(value, to: UInt.self) <= UInt(Int64.max) {
                return number(unsafeBitCast(value, to: UInt.self))
            }
            if type == UInt64.self || type == UInt.self || type == Double.self || type == Float.self
                || type == Decimal.self || type == Date.self || type == Data.self || type == URL.self
            {
                try leaveToFoundation()
            }
            return nil
        }

        /// Appends `item` to array `container` (nothing for another kind of node).
        func append(_ item: Int32, to container: Int32) {
            guard nodes[Int(container)].kind == .array else { return }
            link(Link(key: "", keyStart: 0, keyEnd: 0, keyIsLetters: true, node: item), to: container)
        }

        private func link(_ link: Link, to container: Int32) {
            links.append(link)
            let index = Int32(links.count - 1)
            let last = nodes[Int(container)].end
            if last < 0 {
                nodes[Int(container)].start = index
            } else {
                links[Int(last)].next = index
            }
            nodes[Int(container)].end = index
        }

        /// The field of object `container` with `key`, if it has one.
        private func field(_ key: String, of container: Int32) -> Int32? {
            var index = nodes[Int(container)].start
            while index >= 0 {
                if links[Int(index)].key == key { return index }
                index = links[Int(index)].next
            }
            return nil
        }

        /// Whether object `container` has `key` set.
        func has(_ key: String, in container: Int32) -> Bool {
            nodes[Int(container)].kind == .object && field(key, of: container) != nil
        }

        /// Sets `key` of object `container` to `item` (nothing for another kind of node); a key
        /// set again keeps its first spelling, as a `Dictionary` does when the two are equal but
        /// not the same scalars.
        func set(_ key: String, _ item: Int32, in container: Int32) {
            guard nodes[Int(container)].kind == .object else { return }
            if let index = field(key, of: container) {
                links[Int(index)].node = item
                return
            }
            let keyStart = Int32(text.count)
            text.string(key)
            // Between the quotes, the key as it is when it is all letters (else some byte is not a
            // letter, escaped or not).
            let letters = UnsafeBufferPointer(rebasing: text.bytes[(Int(keyStart) + 1)..<(text.count - 1)])
                .allSatisfy(ModelJSON.isLetter)
            link(
                Link(key: key, keyStart: keyStart, keyEnd: Int32(text.count), keyIsLetters: letters, node: item),
                to: container)
        }

        /// How many items array `container` has.
        func count(of container: Int32) -> Int {
            guard nodes[Int(container)].kind == .array else { return 0 }
            var count = 0
            var index = nodes[Int(container)].start
            while index >= 0 {
                count += 1
                index = links[Int(index)].next
            }
            return count
        }

        /// Writes node `index`; false when it nests deeper than ``ModelJSON/deepest`` (left to
        /// Foundation, which refuses 512 levels).
        func write(_ index: Int32, to writer: inout JSONWriter, depth: Int) -> Bool {
            guard depth <= ModelJSON.deepest else { return false }
            let node = nodes[Int(index)]
            switch node.kind {
            case .null: writer.raw("null")
            case .true: writer.raw("true")
            case .false: writer.raw("false")
            case .text: copy(node.start, node.end, to: &writer)
            case .array:
                writer.byte(UInt8(ascii: "["))
                var link = node.start
                while link >= 0 {
                    if link != node.start { writer.byte(UInt8(ascii: ",")) }
                    guard write(links[Int(link)].node, to: &writer, depth: depth + 1) else { return false }
                    link = links[Int(link)].next
                }
                writer.byte(UInt8(ascii: "]"))
            case .object:
                writer.byte(UInt8(ascii: "{"))
                let base = scratch.count
                var link = node.start
                while link >= 0 {
                    scratch.append(link)
                    link = links[Int(link)].next
                }
                let count = scratch.count - base
                sortFields(base, count)
                for position in base..<(base + count) {
                    let field = links[Int(scratch[position])]
                    if position > base { writer.byte(UInt8(ascii: ",")) }
                    copy(field.keyStart, field.keyEnd, to: &writer)
                    writer.byte(UInt8(ascii: ":"))
                    guard write(field.node, to: &writer, depth: depth + 1) else { return false }
                }
                scratch.removeLast(count)
                writer.byte(UInt8(ascii: "}"))
            }
            return true
        }

        private func copy(_ start: Int32, _ end: Int32, to writer: inout JSONWriter) {
            writer.raw(UnsafeBufferPointer(rebasing: text.bytes[Int(start)..<Int(end)]))
        }

        /// Sorts `scratch[base..<base + count]`, an object's fields in the order first set, into
        /// the order written: directly for keys all of letters that differ other than in case,
        /// else as ``ModelJSON/order(of:spelling:)`` orders them.
        private func sortFields(_ base: Int, _ count: Int) {
            guard count > 1 else { return }
            if (base..<(base + count)).allSatisfy({ links[Int(scratch[$0])].keyIsLetters }), sortLetters(base, count) {
                return
            }
            // In the order first set again (links are made in that order), as the sort expects.
            scratch[base..<(base + count)].sort()
            var keys: [String] = []
            keys.reserveCapacity(count)
            var spelling: [UInt8] = []
            for position in base..<(base + count) {
                let field = links[Int(scratch[position])]
                keys.append(field.key)
                spelling += text.bytes[Int(field.keyStart)..<Int(field.keyEnd)]
            }
            let fields = Array(scratch[base..<(base + count)])
            for (position, index) in ModelJSON.order(of: keys, spelling: spelling).enumerated() {
                scratch[base + position] = fields[index]
            }
        }

        /// Sorts the fields by their keys' lower-cased bytes (an insertion sort: an object has a
        /// few keys); false, with the order left as it may be, when two keys are equal that way.
        private func sortLetters(_ base: Int, _ count: Int) -> Bool {
            let bytes = text.bytes
            func key(_ position: Int) -> UnsafeBufferPointer<UInt8> {
                let field = links[Int(scratch[position])]
                // Between the quotes.
                return UnsafeBufferPointer(rebasing: bytes[Int(field.keyStart + 1)..<Int(field.keyEnd - 1)])
            }
            for sorted in (base + 1)..<(base + count) {
                var position = sorted
                while position > base {
                    guard let precedes = ModelJSON.lettersPrecede(key(position), key(position - 1)) else {
                        return false
                    }
                    guard precedes else { break }
                    scratch.swapAt(position, position - 1)
                    position -= 1
                }
            }
            return true
        }
    }
}

/// The encoder of ``ModelJSON``: each container writes into the node it made. Its coding path is
/// its parent's with its key, made when asked for.
private final class TreeEncoder: Encoder {
    let tree: ModelJSON.Tree
    let parent: TreeEncoder?
    let key: (any CodingKey)?
    /// A transcript's JSON: secrets are written masked (``PaymentOrderDetails``).
    var userInfo: [CodingUserInfoKey: Any] { [.checkoutMasksSecrets: true] }
    /// The value encoded: an object, an array or a single value.
    var root: Int32?

    init(tree: ModelJSON.Tree, parent: TreeEncoder?, key: (any CodingKey)?) {
        self.tree = tree
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        let path = parent?.codingPath ?? []
        return key.map { path + [$0] } ?? path
    }

    /// An encoder for a value inside this one's, under `key` (nil for an array's item, whose
    /// path is its array's).
    func nested(_ key: (any CodingKey)?) -> TreeEncoder { TreeEncoder(tree: tree, parent: self, key: key) }

    /// The node for `value`: a leaf, or what it encodes into an encoder of its own.
    func node<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> Int32 {
        if let leaf = try tree.leaf(value) { return leaf }
        let encoder = nested(key)
        try value.encode(to: encoder)
        // A value that encodes nothing is `{}`, as JSONEncoder writes it.
        return encoder.root ?? tree.add(.object)
    }

    /// The encoder for a `superEncoder` call: the tree does not model one, so the value is left
    /// to Foundation; what is encoded into it is not written.
    func leftToFoundation() -> any Encoder {
        tree.leftToFoundation = true
        return TreeEncoder(tree: tree, parent: parent, key: key)
    }

    private func make(_ kind: ModelJSON.Tree.Kind) -> Int32 {
        if let root { return root }
        let node = tree.add(kind)
        root = node
        return node
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedTree(node: make(.object), encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedTree(node: make(.array), encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleTree(encoder: self) }
}

private struct KeyedTree<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Int32
    /// The encoder whose path and tree this container shares.
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private var tree: ModelJSON.Tree { encoder.tree }

    mutating func encodeNil(forKey key: Key) throws { tree.set(key.stringValue, tree.add(.null), in: node) }

    mutating func encode(_ value: String, forKey key: Key) throws {
        tree.set(key.stringValue, tree.string(value), in: node)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        tree.set(key.stringValue, tree.bool(value), in: node)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        tree.set(key.stringValue, tree.number(value), in: node)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        tree.set(key.stringValue, try encoder.node(value, key: key), in: node)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(KeyedTree<NestedKey>(node: nested(.object, key), encoder: encoder.nested(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedTree(node: nested(.array, key), encoder: encoder.nested(key))
    }

    /// A container node set under `key`.
    private func nested(_ kind: ModelJSON.Tree.Kind, _ key: Key) -> Int32 {
        // Asked for again under a key already set, `JSONEncoder` adds to what is there: not modelled.
        if tree.has(key.stringValue, in: node) { tree.leftToFoundation = true }
        let nested = tree.add(kind)
        tree.set(key.stringValue, nested, in: node)
        return nested
    }

    mutating func superEncoder() -> any Encoder { encoder.leftToFoundation() }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.leftToFoundation() }
}

private struct UnkeyedTree: UnkeyedEncodingContainer {
    let node: Int32
    /// The encoder whose path and tree this container shares.
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { tree.count(of: node) }
    private var tree: ModelJSON.Tree { encoder.tree }

    mutating func encodeNil() throws { tree.append(tree.add(.null), to: node) }

    mutating func encode(_ value: String) throws { tree.append(tree.string(value), to: node) }

    mutating func encode(_ value: Bool) throws { tree.append(tree.bool(value), to: node) }

    mutating func encode(_ value: Int) throws { tree.append(tree.number(value), to: node) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        tree.append(try encoder.node(value, key: nil), to: node)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = tree.add(.object)
        tree.append(nested, to: node)
        return KeyedEncodingContainer(KeyedTree<NestedKey>(node: nested, encoder: encoder))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = tree.add(.array)
        tree.append(nested, to: node)
        return UnkeyedTree(node: nested, encoder: encoder)
    }

    mutating func superEncoder() -> any Encoder { encoder.leftToFoundation() }
}

private struct SingleTree: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.root = encoder.tree.add(.null) }

    mutating func encode(_ value: String) throws { encoder.root = encoder.tree.string(value) }

    mutating func encode(_ value: Bool) throws { encoder.root = encoder.tree.bool(value) }

    mutating func encode(_ value: Int) throws { encoder.root = encoder.tree.number(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.root = try encoder.node(value, key: nil)
    }
}
