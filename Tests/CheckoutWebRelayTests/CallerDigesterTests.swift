import CheckoutCore
import XCTest

@testable import CheckoutWebRelay

/// The relay digests each event's caller with the key's blocks hashed once; the digests must be
/// the HMAC-SHA256 a session and a snapshot keep (spec W10), byte for byte.
final class CallerDigesterTests: XCTestCase {
    // spec W10: the same digest as HMAC-SHA256 for keys shorter than, as long as and longer than a
    // block, and identities that fit in the inner hash's first block or run past it.
    func testDigestsAreTheCallersHMACs() {
        let keys: [[UInt8]] = [
            Array(repeating: 7, count: 32), Array(0..<64), Array(repeating: 0xA5, count: 100), [],
        ]
        let identities = ["", "user-42", "é😀 \u{0}", String(repeating: "session-cookie-", count: 9)]
        for key in keys {
            let digester = CallerDigester(key: key)
            for identity in identities {
                let caller = RelayCaller(identity)
                let expected = HMACSHA256.authenticationCode(for: Array("relay.caller:\(identity)".utf8), key: key)
                XCTAssertEqual(digester.digest(caller).bytes, expected, "key of \(key.count) bytes, \(identity)")
                XCTAssertEqual(digester.digest(caller).bytes, caller.digest(key: key).bytes)
            }
        }
        // Each digest starts from the key's hashed blocks afresh.
        let digester = CallerDigester(key: Array(repeating: 1, count: 32))
        XCTAssertEqual(digester.digest(RelayCaller("a")), digester.digest(RelayCaller("a")))
        XCTAssertNotEqual(digester.digest(RelayCaller("a")), digester.digest(RelayCaller("b")))
    }
}
