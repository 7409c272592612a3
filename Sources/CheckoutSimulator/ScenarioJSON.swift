import CheckoutCore

/// A JSON document read with where each value starts, so that a scenario file's problems can name
/// the line and column, and numbers keep their literal text, so that `2.5` and `1e+30` are told
/// apart from whole numbers (spec W2).
///
/// Strict RFC 8259: one value, no trailing commas, no comments, no duplicate keys, UTF-8 text;
/// nesting is limited to ``maximumDepth`` so that a hostile file cannot exhaust the stack.
struct ScenarioJSON: Sendable {
    /// A place in the file: 1-based line and column (in bytes of the line).
    struct Location: Sendable, Hashable, CustomStringConvertible {
        var line: Int
        var column: Int
        var description: String { "\(line):\(column)" }
    }

    /// A value and where it starts.
    indirect enum Value: Sendable {
        case object([Member])
        case array([ScenarioJSON])
        case string(String)
        /// The number's literal text, as written.
        case number(String)
        case bool(Bool)
        case null
    }

    /// A key of an object, where it is written, and its value.
    struct Member: Sendable {
        var key: String
        var location: Location
        var value: ScenarioJSON
    }

    var value: Value
    var location: Location

    /// What the value is, for messages: `an object`, `a string`, ...
    var kind: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }

    /// The member named `key`, when this is an object that has it.
    subscript(key: String) -> ScenarioJSON? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The value at a path of keys and indexes (as a `DecodingError`'s coding path gives them),
    /// or the deepest one found on the way.
    func deepest(along path: [(key: String, index: Int?)]) -> ScenarioJSON {
        var node = self
        for step in path {
            switch node.value {
            case .object(let members):
                guard let next = members.first(where: { $0.key == step.key }) else { return node }
                node = next.value
            case .array(let elements):
                guard let index = step.index, elements.indices.contains(index) else { return node }
                node = elements[index]
            default:
                return node
            }
        }
        return node
    }

    static let maximumDepth = 256

    /// A file that is not JSON: what is wrong, and where.
    struct SyntaxError: Error, Sendable {
        var message: String
        var location: Location?
    }

    /// Parses `bytes` as one JSON value.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> ScenarioJSON {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw SyntaxError(message: "the file is empty; a scenario is a JSON object", location: nil)
        }
        if bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil {
            throw SyntaxError(message: "not UTF-8 text (a binary file?); a scenario is a JSON object", location: nil)
        }
        var parser = Parser(bytes: bytes)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        if parser.index < bytes.count {
            throw parser.error("unexpected text after the JSON value")
        }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var lineStart = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            // A byte-order mark is not JSON, but editors write one.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                index = 3
                lineStart = 3
            }
        }

        var location: Location { Location(line: line, column: index - lineStart + 1) }

        func error(_ message: String) -> SyntaxError {
            SyntaxError(message: "not valid JSON: \(message)", location: location)
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0D: index += 1
                case 0x0A:
                    index += 1
                    line += 1
                    lineStart = index
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> ScenarioJSON {
            skipSpace()
            guard depth < ScenarioJSON.maximumDepth else { throw error("nested more than 256 deep") }
            guard index < bytes.count else { throw error("the file ends where a value was expected") }
            let start = location
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [Member] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return ScenarioJSON(value: .object(members), location: start)
                }
                while true {
                    skipSpace()
                    let keyLocation = location
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                        throw error("expected a key in double quotes")
                    }
                    let key = try string()
                    if members.contains(where: { $0.key == key }) {
                        throw SyntaxError(
                            message: "the key \(key.quotedForMessage) appears twice", location: keyLocation)
                    }
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                        throw error("expected ':' after the key \(key.quotedForMessage)")
                    }
                    index += 1
                    members.append(Member(key: key, location: keyLocation, value: try value(depth: depth + 1)))
                    skipSpace()
                    guard index < bytes.count else { throw error("the file ends inside an object") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    if bytes[index] == UInt8(ascii: "}") {
                        index += 1
                        return ScenarioJSON(value: .object(members), location: start)
                    }
                    throw error("expected ',' or '}' in an object")
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [ScenarioJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return ScenarioJSON(value: .array(elements), location: start)
                }
                while true {
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw error("the file ends inside an array") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    if bytes[index] == UInt8(ascii: "]") {
                        index += 1
                        return ScenarioJSON(value: .array(elements), location: start)
                    }
                    throw error("expected ',' or ']' in an array")
                }
            case UInt8(ascii: "\""):
                return ScenarioJSON(value: .string(try string()), location: start)
            case UInt8(ascii: "t"):
                try literal("true")
                return ScenarioJSON(value: .bool(true), location: start)
            case UInt8(ascii: "f"):
                try literal("false")
                return ScenarioJSON(value: .bool(false), location: start)
            case UInt8(ascii: "n"):
                try literal("null")
                return ScenarioJSON(value: .null, location: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return ScenarioJSON(value: .number(try number()), location: start)
            default:
                throw error("unexpected character '\(Self.printable(bytes[index]))'")
            }
        }

        static func printable(_ byte: UInt8) -> String {
            (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            let utf8 = Array(word.utf8)
            guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
                throw error("unexpected word (strings need double quotes)")
            }
            index += utf8.count
        }

        mutating func number() throws(SyntaxError) -> String {
            let start = index
            func digits() -> Int {
                let before = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                return index - before
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let whole = index
            guard digits() > 0 else { throw error("a number needs digits") }
            if bytes[whole] == UInt8(ascii: "0"), index - whole > 1 { throw error("a number cannot start with 0") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw error("a number needs digits after '.'") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits() > 0 else { throw error("a number needs digits in its exponent") }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func string() throws(SyntaxError) -> String {
            index += 1  // the opening quote
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush(_ bytes: ArraySlice<UInt8>) {
                scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
            }
            while true {
                guard index < bytes.count else { throw error("the file ends inside a string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(bytes[run..<index])
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw error("a control character in a string (write \\n or \\t)") }
                if byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                flush(bytes[run..<index])
                index += 1
                guard index < bytes.count else { throw error("the file ends inside a string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{c}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("a lone UTF-16 surrogate") }
                    scalars.append(scalar)
                default:
                    throw error("unknown escape '\\\(Self.printable(escape))' in a string")
                }
                run = index
            }
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard bytes.count - index >= 4 else { throw error("a \\u escape needs four hex digits") }
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = UInt32(String(UnicodeScalar(bytes[index])), radix: 16) else {
                    throw error("a \\u escape needs four hex digits")
                }
                code = code * 16 + digit
                index += 1
            }
            return code
        }
    }
}
