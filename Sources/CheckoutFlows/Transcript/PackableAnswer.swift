import CheckoutCore

/// A merchant's answer that a transcript can keep as bytes while its flow is idle
/// (``FlowLog/compact(packingAnswersOf:)``): an answer is about 40 bytes in the log's array, and its summary's array
/// 130 to 180 more, where its bytes take 15 to 40 (BENCHMARKS.md, the relay's bytes). An answer
/// with a part its packed form does not carry stays as it is.
package protocol PackableAnswer: Equatable {
    /// Writes the answer; false when it has a part the packed form does not carry (the writer is
    /// then put back by its caller).
    func pack(to writer: inout PackedAnswerWriter) -> Bool

    /// The answer `pack(to:)` wrote; `byDefault`, whether the protocol's default gave it (the
    /// record's flag, spec A9). Nil when the bytes are not an answer of this type.
    static func unpack(from reader: inout PackedAnswerReader, byDefault: Bool) -> Self?
}

extension PackableAnswer {
    /// Packs the answer at the end of `bytes`, read back with `unpack` and compared with it: true
    /// when it reads back equal (``PackedAnswerWriter/text(_:)`` keeps strings to the byte, which
    /// `==` does not check); else `bytes` is left as it was.
    func pack(appendingTo bytes: inout [UInt8], byDefault: Bool) -> Bool {
        let start = bytes.count
        // The writer holds the bytes' only reference while it writes, so they are not copied.
        var writer = PackedAnswerWriter(bytes: bytes)
        bytes = []
        defer { bytes = writer.bytes }
        guard pack(to: &writer) else {
            writer.bytes.removeSubrange(start...)
            return false
        }
        var reader = PackedAnswerReader(bytes: writer.bytes, at: start)
        guard let again = Self.unpack(from: &reader, byDefault: byDefault), reader.isAtEnd, again == self else {
            writer.bytes.removeSubrange(start...)
            return false
        }
        return true
    }
}

/// Writes a packed answer: unsigned and signed numbers as LEB128 (signed ones zigzag first), and
/// strings as their UTF-8 after their length, or as the place of the same string written earlier
/// in the bytes when that is shorter (the labels and currencies that every answer repeats).
package struct PackedAnswerWriter {
    package fileprivate(set) var bytes: [UInt8]

    fileprivate init(bytes: [UInt8]) { self.bytes = bytes }

    package mutating func unsigned(_ value: UInt64) { LEB128.append(value, to: &bytes) }

    package mutating func signed(_ value: Int64) { LEB128.append(signed: value, to: &bytes) }

    /// A string: its length doubled, then its UTF-8; or the offset of an earlier copy (its length
    /// and UTF-8 as written here), doubled plus one, when that takes fewer bytes. The copy is
    /// looked for in the last ``window`` bytes, so that a long session's answers do not take
    /// longer to pack each.
    package mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            let head = UInt64(utf8.count) << 1
            if let earlier = earlierCopy(head: head, utf8),
                LEB128.size(of: UInt64(earlier) << 1 | 1) < LEB128.size(of: head) + utf8.count
            {
                unsigned(UInt64(earlier) << 1 | 1)
                return
            }
            unsigned(head)
            bytes.append(contentsOf: utf8)
        }
    }

    /// How far back ``text(_:)`` looks for a copy.
    private static var window: Int { 1_024 }

    /// Where `head` (LEB128) and `utf8` were written together last in the window, if they were.
    private func earlierCopy(head: UInt64, _ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        let size = LEB128.size(of: head) + utf8.count
        guard size > 1, bytes.count >= size else { return nil }
        for start in stride(from: bytes.count - size, through: max(0, bytes.count - Self.window), by: -1) {
            var text = start
            guard LEB128.read(bytes, at: &text) == head, text + utf8.count == start + size else { continue }
            if bytes[text..<(start + size)].elementsEqual(utf8) { return start }
        }
        return nil
    }

    /// An optional string: 0 for nil, else 1 and the string.
    package mutating func optionalText(_ text: String?) {
        guard let text else { return unsigned(0) }
        unsigned(1)
        self.text(text)
    }
}

/// Reads what a ``PackedAnswerWriter`` wrote. A read past the end, or a string's place that is not
/// one, reads as nil: the bytes are the log's own, but a reader never traps on them.
package struct PackedAnswerReader {
    private let bytes: [UInt8]
    package private(set) var index: Int

    package init(bytes: [UInt8], at index: Int) {
        self.bytes = bytes
        self.index = index
    }

    package var isAtEnd: Bool { index == bytes.count }

    package mutating func unsigned() -> UInt64? { LEB128.read(bytes, at: &index) }

    package mutating func signed() -> Int64? { LEB128.readSigned(bytes, at: &index) }

    package mutating func count() -> Int? {
        guard let value = unsigned(), value <= UInt64(bytes.count) else { return nil }
        return Int(value)
    }

    package mutating func text() -> String? {
        guard let head = unsigned() else { return nil }
        guard head & 1 == 1 else { return utf8(count: head >> 1) }
        guard head >> 1 < UInt64(index) else { return nil }
        var earlier = PackedAnswerReader(bytes: bytes, at: Int(head >> 1))
        guard let length = earlier.unsigned(), length & 1 == 0 else { return nil }
        return earlier.utf8(count: length >> 1)
    }

    /// An optional string (``PackedAnswerWriter/optionalText(_:)``): `.some(nil)` for nil, nil when
    /// the bytes do not read.
    package mutating func optionalText() -> String?? {
        switch unsigned() {
        case 0?: .some(nil)
        case 1?: text().map { .some($0) }
        default: nil
        }
    }

    private mutating func utf8(count: UInt64) -> String? {
        guard count <= UInt64(bytes.count - index) else { return nil }
        defer { index += Int(count) }
        return String(decoding: bytes[index..<index + Int(count)], as: UTF8.self)
    }
}
