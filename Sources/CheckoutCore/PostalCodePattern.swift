/// A postal-code pattern of Google's address metadata, compiled for whole-string matching of
/// ASCII text.
///
/// The metadata's patterns use a small part of regular-expression syntax: literal characters,
/// `\d`, bracketed sets with ranges, groups `( )` and `(?: )`, `|`, and the quantifiers `?`, `*`,
/// `+`, `{n}`, `{n,}` and `{n,m}`. This matcher implements exactly that (backtracking, on bytes),
/// so that a pattern is a plain `Sendable` value and `\d` means the ASCII digits only, as the
/// data intends; Swift's `Regex` is neither `Sendable` nor ASCII by default. Anything else in a
/// pattern makes ``init(_:)`` fail, and a test compiles every pattern of the table.
struct PostalCodePattern: Hashable, Sendable {
    /// One atom: a group when it has alternatives, else a set of bytes (a literal byte is a set of
    /// one). A struct of two arrays, not an enum: the compiled patterns live as long as the process
    /// (``AddressRules`` builds each country's once), and an enum's boxes are referenced with tag
    /// bits in their pointers, which LeakSanitizer does not recognise as references.
    private struct Node: Hashable, Sendable {
        var ranges: [ClosedRange<UInt8>] = []
        var alternatives: [[Piece]] = []

        static func byte(_ byte: UInt8) -> Node { Node(ranges: [byte...byte]) }
        static func set(_ ranges: [ClosedRange<UInt8>]) -> Node { Node(ranges: ranges) }
        static func group(_ alternatives: [[Piece]]) -> Node { Node(alternatives: alternatives) }
    }

    private struct Piece: Hashable, Sendable {
        var node: Node
        var min: Int
        var max: Int
    }

    private let alternatives: [[Piece]]

    /// Compiles `pattern`; nil when it uses syntax beyond the subset described above.
    init?(_ pattern: String) {
        let bytes = Array(pattern.utf8)
        var index = 0
        let digits: ClosedRange<UInt8> = UInt8(ascii: "0")...UInt8(ascii: "9")

        func parseNumber() -> Int? {
            var value: Int?
            while index < bytes.count, digits.contains(bytes[index]) {
                value = (value ?? 0) * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                guard value! < 1000 else { return nil }
                index += 1
            }
            return value
        }

        func parseSet() -> Node? {
            // After "[": items until "]"; negated sets are not part of the subset.
            guard index < bytes.count, bytes[index] != UInt8(ascii: "^") else { return nil }
            var ranges: [ClosedRange<UInt8>] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                var low = bytes[index]
                index += 1
                if low == UInt8(ascii: "\\") {
                    guard index < bytes.count else { return nil }
                    let escaped = bytes[index]
                    index += 1
                    if escaped == UInt8(ascii: "d") {
                        ranges.append(digits)
                        continue
                    }
                    guard !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(escaped) else { return nil }
                    low = escaped
                }
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] != UInt8(ascii: "]") {
                    let high = bytes[index + 1]
                    guard high != UInt8(ascii: "\\"), low <= high else { return nil }
                    ranges.append(low...high)
                    index += 2
                } else {
                    ranges.append(low...low)
                }
            }
            guard index < bytes.count, !ranges.isEmpty else { return nil }
            index += 1  // "]"
            return .set(ranges)
        }

        func parseAtom() -> Node? {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "("):
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "?"), bytes[index + 1] == UInt8(ascii: ":") {
                    index += 2
                }
                guard let inner = parseAlternatives(), index < bytes.count, bytes[index] == UInt8(ascii: ")") else {
                    return nil
                }
                index += 1
                return .group(inner)
            case UInt8(ascii: "["):
                return parseSet()
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escaped = bytes[index]
                index += 1
                if escaped == UInt8(ascii: "d") { return .set([digits]) }
                // Other letter escapes (\w, \s, \b, ...) are not part of the subset.
                guard !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(escaped),
                    !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(escaped)
                else { return nil }
                return .byte(escaped)
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "?"), UInt8(ascii: "*"),
                UInt8(ascii: "+"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "]"):
                return nil
            default:
                return byte < 0x80 ? .byte(byte) : nil
            }
        }

        func parseQuantifier() -> (Int, Int)? {
            guard index < bytes.count else { return (1, 1) }
            switch bytes[index] {
            case UInt8(ascii: "?"):
                index += 1
                return (0, 1)
            case UInt8(ascii: "*"):
                index += 1
                return (0, .max)
            case UInt8(ascii: "+"):
                index += 1
                return (1, .max)
            case UInt8(ascii: "{"):
                index += 1
                guard let low = parseNumber() else { return nil }
                var high = low
                if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    high = parseNumber() ?? .max
                }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "}"), low <= high else { return nil }
                index += 1
                return (low, high)
            default:
                return (1, 1)
            }
        }

        func parseAlternatives() -> [[Piece]]? {
            var alternatives: [[Piece]] = []
            var sequence: [Piece] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: ")") {
                if bytes[index] == UInt8(ascii: "|") {
                    alternatives.append(sequence)
                    sequence = []
                    index += 1
                    continue
                }
                guard let node = parseAtom(), let (low, high) = parseQuantifier() else { return nil }
                sequence.append(Piece(node: node, min: low, max: high))
            }
            alternatives.append(sequence)
            return alternatives
        }

        guard let parsed = parseAlternatives(), index == bytes.count else { return nil }
        self.alternatives = parsed
    }

    /// Whether the whole of `text` matches (not a part of it). Text beyond ASCII never matches.
    func matchesWhole(_ text: String) -> Bool {
        let input = Array(text.utf8)
        guard input.allSatisfy({ $0 < 0x80 }) else { return false }
        return alternatives.contains { sequence in
            Self.match(sequence[...], input, 0) { $0 == input.count }
        }
    }

    private static func match(
        _ sequence: ArraySlice<Piece>,
        _ input: [UInt8],
        _ position: Int,
        _ then: (Int) -> Bool
    ) -> Bool {
        guard let piece = sequence.first else { return then(position) }
        let rest = sequence.dropFirst()
        // Greedy repetition: one more first, then the rest of the sequence; a repetition that
        // consumed nothing is not repeated again (no endless loop on an empty match).
        func repeatPiece(_ count: Int, _ at: Int) -> Bool {
            if count < piece.max,
                match(
                    piece.node, input, at, { next in (next != at || count < piece.min) && repeatPiece(count + 1, next) }
                )
            {
                return true
            }
            return count >= piece.min && match(rest, input, at, then)
        }
        return repeatPiece(0, position)
    }

    private static func match(_ node: Node, _ input: [UInt8], _ position: Int, _ then: (Int) -> Bool) -> Bool {
        guard node.alternatives.isEmpty else {
            return node.alternatives.contains { match($0[...], input, position, then) }
        }
        return position < input.count && node.ranges.contains { $0.contains(input[position]) } && then(position + 1)
    }
}
