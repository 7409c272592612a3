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
    /// One atom as parsed: a group when it has alternatives, else a set of bytes (a literal byte is
    /// a set of one). (The parse's tree; the pattern keeps it flat, see ``FlatPiece``.)
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

    /// A piece, flattened into plain numbers: a set (`ranges[first ..< first + count]`) or a group
    /// (its alternatives `sequences[first ..< first + count]`), and how often it repeats.
    private struct FlatPiece: Hashable, Sendable {
        var isGroup: Bool
        var first: Int
        var count: Int
        var min: Int
        var max: Int
    }

    /// A sequence of pieces: `pieces[start ..< end]`.
    private struct Sequence: Hashable, Sendable {
        var start: Int
        var end: Int
    }

    // The compiled pattern, flat: matching reads plain values in place, without copying a piece's
    // arrays (their reference counts cost about ten times the matching itself).
    private let pieces: [FlatPiece]
    private let ranges: [ClosedRange<UInt8>]
    private let sequences: [Sequence]
    /// The pattern's own alternatives: `sequences[0 ..< topCount]`.
    private let topCount: Int

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
        var pieces: [FlatPiece] = []
        var ranges: [ClosedRange<UInt8>] = []
        var sequences: [Sequence] = []
        /// Adds `alternatives` as consecutive sequences, each with its pieces consecutive, and
        /// returns where the first is.
        func add(_ alternatives: [[Piece]]) -> Int {
            let first = sequences.count
            sequences += repeatElement(Sequence(start: 0, end: 0), count: alternatives.count)
            for (offset, sequence) in alternatives.enumerated() {
                let start = pieces.count
                pieces += repeatElement(
                    FlatPiece(isGroup: false, first: 0, count: 0, min: 0, max: 0), count: sequence.count)
                for (position, piece) in sequence.enumerated() {
                    var flat = FlatPiece(isGroup: false, first: ranges.count, count: 0, min: piece.min, max: piece.max)
                    if piece.node.alternatives.isEmpty {
                        flat.count = piece.node.ranges.count
                        ranges += piece.node.ranges
                    } else {
                        flat.isGroup = true
                        flat.count = piece.node.alternatives.count
                        flat.first = add(piece.node.alternatives)
                    }
                    pieces[start + position] = flat
                }
                sequences[first + offset] = Sequence(start: start, end: start + sequence.count)
            }
            return first
        }
        _ = add(parsed)
        self.pieces = pieces
        self.ranges = ranges
        self.sequences = sequences
        self.topCount = parsed.count
    }

    /// Whether the whole of `text` matches (not a part of it). Text beyond ASCII never matches.
    func matchesWhole(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { input in
            guard input.allSatisfy({ $0 < 0x80 }) else { return false }
            return pieces.withUnsafeBufferPointer { pieces in
                ranges.withUnsafeBufferPointer { ranges in
                    sequences.withUnsafeBufferPointer { sequences in
                        let tables = Tables(pieces: pieces, ranges: ranges, sequences: sequences, input: input)
                        return sequences[0..<topCount].contains { sequence in
                            Self.match(tables, sequence.start, sequence.end, 0) { $0 == input.count }
                        }
                    }
                }
            }
        }
    }

    /// The compiled pattern and the input, in place.
    private struct Tables {
        let pieces: UnsafeBufferPointer<FlatPiece>
        let ranges: UnsafeBufferPointer<ClosedRange<UInt8>>
        let sequences: UnsafeBufferPointer<Sequence>
        let input: UnsafeBufferPointer<UInt8>
    }

    /// Whether `pieces[piece ..< end]` match from `position` on, with `then` taking the rest.
    private static func match(
        _ tables: Tables,
        _ piece: Int,
        _ end: Int,
        _ position: Int,
        _ then: (Int) -> Bool
    ) -> Bool {
        guard piece < end else { return then(position) }
        let current = tables.pieces[piece]
        // Greedy repetition: one more first, then the rest of the sequence; a repetition that
        // consumed nothing is not repeated again (no endless loop on an empty match).
        func repeatPiece(_ count: Int, _ at: Int) -> Bool {
            if count < current.max,
                match(
                    tables, current, at, { next in (next != at || count < current.min) && repeatPiece(count + 1, next) }
                )
            {
                return true
            }
            return count >= current.min && match(tables, piece + 1, end, at, then)
        }
        return repeatPiece(0, position)
    }

    /// Whether one occurrence of `piece`'s set or group matches at `position`, with `then` taking
    /// the rest.
    private static func match(_ tables: Tables, _ piece: FlatPiece, _ position: Int, _ then: (Int) -> Bool) -> Bool {
        if piece.isGroup {
            for index in piece.first..<(piece.first + piece.count) {
                let sequence = tables.sequences[index]
                if match(tables, sequence.start, sequence.end, position, then) { return true }
            }
            return false
        }
        guard position < tables.input.count else { return false }
        let byte = tables.input[position]
        for index in piece.first..<(piece.first + piece.count) where tables.ranges[index].contains(byte) {
            return then(position + 1)
        }
        return false
    }
}
