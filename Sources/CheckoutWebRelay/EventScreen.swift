import Foundation

/// The limits an event's bytes are checked against before anything decodes them (spec W10): its
/// size, its deepest nesting and its longest string. One pass over the bytes, nothing decoded or
/// copied; what is not JSON is left to the decoder, which names what it cannot read.
struct EventScreen {
    var limits: RelayLimits

    /// Why `bytes` exceed a limit, or nil when they are within every one.
    func refusal(for bytes: Data) -> RelayRefusal? {
        if bytes.count > limits.maxEventBytes {
            return RelayRefusal(
                reason: RelayError.Code.eventTooLarge.rawValue,
                message: "the event has \(bytes.count) bytes; a relay reads \(limits.maxEventBytes) at most "
                    + "(RelayLimits.maxEventBytes)",
                limit: "maxEventBytes")
        }
        return bytes.withUnsafeBytes { scan($0) }
    }

    /// Where the scan is inside one array or object.
    private struct Frame {
        var isObject: Bool
        /// The bytes of the key of the member the scan is in (objects).
        var key: Range<Int>?
        /// The index of the element the scan is in (arrays).
        var index = 0
        /// The next string is a key (objects).
        var expectsKey = true
    }

    private func scan(_ bytes: UnsafeRawBufferPointer) -> RelayRefusal? {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        var frames: [Frame] = []
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case quote:
                let start = position + 1
                var length = 0
                position = start
                while position < bytes.count, bytes[position] != quote {
                    if bytes[position] == backslash {
                        // An escape is one scalar: `\n`, or `\uXXXX` (a surrogate pair counts two).
                        let isUnicode = position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "u")
                        position += isUnicode ? 6 : 2
                        length += 1
                    } else {
                        // UTF-8: every byte but a continuation byte starts a scalar.
                        if bytes[position] & 0xC0 != 0x80 { length += 1 }
                        position += 1
                    }
                    if length > limits.maxStringLength {
                        let isKey = frames.last.map { $0.isObject && $0.expectsKey } ?? false
                        let path = Self.path(frames, bytes)
                        return RelayRefusal(
                            reason: RelayError.Code.stringTooLong.rawValue,
                            message: "\(isKey ? "a key of \(path)" : path) is longer than "
                                + "\(limits.maxStringLength) characters, the longest string a relay takes "
                                + "(RelayLimits.maxStringLength)",
                            fields: [path], limit: "maxStringLength")
                    }
                }
                if let last = frames.indices.last, frames[last].isObject, frames[last].expectsKey {
                    frames[last].key = start..<min(position, bytes.count)
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if frames.count >= limits.maxNestingDepth {
                    let path = Self.path(frames, bytes)
                    return RelayRefusal(
                        reason: RelayError.Code.nestingTooDeep.rawValue,
                        message: "\(path) nests arrays and objects deeper than \(limits.maxNestingDepth) levels, the "
                            + "deepest a relay takes (RelayLimits.maxNestingDepth)",
                        fields: [path], limit: "maxNestingDepth")
                }
                frames.append(Frame(isObject: byte == UInt8(ascii: "{")))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                // More closings than openings: not JSON, which the decoder reports.
                guard !frames.isEmpty else { return nil }
                frames.removeLast()
            case UInt8(ascii: ":"):
                if let last = frames.indices.last, frames[last].isObject { frames[last].expectsKey = false }
            case UInt8(ascii: ","):
                if let last = frames.indices.last {
                    if frames[last].isObject { frames[last].expectsKey = true } else { frames[last].index += 1 }
                }
            default:
                break
            }
            position += 1
        }
        return nil
    }

    /// The path of the member the scan is in, as the decoder's errors name members
    /// (`shippingContact.addressLines[0]`); `the event` at the top.
    private static func path(_ frames: [Frame], _ bytes: UnsafeRawBufferPointer) -> String {
        var path = ""
        for frame in frames {
            if !frame.isObject {
                path += "[\(frame.index)]"
            } else if !frame.expectsKey, let key = frame.key {
                let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[key]), as: UTF8.self)
                path += path.isEmpty ? name : ".\(name)"
            }
        }
        return path.isEmpty ? "the event" : path
    }
}
