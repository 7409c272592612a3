/// SHA-256 (FIPS 180-4, section 6.2), written here because the package takes no outside
/// dependency and Foundation on Linux has no digest. It is the hash of ``HMACSHA256``, which seals
/// relay snapshots and signs Stripe's webhooks; its tests are FIPS 180-4's and NIST's example
/// vectors.
package struct SHA256: Sendable {
    /// The digest's length in bytes.
    package static let digestCount = 32
    /// The block length in bytes (HMAC's `B`).
    package static let blockCount = 64

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The hash value (H0 to H7) and the bytes of the block not yet compressed, held inline: a
    /// copy (HMAC's keyed start, reused for every message) makes no allocation, and neither does
    /// hashing (the relay digests a caller on every event, BENCHMARKS.md).
    private var state = HashValue()
    private var pending = Block()
    private var pendingCount = 0
    private var length: UInt64 = 0

    /// Eight words, H0 to H7 (FIPS 180-4, 5.3.3 for the initial value).
    private struct HashValue {
        var words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
        )
    }

    /// 64 bytes.
    private struct Block {
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    }

    /// A hash over nothing yet.
    package init() {}

    /// The digest of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Adds `bytes` to the message.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
    }

    private mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        length &+= UInt64(bytes.count)
        var start = 0
        if pendingCount > 0 {
            let taken = min(Self.blockCount - pendingCount, bytes.count)
            withUnsafeMutableBytes(of: &pending) { block in
                block.baseAddress!.advanced(by: pendingCount).copyMemory(from: bytes.baseAddress!, byteCount: taken)
            }
            pendingCount += taken
            start = taken
            guard pendingCount == Self.blockCount else { return }
            let block = pending
            withUnsafeBytes(of: block) { compress($0.baseAddress!) }
            pendingCount = 0
        }
        while bytes.count - start >= Self.blockCount {
            compress(bytes.baseAddress!.advanced(by: start))
            start += Self.blockCount
        }
        let rest = bytes.count - start
        if rest > 0 {
            withUnsafeMutableBytes(of: &pending) { block in
                block.baseAddress!.copyMemory(from: bytes.baseAddress!.advanced(by: start), byteCount: rest)
            }
            pendingCount = rest
        }
    }

    /// Pads the message (FIPS 180-4, 5.1.1) and gives its digest.
    package consuming func finalize() -> [UInt8] {
        let bitLength = length &* 8
        var block = pending
        var count = pendingCount
        withUnsafeMutableBytes(of: &block) { $0[count] = 0x80 }
        count += 1
        if count > 56 {
            withUnsafeMutableBytes(of: &block) { bytes in
                for index in count..<Self.blockCount { bytes[index] = 0 }
            }
            withUnsafeBytes(of: block) { compress($0.baseAddress!) }
            count = 0
        }
        withUnsafeMutableBytes(of: &block) { bytes in
            for index in count..<56 { bytes[index] = 0 }
            for index in 0..<8 { bytes[56 + index] = UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * index)) }
        }
        withUnsafeBytes(of: block) { compress($0.baseAddress!) }
        return withUnsafeBytes(of: state.words) { words in
            [UInt8](unsafeUninitializedCapacity: Self.digestCount) { digest, initialized in
                for index in 0..<8 {
                    let word = words.load(fromByteOffset: 4 * index, as: UInt32.self)
                    for byte in 0..<4 {
                        digest[4 * index + byte] = UInt8(truncatingIfNeeded: word >> (24 - 8 * byte))
                    }
                }
                initialized = Self.digestCount
            }
        }
    }

    /// One block of the hash computation (FIPS 180-4, 6.2.2): the 64 bytes at `block`.
    private mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            for t in 0..<16 {
                schedule[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self))
            }
            for t in 16..<64 {
                let w15 = schedule[t - 15]
                let w2 = schedule[t - 2]
                let s0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 >> 3)
                let s1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 >> 10)
                schedule[t] = schedule[t - 16] &+ s0 &+ schedule[t - 7] &+ s1
            }
            Self.roundConstants.withUnsafeBufferPointer { constants in
                var (a, b, c, d, e, f, g, h) = state.words
                for t in 0..<64 {
                    let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let temp1 = h &+ sum1 &+ choice &+ constants[t] &+ schedule[t]
                    let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let temp2 = sum0 &+ majority
                    h = g
                    g = f
                    f = e
                    e = d &+ temp1
                    d = c
                    c = b
                    b = a
                    a = temp1 &+ temp2
                }
                state.words.0 &+= a
                state.words.1 &+= b
                state.words.2 &+= c
                state.words.3 &+= d
                state.words.4 &+= e
                state.words.5 &+= f
                state.words.6 &+= g
                state.words.7 &+= h
            }
        }
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { self >> count | self << (32 - count) }
}
