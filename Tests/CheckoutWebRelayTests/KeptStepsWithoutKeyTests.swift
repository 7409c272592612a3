import CheckoutFlows
import XCTest

@testable import CheckoutWebRelay

/// Spec W6: a relay keeps each session's events for a snapshot only when it can write one out
/// (it has a snapshot key); without a key its sessions keep none, and answer the same.
final class KeptStepsWithoutKeyTests: XCTestCase {
    func testOnlyARelayWithAKeyKeepsTheEvents() async throws {
        let keyed = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        let keyless = WebRelay(options: RelayOptions(clock: ManualClock()))
        var replies: [[RelayReply]] = []
        for relay in [keyed, keyless] {
            try relay.open("s", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
            var answered: [RelayReply] = []
            for event in [try Page.contact("s"), try Page.method("s", "express"), try Page.coupon("s", "TEN")] {
                answered.append(await relay.handle(event))
            }
            replies.append(answered)
        }
        XCTAssertEqual(replies[0], replies[1])
        XCTAssertEqual(replies[0].compactMap(\.completion).count, 3)
        let kept = try XCTUnwrap(keyed.session("s")).withState { $0.steps.count }
        let keptWithoutKey = try XCTUnwrap(keyless.session("s")).withState { $0.steps.count }
        XCTAssertEqual(kept, 3)
        XCTAssertEqual(keptWithoutKey, 0)
        // The keyed relay writes the session out, and another resumes it with its three events.
        let sealed = try keyed.snapshot("s")
        let other = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        let resumed = try await other.resume(sealed, merchant: .authorization(delegate: ShopMerchant()))
        XCTAssertEqual(resumed.withState { $0.steps.count }, 3)
        // The keyless one cannot write a snapshot at all.
        XCTAssertThrowsError(try keyless.snapshot("s")) { error in
            XCTAssertEqual((error as? RelayError)?.code, .snapshotKeyMissing)
        }
    }
}
