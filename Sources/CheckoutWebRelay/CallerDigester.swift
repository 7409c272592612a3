import CheckoutCore

/// Makes callers' keyed digests (``RelayCaller/digest(key:)``: HMAC-SHA256 of
/// `relay.caller:<identity>` under the relay's key) with the key's two padded blocks hashed once,
/// when the relay is made, rather than for every event: the digest of each event's caller is the
/// HMAC of a short message, half of whose four SHA-256 blocks are the key's (RFC 2104's inner and
/// outer hashes start with them). The digests are the same bytes; a test compares them.
struct CallerDigester: Sendable {
    /// SHA-256 after the key's inner block (the key, zero-padded, XOR 0x36).
    private let inner: SHA256
    /// SHA-256 after the key's outer block (XOR 0x5c).
    private let outer: SHA256

    /// A digester for `key` (hashed first when longer than a block, as HMAC does).
    init(key: [UInt8]) {
        var block = key.count > SHA256.blockCount ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: SHA256.blockCount - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        self.inner = inner
        self.outer = outer
    }

    /// The caller's digest: `caller.digest(key:)` under this digester's key.
    func digest(_ caller: RelayCaller) -> CallerDigest {
        var inner = self.inner
        inner.update(caller.digestMessage)
        var outer = self.outer
        outer.update(inner.finalize())
        return CallerDigest(bytes: outer.finalize())
    }
}
