/// Session ids, and the entropy an id a page chooses carries (spec W10).
///
/// A page makes an id with `crypto.randomUUID()` (every browser with Apple Pay or Payment
/// Request has it, in a secure context), or 16 bytes of `crypto.getRandomValues` in base64url;
/// a server that makes the id itself uses ``random()``. Only the id's form can be checked, not how
/// it was made: ``estimatedBits(of:)`` gives what that form can carry at most, and a relay
/// refuses an id a page chooses below ``RelayLimits/minimumSessionIDBits``.
public enum SessionID {
    /// The most entropy `id`'s form can carry, in bits:
    /// - 0 when a character is outside base64url (`A-Z a-z 0-9 - _`), or when the id uses fewer
    ///   distinct characters than a random one would (fewer than half its length, or than 8);
    /// - 4 bits a hexadecimal digit when the id is hexadecimal digits and hyphens only (a UUID:
    ///   32 digits, 128 bits at most, 122 of them random; the hyphens count nothing);
    /// - otherwise 6 bits a character.
    public static func estimatedBits(of id: String) -> Int {
        var hexDigits = 0
        var onlyHex = true
        var seen = Set<UInt8>()
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"):
                hexDigits += 1
            case UInt8(ascii: "-"):
                break
            case UInt8(ascii: "g")...UInt8(ascii: "z"), UInt8(ascii: "G")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
                onlyHex = false
            default:
                return 0
            }
            seen.insert(byte)
        }
        let symbols = onlyHex ? hexDigits : id.utf8.count
        seen.remove(onlyHex ? UInt8(ascii: "-") : 0)
        guard seen.count >= min(8, (symbols + 1) / 2) else { return 0 }
        return symbols * (onlyHex ? 4 : 6)
    }

    /// A new id of 128 random bits in base64url (22 characters), from the system's generator.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var bits = (
            UInt64.random(in: .min ... .max, using: &generator), UInt64.random(in: .min ... .max, using: &generator)
        )
        var characters: [UInt8] = []
        for _ in 0..<22 {
            characters.append(alphabet[Int(bits.0 & 63)])
            bits.0 = (bits.0 >> 6) | (bits.1 << 58)
            bits.1 >>= 6
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
