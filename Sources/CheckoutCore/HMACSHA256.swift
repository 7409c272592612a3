/// HMAC-SHA256 (RFC 2104 with FIPS 180-4's SHA-256): the MAC of relay snapshots (spec W6) and of
/// Stripe's webhook signatures (spec P10). Its tests are every test case of RFC 4231.
package enum HMACSHA256 {
    /// The MAC of `message` under `key`; a key longer than SHA-256's block is hashed first.
    package static func authenticationCode(for message: some Sequence<UInt8>, key: [UInt8]) -> [UInt8] {
        var block = key.count > SHA256.blockCount ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: SHA256.blockCount - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// Whether `code` is the MAC of `message` under `key`, compared in time that does not depend
    /// on where the first difference is.
    package static func isValid(_ code: [UInt8], for message: some Sequence<UInt8>, key: [UInt8]) -> Bool {
        isEqualInConstantTime(code, authenticationCode(for: message, key: key))
    }

    /// Whether two codes are equal, compared in time that depends on their lengths only, not on
    /// where the first difference is.
    package static func isEqualInConstantTime(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for (one, other) in zip(left, right) { difference |= one ^ other }
        return difference == 0
    }
}
