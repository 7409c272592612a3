import CheckoutCore
import XCTest

final class DigestTests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    // spec W6: SHA-256 against FIPS 180-4's examples and NIST's test vectors.
    func testSHA256MatchesTheFIPSAndNISTVectors() {
        XCTAssertEqual(hex(SHA256.hash(bytes(""))), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(
            hex(SHA256.hash(bytes("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            hex(SHA256.hash(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            hex(
                SHA256.hash(
                    bytes(
                        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
                            + "lmnopqrsmnopqrstnopqrstu"))),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        XCTAssertEqual(
            hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    // Fed in pieces, the hash is the same (the block boundary inside an update).
    func testSHA256InPiecesEqualsInOne() {
        let message = [UInt8]((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        for split in [0, 1, 55, 56, 63, 64, 65, 128, 299] {
            var hasher = SHA256()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            XCTAssertEqual(hasher.finalize(), SHA256.hash(message), "split at \(split)")
        }
        // A sequence without contiguous storage, and a copy taken mid-message going its own way.
        XCTAssertEqual(SHA256.hash(message.lazy.map { $0 }), SHA256.hash(message))
        var first = SHA256()
        first.update(message[..<100])
        var second = first
        first.update(message[100...])
        second.update(message[100..<200])
        XCTAssertEqual(first.finalize(), SHA256.hash(message))
        XCTAssertEqual(second.finalize(), SHA256.hash(message[..<200]))
    }

    // spec W6: HMAC-SHA256 against every test case of RFC 4231.
    func testHMACSHA256MatchesEveryRFC4231TestCase() {
        let largeKey = [UInt8](repeating: 0xaa, count: 131)
        let cases: [(key: [UInt8], data: [UInt8], mac: String)] = [
            (
                [UInt8](repeating: 0x0b, count: 20), bytes("Hi There"),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                bytes("Jefe"), bytes("what do ya want for nothing?"),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
            ),
            (
                [UInt8](1...25), [UInt8](repeating: 0xcd, count: 50),
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
            ),
            (
                largeKey, bytes("Test Using Larger Than Block-Size Key - Hash Key First"),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
            (
                largeKey,
                bytes(
                    "This is a test using a larger than block-size key and a larger than block-size data. The key "
                        + "needs to be hashed before being used by the HMAC algorithm."),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
            ),
        ]
        for (index, test) in cases.enumerated() {
            let mac = HMACSHA256.authenticationCode(for: test.data, key: test.key)
            XCTAssertEqual(hex(mac), test.mac, "RFC 4231 case \(index < 4 ? index + 1 : index + 2)")
            XCTAssertTrue(HMACSHA256.isValid(mac, for: test.data, key: test.key))
        }
        // Test case 5: truncation to 128 bits.
        let truncated = HMACSHA256.authenticationCode(
            for: bytes("Test With Truncation"), key: [UInt8](repeating: 0x0c, count: 20)
        ).prefix(16)
        XCTAssertEqual(hex(Array(truncated)), "a3b6167473100ee06e0c796c2955552b")
    }

    func testAChangedMACOrMessageDoesNotVerify() {
        let key = [UInt8](repeating: 7, count: 32)
        let mac = HMACSHA256.authenticationCode(for: bytes("session"), key: key)
        XCTAssertFalse(HMACSHA256.isValid(mac, for: bytes("sessioN"), key: key))
        var flipped = mac
        flipped[31] ^= 1
        XCTAssertFalse(HMACSHA256.isValid(flipped, for: bytes("session"), key: key))
        XCTAssertFalse(HMACSHA256.isValid(Array(mac.prefix(16)), for: bytes("session"), key: key))
        XCTAssertFalse(HMACSHA256.isValid(mac, for: bytes("session"), key: key.dropLast() + [8]))
        // RFC 2104 pads a short key with zeros: a trailing zero byte is the same key.
        XCTAssertTrue(HMACSHA256.isValid(mac, for: bytes("session"), key: key + [0]))
    }
}
