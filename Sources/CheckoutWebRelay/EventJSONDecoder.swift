import CheckoutCore
import Foundation

/// Decodes an event's bytes as `JSONDecoder` does, at a fraction of its cost: the bytes are parsed
/// into a small tree (strict JSON, as `JSONDecoder` reads it) and decoded through containers over
/// it. The Apple Pay and W3C events (``decodeEvent(from:keepingText:)``) are read from the tree without
/// containers, by one reader a wire type (``RelayEvent/init(node:)`` and the readers it calls,
/// under `EventReaders`), which answer only where `init(from:)` answers the same value and leave
/// everything else to the containers.
///
/// It answers only where `JSONDecoder` would answer the same: when anything fails (bytes that are
/// not JSON, a missing member, a type mismatch), or when it meets what `JSONDecoder` reads in ways
/// of its own (a number that is not a plain integer where an integer is asked for, `Float`,
/// `Decimal`, `Date`, `Data`, `URL`, a super decoder, a key written twice, nesting past 512 levels,
/// a lone surrogate), ``decode(_:from:)`` answers nil and the caller decodes with `JSONDecoder`,
/// whose value or error is then the answer. Giving up is final even when the value's own
/// decoding catches the error, so that a type that tries one reading after another (such as
/// ``/CheckoutCore/JSONValue``) never takes a branch `JSONDecoder` would not take. A test compares
/// the two on the events of every kind and on malformed bytes.
enum EventJSONDecoder {
    /// The value in `bytes`, or nil where `JSONDecoder` must decode it.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: Data) -> T? {
        let state = State()
        let root: Node? = bytes.withUnsafeBytes { buffer in
            var parser = Parser(bytes: buffer)
            return parser.document()
        }
        guard let root else { return nil }
        let value = try? T(from: TreeDecoder(node: root, state: state, codingPath: [], opening: T.self))
        return state.gaveUp ? nil : value
    }

    /// The event in `bytes`, as ``decode(_:from:)`` reads it (straight from the parsed tree by
    /// ``RelayEvent/init(node:)`` where that reader answers), with the page's own text of its
    /// payload members when `keepingText` (``KeptEvent/page(_:members:)``: every member
    /// ``RelayEvent`` reads but `session` and `type`, joined by commas), the event as decoded
    /// otherwise (a relay that keeps no steps, spec W6, has no use for the text); nil where
    /// `JSONDecoder` must decode it.
    static func decodeEvent(from bytes: Data, keepingText: Bool = true) -> (event: RelayEvent, kept: KeptEvent)? {
        let parsed: (Node, [Range<Int>])? = bytes.withUnsafeBytes { buffer in
            var parser = Parser(bytes: buffer, notingMembers: keepingText)
            return parser.document().map { ($0, parser.memberRanges) }
        }
        guard let (root, ranges) = parsed, case .object(let members) = root,
            !keepingText || members.count == ranges.count,
            let event = (try? RelayEvent(node: root)) ?? decodedThroughContainers(root)
        else { return nil }
        // The members to keep, marked once; then the text made at its size.
        guard keepingText, members.count <= 64 else { return (event, .decoded(event.payload)) }
        var kept: UInt64 = 0
        var count = -1
        for (index, member) in members.enumerated() where RelayEvent.isPayloadMember(member.key) {
            kept |= 1 << index
            count += ranges[index].count + 1
        }
        let text = bytes.withUnsafeBytes { (source: UnsafeRawBufferPointer) -> [UInt8] in
            var text: [UInt8] = []
            text.reserveCapacity(max(count, 0))
            for (index, range) in ranges.enumerated() where kept & (1 << index) != 0 {
                if !text.isEmpty { text.append(UInt8(ascii: ",")) }
                text.append(contentsOf: UnsafeRawBufferPointer(rebasing: source[range]))
            }
            return text
        }
        return (event, .page(event.type, members: text))
    }

    /// The event in `root` as `RelayEvent.init(from:)` reads it through the tree decoder's
    /// containers, for what its direct reader (``RelayEvent/init(node:)``) does not answer; nil
    /// where `JSONDecoder` must decode it.
    private static func decodedThroughContainers(_ root: Node) -> RelayEvent? {
        let state = State()
        let event = try? RelayEvent(
            from: TreeDecoder(node: root, state: state, codingPath: [], opening: RelayEvent.self))
        return state.gaveUp ? nil : event
    }

    /// Whether the decoding met something only `JSONDecoder` may answer.
    final class State {
        var gaveUp = false
    }

    /// Why a decoding stopped: a failure `JSONDecoder` has too, or a question only it answers.
    struct Stop: Error {}

    /// A JSON value. Not `indirect`: its arrays hold the nested values, so a scalar needs no box
    /// of its own (a box a value was a fifth of the relay's decoding, BENCHMARKS.md).
    enum Node {
        case null
        case bool(Bool)
        /// The number's text, checked against JSON's grammar.
        case number(String)
        case string(String)
        case array([Node])
        case object([Member])

        /// An object's member. A struct rather than a tuple: arrays of tuples are copied and
        /// destroyed through the runtime's generic tuple functions.
        struct Member {
            var key: String
            var value: Node
        }

        /// Whether this is `null`.
        var isNull: Bool {
            if case .null = self { return true }
            return false
        }
    }

    // MARK: Parsing

    struct Parser {
        let bytes: UnsafeRawBufferPointer
        var position = 0
        var depth = 0
        /// The text of each member of the document's object, from its key's opening quote to the
        /// end of its value, in order; noted only when asked for.
        var memberRanges: [Range<Int>] = []
        /// Whether ``memberRanges`` are noted.
        private let notingMembers: Bool
        /// The members of the objects being parsed, innermost last: an object's are copied out at
        /// its end into an array of their own size (appending to the object's own array grew it
        /// by doubling, an allocation each time).
        private var openMembers: [Node.Member] = []
        /// The elements of the arrays being parsed, innermost last, likewise.
        private var openElements: [Node] = []

        init(bytes: UnsafeRawBufferPointer, notingMembers: Bool = false) {
            self.bytes = bytes
            self.notingMembers = notingMembers
            if notingMembers { memberRanges.reserveCapacity(4) }
            openMembers.reserveCapacity(16)
        }

        /// The whole document: one value, whitespace around it.
        mutating func document() -> Node? {
            skipSpace()
            guard let node = value() else { return nil }
            skipSpace()
            return position == bytes.count ? node : nil
        }

        private mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        private mutating func value() -> Node? {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "{"): return object()
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "\""): return string().map(Node.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number()
            }
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            for index in 0..<count where bytes[position + index] != word.utf8Start[index] { return false }
            position += count
            return true
        }

        private mutating func object() -> Node? {
            depth += 1
            defer { depth -= 1 }
            guard depth <= 512 else { return nil }
            position += 1
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object([])
            }
            let first = openMembers.count
            defer { openMembers.removeSubrange(first...) }
            while true {
                skipSpace()
                let start = position
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string() else {
                    return nil
                }
                // A key twice: which one JSONDecoder keeps is its own choice.
                if openMembers[first...].contains(where: { $0.key == key }) { return nil }
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
                position += 1
                skipSpace()
                guard let value = value() else { return nil }
                openMembers.append(Node.Member(key: key, value: value))
                if depth == 1, notingMembers { memberRanges.append(start..<position) }
                skipSpace()
                guard position < bytes.count else { return nil }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(Self.copy(openMembers[first...]))
                } else {
                    return nil
                }
            }
        }

        private mutating func array() -> Node? {
            depth += 1
            defer { depth -= 1 }
            guard depth <= 512 else { return nil }
            position += 1
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array([])
            }
            let first = openElements.count
            defer { openElements.removeSubrange(first...) }
            while true {
                skipSpace()
                guard let value = value() else { return nil }
                openElements.append(value)
                skipSpace()
                guard position < bytes.count else { return nil }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(Self.copy(openElements[first...]))
                } else {
                    return nil
                }
            }
        }

        /// A string: its bytes checked as UTF-8, control characters refused, escapes read (a
        /// surrogate pair as one scalar; a lone surrogate is left to JSONDecoder).
        private mutating func string() -> String? {
            position += 1
            let start = position
            // The common case: no escape, read in place; ASCII (no byte's high bit set) is valid
            // UTF-8 as it stands, without the generic validation (whose metadata lookups cost
            // the relay 10,000 instructions an event, BENCHMARKS.md).
            var highBits: UInt8 = 0
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                    let text = highBits & 0x80 == 0 ? Self.ascii(slice) : String(validating: slice, as: UTF8.self)
                    position += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { return nil }
                highBits |= byte
                position += 1
            }
            var decoded = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return String(validating: decoded, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    position += 1
                    guard position < bytes.count else { return nil }
                    let escaped = bytes[position]
                    position += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        guard var scalar = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                                bytes[position + 1] == UInt8(ascii: "u")
                            else { return nil }
                            position += 2
                            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00..<0xE000).contains(scalar) {
                            return nil
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { return nil }
                        decoded.append(contentsOf: UTF8.encode(unicode)!)
                    default: return nil
                    }
                default:
                    if byte < 0x20 { return nil }
                    decoded.append(byte)
                    position += 1
                }
            }
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard position + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        /// A number as JSON's grammar has it: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
        private mutating func number() -> Node? {
            let start = position
            func digits() -> Int {
                let from = position
                while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                    position += 1
                }
                return position - from
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else if digits() == 0 {
                return nil
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { return nil }
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
                {
                    position += 1
                }
                guard digits() > 0 else { return nil }
            }
            return .number(Self.ascii(UnsafeRawBufferPointer(rebasing: bytes[start..<position])))
        }

        /// The values of `slice` in an array of their own (`Array(slice)` of a slice that spans
        /// the whole array would share its buffer, which the next append then copies).
        private static func copy<Element>(_ slice: ArraySlice<Element>) -> [Element] {
            var copy: [Element] = []
            copy.reserveCapacity(slice.count)
            copy.append(contentsOf: slice)
            return copy
        }

        /// ASCII bytes as a string. Up to 15 bytes (most keys and values of an event) are copied
        /// into the string's inline storage and taken without validating them again; with
        /// `String(decoding:as:)` every string went through the standard library's UTF-8 repair,
        /// about 190 instructions each, 3,200 an event (BENCHMARKS.md).
        private static func ascii(_ bytes: UnsafeRawBufferPointer) -> String {
            String(unsafeUninitializedCapacity: bytes.count) { buffer in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
                return bytes.count
            }
        }
    }

    // MARK: Decoding

    /// Stops the decoding for good: only JSONDecoder answers this.
    static func giveUp(_ state: State) -> Stop {
        state.gaveUp = true
        return Stop()
    }

    /// A scalar of `type` from `node`; a mismatch of JSON kinds throws as JSONDecoder's does,
    /// anything less certain gives up. Types are told apart by their metatypes (a cast to a
    /// protocol asks the runtime for conformances, which cost more than the rest of the decoding);
    /// `opening` is the type whose own `init(from:)` asks, so that a scalar type not told apart
    /// here (such as `Int128`) is left to JSONDecoder instead of asking itself again.
    static func scalar<T: Decodable>(
        _ type: T.Type, _ node: Node, _ state: State, _ path: @autoclosure () -> [any CodingKey],
        opening: Any.Type? = nil
    ) throws -> T {
        if T.self == String.self {
            guard case .string(let text) = node else { throw Stop() }
            return unsafeBitCast(text, to: T.self)
        }
        if T.self == Bool.self {
            guard case .bool(let flag) = node else { throw Stop() }
            return unsafeBitCast(flag, to: T.self)
        }
        if T.self == Int.self { return unsafeBitCast(try integer(Int.self, node, state), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try integer(Int64.self, node, state), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try integer(Int32.self, node, state), to: T.self) }
        if T.self == Int16.self { return unsafeBitCast(try integer(Int16.self, node, state), to: T.self) }
        if T.self == Int8.self { return unsafeBitCast(try integer(Int8.self, node, state), to: T.self) }
        if T.self == UInt.self { return unsafeBitCast(try integer(UInt.self, node, state), to: T.self) }
        if T.self == UInt64.self { return unsafeBitCast(try integer(UInt64.self, node, state), to: T.self) }
        if T.self == UInt32.self { return unsafeBitCast(try integer(UInt32.self, node, state), to: T.self) }
        if T.self == UInt16.self { return unsafeBitCast(try integer(UInt16.self, node, state), to: T.self) }
        if T.self == UInt8.self { return unsafeBitCast(try integer(UInt8.self, node, state), to: T.self) }
        if T.self == Double.self {
            guard case .number(let text) = node else { throw Stop() }
            // Beyond Double's range (overflow, or underflow to zero): JSONDecoder's answer is its own.
            let significand = text.prefix(while: { $0 != "e" && $0 != "E" })
            guard let value = Double(text), value.isFinite,
                value != 0 || !significand.contains(where: { ("1"..."9").contains($0) })
            else { throw giveUp(state) }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == Float.self || T.self == Decimal.self {
            // Not a number: a mismatch, as JSONDecoder's; a number: read its own way.
            guard case .number = node else { throw Stop() }
            throw giveUp(state)
        }
        if T.self == Date.self || T.self == Data.self || T.self == URL.self
            || opening.map({ ObjectIdentifier($0) == ObjectIdentifier(T.self) }) == true
        {
            throw giveUp(state)
        }
        return try T(from: TreeDecoder(node: node, state: state, codingPath: path(), opening: T.self))
    }

    /// An integer: only a plain one that fits; JSONDecoder's way with `1.0`, `1e2`, `-0` as an
    /// unsigned number or overflow is its own.
    private static func integer<I: FixedWidthInteger>(_ type: I.Type, _ node: Node, _ state: State) throws -> I {
        guard case .number(let text) = node else { throw Stop() }
        if !I.isSigned, text.hasPrefix("-") { throw giveUp(state) }
        guard let value = I(text, radix: 10) else { throw giveUp(state) }
        return value
    }

    struct TreeDecoder: Decoder {
        let node: Node
        let state: State
        let codingPath: [any CodingKey]
        /// The type whose `init(from:)` reads this decoder.
        var opening: Any.Type?
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = node else { throw Stop() }
            return KeyedDecodingContainer(Keyed<Key>(members: members, state: state, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = node else { throw Stop() }
            return Unkeyed(elements: elements, state: state, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            Single(node: node, state: state, codingPath: codingPath, opening: opening)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [Node.Member]
        let state: State
        let codingPath: [any CodingKey]

        var allKeys: [Key] {
            // Every key of an object, as `JSONValue` and the wire types' check for a foreign
            // payload read it (`JSONKey`), made in concrete code: the generic `compactMap` over
            // `Key` looks up metadata for every key.
            if Key.self == JSONKey.self {
                return unsafeBitCast(members.map { JSONKey($0.key) }, to: [Key].self)
            }
            return members.compactMap { Key(stringValue: $0.key) }
        }

        private func node(_ key: Key) -> Node? {
            let name = key.stringValue
            return members.first { $0.key == name }?.value
        }

        private func present(_ key: Key) throws -> Node {
            guard let node = node(key) else { throw Stop() }
            return node
        }

        func contains(_ key: Key) -> Bool { node(key) != nil }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard case .null = try present(key) else { return false }
            return true
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let node = try present(key)
            return try EventJSONDecoder.scalar(type, node, state, codingPath + [key])
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let node = node(key) else { return nil }
            if case .null = node { return nil }
            return try EventJSONDecoder.scalar(type, node, state, codingPath + [key])
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            guard case .string(let text) = try present(key) else { throw Stop() }
            return text
        }

        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            guard let node = node(key) else { return nil }
            switch node {
            case .null: return nil
            case .string(let text): return text
            default: throw Stop()
            }
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try TreeDecoder(node: present(key), state: state, codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try TreeDecoder(node: present(key), state: state, codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { throw giveUp(state) }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw giveUp(state) }
    }

    /// Index keys for the coding path of array elements.
    struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [Node]
        let state: State
        let codingPath: [any CodingKey]
        var currentIndex = 0

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private func next() throws -> Node {
            guard !isAtEnd else { throw Stop() }
            return elements[currentIndex]
        }

        mutating func decodeNil() throws -> Bool {
            guard case .null = try next() else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let node = try next()
            let value = try EventJSONDecoder.scalar(
                type, node, state, codingPath + [IndexKey(intValue: currentIndex)])
            currentIndex += 1
            return value
        }

        mutating func decode(_ type: String.Type) throws -> String {
            guard case .string(let text) = try next() else { throw Stop() }
            currentIndex += 1
            return text
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            let container = try TreeDecoder(
                node: next(), state: state, codingPath: codingPath + [IndexKey(intValue: currentIndex)]
            ).container(keyedBy: type)
            currentIndex += 1
            return container
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let container = try TreeDecoder(
                node: next(), state: state, codingPath: codingPath + [IndexKey(intValue: currentIndex)]
            ).unkeyedContainer()
            currentIndex += 1
            return container
        }

        mutating func superDecoder() throws -> any Decoder { throw giveUp(state) }
    }

    struct Single: SingleValueDecodingContainer {
        let node: Node
        let state: State
        let codingPath: [any CodingKey]
        let opening: Any.Type?

        func decodeNil() -> Bool {
            if case .null = node { return true }
            return false
        }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            return try EventJSONDecoder.scalar(type, node, state, codingPath, opening: opening)
        }

        func decode(_ type: String.Type) throws -> String {
            guard case .string(let text) = node else { throw Stop() }
            return text
        }
    }
}
