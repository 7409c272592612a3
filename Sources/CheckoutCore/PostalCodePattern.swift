/// A postal-code pattern of Google's address metadata, compiled for whole-string matching of
/// ASCII text.
///
/// The metadata's patterns use a small part of regular-expression syntax: literal characters,
/// `\d`, bracketed sets with ranges, groups `( )` and `(?: )`, `|`, and the quantifiers `?`, `*`,
/// `+`, `{n}`, `{n,}` and `{n,m}`. This matcher implements exactly that (backtracking, on bytes),
/// so that a pattern is a plain `Sendable` value and `\d` means the ASCII digits only, as the
/// data intends; Swift's `Regex` is neither `Sendable` nor ASCII by default. Anything else in a
/// pattern makes ``init(_:)`` fail, and a test compiles every pattern of the table.
struct PostalCodePattern: Sendable {
    /// An atom and how often it repeats: a set of bytes (`ranges[first ..< first + count]`; a
    /// literal byte is a set of one) or a group (its alternatives, `sequences[first ..< first +
    /// count]`).
    private struct Piece: Sendable {
        var isGroup: Bool
        var first: Int
        var count: Int
        var min: Int
        var max: Int
    }

    /// A sequence of pieces: `pieces[start ..< end]`.
    private struct Sequence: Sendable {
        var start: Int
        var end: Int
    }

    // The compiled pattern, flat, in plain values that matching reads in place (a tree of arrays
    // made it copy a piece's arrays at every step, their reference counts costing about ten times
    // the matching itself). A sequence's pieces, and a group's alternatives, are consecutive.
    private let pieces: [Piece]
    private let ranges: [ClosedRange<UInt8>]
    private let sequences: [Sequence]
    /// The pattern's own alternatives, in `sequences`.
    private let top: Range<Int>

    /// Compiles `pattern`; nil when it uses syntax beyond the subset described above.
    init?(_ pattern: String) {
        let bytes = Array(pattern.utf8)
        var index = 0
        let digits: ClosedRange<UInt8> = UInt8(ascii: "0")...UInt8(ascii: "9")
        var pieces: [Piece] = []
        var ranges: [ClosedRange<UInt8>] = []
        var sequences: [Sequence] = []

        /// A piece (once, until its quantifier is read) of the set `members`.
        func set(_ members: [ClosedRange<UInt8>]) -> Piece {
            defer { ranges += members }
            return Piece(isGroup: false, first: ranges.count, count: members.count, min: 1, max: 1)
        }

        func parseNumber() -> Int? {
            var value: Int?
            while index < bytes.count, digits.contains(bytes[index]) {
                value = (value ?? 0) * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                guard value! < 1000 else { return nil }
                index += 1
            }
            return value
        }

        func parseSet() -> Piece? {
            // After "[": items until "]"; negated sets are not part of the subset.
            guard index < bytes.count, bytes[index] != UInt8(ascii: "^") else { return nil }
            var members: [ClosedRange<UInt8>] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                var low = bytes[index]
                index += 1
                if low == UInt8(ascii: "\\") {
                    guard index < bytes.count else { return nil }
                    let escaped = bytes[index]
                    index += 1
                    if escaped == UInt8(ascii: "d") {
                        members.append(digits)
                        continue
                    }
                    guard !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(escaped) else { return nil }
                    low = escaped
                }
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] != UInt8(ascii: "]") {
                    let high = bytes[index + 1]
                    guard high != UInt8(ascii: "\\"), low <= high else { return nil }
                    members.append(low...high)
                    index += 2
                } else {
                    members.append(low...low)
                }
            }
            guard index < bytes.count, !members.isEmpty else { return nil }
            index += 1  // "]"
            return set(members)
        }

        func parseAtom() -> Piece? {
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
                return Piece(isGroup: true, first: inner.lowerBound, count: inner.count, min: 1, max: 1)
            case UInt8(ascii: "["):
                return parseSet()
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escaped = bytes[index]
                index += 1
                if escaped == UInt8(ascii: "d") { return set([digits]) }
                // Other letter escapes (\w, \s, \b, ...) are not part of the subset.
                guard !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(escaped),
                    !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(escaped)
                else { return nil }
                return set([escaped...escaped])
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "?"), UInt8(ascii: "*"),
                UInt8(ascii: "+"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "]"):
                return nil
            default:
                return byte < 0x80 ? set([byte...byte]) : nil
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

        /// Parses alternatives up to a `)` or the end, adds them to `sequences`, one after the
        /// other, and returns where they are.
        func parseAlternatives() -> Range<Int>? {
            var alternatives: [Sequence] = []
            var sequence: [Piece] = []
            // A sequence's pieces are added once it is complete: a group inside it adds its own
            // pieces first.
            func close() {
                alternatives.append(Sequence(start: pieces.count, end: pieces.count + sequence.count))
                pieces += sequence
                sequence = []
            }
            while index < bytes.count, bytes[index] != UInt8(ascii: ")") {
                if bytes[index] == UInt8(ascii: "|") {
                    close()
                    index += 1
                    continue
                }
                guard var piece = parseAtom(), let (low, high) = parseQuantifier() else { return nil }
                (piece.min, piece.max) = (low, high)
                sequence.append(piece)
            }
            close()
            sequences += alternatives
            return (sequences.count - alternatives.count)..<sequences.count
        }

        guard let top = parseAlternatives(), index == bytes.count else { return nil }
        self.pieces = pieces
        self.ranges = ranges
        self.sequences = sequences
        self.top = top
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
                        return sequences[top].contains { sequence in
                            Self.match(tables, sequence.start, sequence.end, 0) { $0 == input.count }
                        }
                    }
                }
            }
        }
    }

    /// The compiled pattern and the input, in place.
    private struct Tables {
        let pieces: UnsafeBufferPointer<Piece>
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
    private static func match(_ tables: Tables, _ piece: Piece, _ position: Int, _ then: (Int) -> Bool) -> Bool {
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
