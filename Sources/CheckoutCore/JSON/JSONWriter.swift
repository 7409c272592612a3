import Foundation
import Synchronization

/// Writes JSON as `JSONSerialization` does (see ``Transcript/json(showingPersonalData:)``); the
/// caller gives each object's keys in sorted order.
///
/// The text is written as UTF-8 bytes into one buffer of the writer's own, its capacity reserved
/// up front and doubled when full, and made a `String` once, by ``output``: an append to a
/// `String` costs about 350 instructions, to an array about 100 (its uniqueness checked, a
/// generic copy), here a capacity check and a copy. Not copyable: the writer owns its
/// buffer.
package struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written: a mark to go back to with ``truncate(to:)``.
    package private(set) var count = 0

    /// Whether `/` is written `\/`, as `JSONSerialization` writes it (`JSONEncoder` with
    /// `.withoutEscapingSlashes` writes it as it is).
    private let escapesSlashes: Bool

    package init(capacity: Int = 256, escapingSlashes: Bool = true) {
        self.capacity = Swift.max(capacity, 16)
        escapesSlashes = escapingSlashes
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Whether key `first` comes before `second` in `JSONEncoder`'s order of sorted keys (and
    /// `.sortedKeys`): by their UTF-8 bytes, not in `String` order, which compares canonical forms.
    package static func precedesAsEncoderKey(_ first: String, _ second: String) -> Bool {
        let compared = first.utf8.withContiguousStorageIfAvailable { first in
            second.utf8.withContiguousStorageIfAvailable { second in
                let common = Swift.min(first.count, second.count)
                let order = common == 0 ? 0 : memcmp(first.baseAddress!, second.baseAddress!, common)
                return order == 0 ? first.count < second.count : order < 0
            }
        }
        return (compared ?? nil) ?? first.utf8.lexicographicallyPrecedes(second.utf8)
    }

    /// The text written, as a `String`.
    package var output: String { String(decoding: bytes, as: UTF8.self) }

    /// The bytes written; valid until the next write.
    package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Drops what was written after `mark`.
    package mutating func truncate(to mark: Int) { count = Swift.min(count, mark) }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        let larger = Swift.max(needed, 2 * capacity)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    /// Writes `text` as it is (JSON written already, or punctuation).
    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { raw($0) }
    }

    /// Writes `text` as it is.
    package mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { raw($0) }
    }

    /// Writes bytes as they are.
    package mutating func raw(_ text: UnsafeBufferPointer<UInt8>) {
        guard let start = text.baseAddress, !text.isEmpty else { return }
        reserve(text.count)
        (base + count).update(from: start, count: text.count)
        count += text.count
    }

    @inline(__always)
    package mutating func byte(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    package mutating func bool(_ flag: Bool) { flag ? raw("true") : raw("false") }

    /// Writes `value` in decimal, as `String(value)` does.
    package mutating func integer(_ value: some BinaryInteger) {
        if value < 0 {
            byte(UInt8(ascii: "-"))
            digits(UInt64(value.magnitude))
        } else {
            digits(UInt64(value))
        }
    }

    /// Writes `value`'s decimal digits.
    private mutating func digits(_ value: UInt64) {
        guard value >= 10 else {
            byte(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var reversed: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
        withUnsafeMutableBytes(of: &reversed) { buffer in
            var rest = value
            var count = 0
            while rest > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { byte(buffer[index]) }
        }
    }

    /// Writes `text` as a JSON string.
    package mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string($0) }
    }

    /// Writes the UTF-8 text `utf8` as a JSON string: `"`, `\` and `/` (unless the writer writes
    /// slashes as they are) escaped, control characters
    /// as their short escapes or `\u00xx`, everything else as it is. (A byte of a multi-byte
    /// character is never below 0x80, so escaping bytes escapes the scalars `JSONSerialization`
    /// escapes.)
    package mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
        byte(UInt8(ascii: "\""))
        var start = 0
        for index in utf8.indices where Self.needsEscape(utf8[index], slashes: escapesSlashes) {
            if start < index { raw(UnsafeBufferPointer(rebasing: utf8[start..<index])) }
            escape(utf8[index])
            start = index + 1
        }
        if start < utf8.count { raw(UnsafeBufferPointer(rebasing: utf8[start...])) }
        byte(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8, slashes: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || (slashes && byte == UInt8(ascii: "/"))
    }

    /// Writes the escape of one byte that ``needsEscape(_:)``.
    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case UInt8(ascii: "/"): raw("\\/")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        case UInt8(ascii: "\n"): raw("\\n")
        case UInt8(ascii: "\r"): raw("\\r")
        case UInt8(ascii: "\t"): raw("\\t")
        default:
            let hex: StaticString = "0123456789abcdef"
            raw("\\u00")
            hex.withUTF8Buffer { hex in
                self.byte(hex[Int(byte >> 4)])
                self.byte(hex[Int(byte & 0x0F)])
            }
        }
    }
}
