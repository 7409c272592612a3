import CheckoutCore
import CheckoutFlows
import CheckoutWebRelay
import Foundation
import XCTest

/// A snapshot the relay cannot read says which part is wrong (found by the `relay-snapshot` fuzz
/// target: a payload that is not JSON was refused without naming anything).
final class SnapshotFieldTests: XCTestCase {
    /// `payload` sealed under `key` as a relay seals a snapshot of the current version.
    private func sealed(_ payload: String, key: [UInt8] = Shop.key) -> Data {
        var signed = Array("checkout-web-relay-snapshot/\(RelaySnapshot.version)\n".utf8)
        signed.append(contentsOf: payload.utf8)
        let mac = HMACSHA256.authenticationCode(for: signed, key: key).map { String(format: "%02x", $0) }.joined()
        return Data(signed + Array("\n\(mac)".utf8))
    }

    private func refusal(_ data: Data) async -> RelayError? {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        do {
            let session = try await relay.resume(data, merchant: .authorization(delegate: ShopMerchant()))
            XCTFail("resumed \(session.id)")
            return nil
        } catch let error as RelayError {
            XCTAssertEqual(relay.sessionCount, 0)
            return error
        } catch {
            XCTFail("not a RelayError: \(error)")
            return nil
        }
    }

    // spec W6, W10: a payload that is not JSON, whose MAC verifies, is refused naming the payload.
    func testAPayloadThatIsNotJSONNamesThePayload() async throws {
        let error = await refusal(sealed("checkout-web-relay-snapshot/1\nnot json"))
        XCTAssertEqual(error?.code, .malformedSnapshot)
        XCTAssertEqual(error?.field, "payload")
    }

    // spec W6, W10: a member of the payload that cannot be read is named by its path.
    func testAnUnreadableMemberIsNamedByItsPath() async throws {
        let missing = await refusal(sealed(#"{"version": 1, "session": "s1", "kind": "authorization"}"#))
        XCTAssertEqual(missing?.code, .malformedSnapshot)
        XCTAssertEqual(missing?.field, "payload.request")
        let wrongType = await refusal(
            sealed(#"{"version": 1, "session": 7, "kind": "authorization", "validated": false, "steps": []}"#))
        XCTAssertEqual(wrongType?.field, "payload.session")
        let otherVersion = await refusal(
            sealed(
                #"{"version": 2, "session": "s1", "kind": "authorization", "validated": false, "steps": [], "request": \#(try requestJSON())}"#
            ))
        XCTAssertEqual(otherVersion?.code, .malformedSnapshot)
        XCTAssertEqual(otherVersion?.field, "payload.version")
    }

    // spec W6: the form's parts are named too: the whole snapshot, its version, its MAC.
    func testTheFormsPartsAreNamed() async throws {
        let short = await refusal(Data("checkout-web-relay-snapshot/1\n{}".utf8))
        XCTAssertEqual(short?.field, "snapshot")
        var upperCaseMAC = [UInt8](sealed("{}"))
        upperCaseMAC[upperCaseMAC.count - 1] = UInt8(ascii: "G")
        let mac = await refusal(Data(upperCaseMAC))
        XCTAssertEqual(mac?.field, "mac")
        let noVersion = await refusal(
            Data(
                "checkout-web-relay-snapshot/x\n{}\n\(String(repeating: "0", count: 64))".utf8))
        XCTAssertEqual(noVersion?.field, "version")
    }

    private func requestJSON() throws -> String {
        String(decoding: try JSONEncoder().encode(Shop.request), as: UTF8.self)
    }
}
