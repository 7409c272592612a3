import CheckoutCore
import Foundation
import Synchronization

/// Writes JSON as `JSONSerialization` does (see ``Transcript/json(showingPersonalData:)``); the
/// caller gives each object's keys in sorted order.
struct JSONWriter {
    enum Value {
        case string(String)
        case strings([String])
        /// An array of values written already (as JSON text).
        case raw([String])
        /// A JSON number, as its text.
        case number(String)
        case bool(Bool)
    }

    private(set) var output = ""

    mutating func raw(_ text: String) { output += text }

    mutating func object(_ fields: [(String, Value)]) {
        output += "{"
        for (index, (key, value)) in fields.enumerated() {
            if index > 0 { output += "," }
            string(key)
            output += ":"
            switch value {
            case .string(let text): string(text)
            case .strings(let texts):
                output += "["
                for (index, text) in texts.enumerated() {
                    if index > 0 { output += "," }
                    string(text)
                }
                output += "]"
            case .number(let number): output += number
            case .raw(let pieces): output += "[" + pieces.joined(separator: ",") + "]"
            case .bool(let flag): output += flag ? "true" : "false"
            }
        }
        output += "}"
    }

    mutating func string(_ text: String) {
        output += "\""
        let plain = text.utf8.allSatisfy { byte in
            byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "/")
        }
        if plain {
            output += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "/": output += "\\/"
                case "\u{8}": output += "\\b"
                case "\u{c}": output += "\\f"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                case "\t": output += "\\t"
                case "\u{0}"..."\u{f}": output += "\\u000" + String(scalar.value, radix: 16)
                case "\u{10}"..."\u{1f}": output += "\\u00" + String(scalar.value, radix: 16)
                default: output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
