/// The numbers of a packed transcript (``PackedRecords``, ``PackedAnswerWriter``): unsigned
/// LEB128, seven bits a byte, low first, the high bit set on every byte but the last; a signed
/// number zigzag-encoded first, so that a small difference either way takes one byte.
enum LEB128 {
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    static func append(signed value: Int64, to bytes: inout [UInt8]) {
        append(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
    }

    /// The number at `index`, `index` moved past it; nil when the bytes end first or it runs past
    /// 64 bits.
    static func read(_ bytes: [UInt8], at index: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count, shift < 64 {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// The signed number at `index` (``append(signed:to:)``).
    static func readSigned(_ bytes: [UInt8], at index: inout Int) -> Int64? {
        guard let bits = read(bytes, at: &index) else { return nil }
        return Int64(bitPattern: bits >> 1) ^ -Int64(bitPattern: bits & 1)
    }

    /// How many bytes `value` takes.
    static func size(of value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 6) / 7)
    }
}
