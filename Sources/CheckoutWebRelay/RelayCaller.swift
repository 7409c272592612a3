import CheckoutCore

/// Who sends an event, as the server knows it: the identity it already authenticated (a session
/// cookie's id, a user id, an API key's id), never anything the page chose (spec W10).
///
/// A relay session answers only the caller that opened it: an event of another caller, or of no
/// caller, is refused exactly as an event of an unknown session is, so it learns nothing about
/// the session. The relay keeps only a keyed digest of the identity (HMAC-SHA256 under the
/// relay's key), in memory and in snapshots; the identity itself is not stored or logged.
public struct RelayCaller: Hashable, Sendable, CustomStringConvertible {
    /// The identity, as the server gave it.
    let identity: String

    /// The caller with this identity: the server's own name for whoever made the request.
    public init(_ identity: String) { self.identity = identity }

    /// `RelayCaller(…)`: the identity is not shown, so that logging a caller leaks nothing.
    public var description: String { "RelayCaller(…)" }

    /// The identity's digest under `key`, which is what sessions and snapshots keep.
    func digest(key: [UInt8]) -> CallerDigest {
        CallerDigest(bytes: HMACSHA256.authenticationCode(for: digestMessage, key: key))
    }

    /// What the digest authenticates: the identity under the relay's caller label.
    var digestMessage: [UInt8] { Array("relay.caller:\(identity)".utf8) }
}

/// A caller's keyed digest: what a session keeps of the caller that opened it. Its 32 bytes are
/// held inline (four words, big-endian), with no storage of their own.
struct CallerDigest: Hashable, Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64)

    /// The digest's bytes.
    var bytes: [UInt8] { withUnsafeBytes(of: words) { Array($0) } }

    /// Equal in constant time, so that comparing digests tells nothing by how long it takes.
    func matches(_ other: CallerDigest?) -> Bool {
        guard let other else { return false }
        let difference =
            (words.0 ^ other.words.0) | (words.1 ^ other.words.1) | (words.2 ^ other.words.2)
            | (words.3 ^ other.words.3)
        return difference == 0
    }

    /// The digest as lower-case hexadecimal, for a snapshot.
    var hex: String { bytes.hexDigits }

    /// The digest from its hexadecimal form; nil when `hex` is not 64 hexadecimal digits.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        self.init(bytes: bytes)
    }

    /// The digest of these bytes (SHA-256's 32; any beyond are not kept).
    init(bytes: [UInt8]) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            bytes.withUnsafeBytes { raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(raw.count))) }
        }
        self.words = words
    }

    static func == (left: CallerDigest, right: CallerDigest) -> Bool { left.matches(right) }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
