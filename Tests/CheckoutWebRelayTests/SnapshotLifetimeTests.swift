import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// A snapshot resumes once, never brings back a checkout that ended, and is only ever the session
/// it was asked for (spec W6); merchant validation asks Apple's gateways only (spec W5).
final class SnapshotLifetimeTests: XCTestCase {
    private func relay() -> WebRelay { WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key)) }

    private func open(_ relay: WebRelay, _ id: String) async throws {
        try relay.open(id, request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let answered = await relay.handle(try Page.contact(id))
        XCTAssertNotNil(answered.completion, "\(answered)")
    }

    // spec W6: resuming from a store takes the snapshot out of it, so a late or repeated event
    // elsewhere cannot resume the checkout as it was before.
    func testAResumeTakesTheSnapshotOutOfTheStore() async throws {
        let first = relay()
        try await open(first, "s1")
        let store = InMemoryRelaySessionStore()
        try await first.suspend("s1", to: store)
        try await relay().resume("s1", from: store, merchant: .authorization(delegate: ShopMerchant()))
        let left = await store.sessionIDs
        XCTAssertEqual(left, [])
        do {
            try await relay().resume("s1", from: store, merchant: .authorization(delegate: ShopMerchant()))
            XCTFail("resumed twice")
        } catch let error as RelayError {
            XCTAssertEqual(error.code, .unknownSession)
        }
    }

    // spec W6, E3: the page's cancel while the snapshot is being saved ends the checkout; the
    // saved snapshot is removed and the write-out fails, so nothing resumes an ended checkout.
    func testACancelWhileTheSessionIsWrittenOutRemovesTheSnapshot() async throws {
        let ends = LockedValue<[String]>([])
        let first = WebRelay(
            options: RelayOptions(
                clock: ManualClock(), snapshotKey: Shop.key, onSessionEnd: { id, _ in ends.withLock { $0.append(id) } })
        )
        try await open(first, "s1")
        let store = GatedStore()
        let suspending = Task { try await first.suspend("s1", to: store) }
        await store.waitUntilSaving()
        let cancelled = await first.handle(try Page.cancel("s1"))
        XCTAssertNotNil(cancelled.end, "\(cancelled)")
        await store.finishSave()
        do {
            try await suspending.value
            XCTFail("an ended checkout was written out")
        } catch let error as RelayError {
            XCTAssertEqual(error.code, .sessionEnded)
        }
        let stored = await store.load("s1")
        XCTAssertNil(stored)
        XCTAssertEqual(ends.withLock { $0 }, ["s1"])
    }

    // spec W6: a snapshot stored under another session's id is refused before anything is built
    // or registered.
    func testASnapshotOfAnotherSessionIsRefused() async throws {
        let first = relay()
        try await open(first, "s1")
        let sealed = try first.snapshot("s1")
        let store = InMemoryRelaySessionStore()
        await store.save(sealed, for: "s2")
        let second = relay()
        do {
            try await second.resume("s2", from: store, merchant: .authorization(delegate: ShopMerchant()))
            XCTFail("resumed another session")
        } catch let error as RelayError {
            XCTAssertEqual(error.code, .tamperedSnapshot)
            XCTAssertTrue(error.message.contains("\"s1\""), error.message)
        }
        XCTAssertEqual(second.sessionCount, 0)
    }

    // spec W5: the page chooses the validation URL and the merchant posts its identity to it:
    // a host other than Apple's gateways is refused before the merchant is asked.
    func testAValidationURLOffApplesGatewaysIsRefused() async throws {
        let relay = relay()
        try relay.open(
            "v1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant(), validator: ShopValidator()))
        let forged = try Page.event(
            #"{"session": "v1", "type": "validatemerchant", "validationURL": "https://169.254.169.254/latest/meta-data"}"#
        )
        let refused = await relay.handle(forged)
        XCTAssertEqual(refused.refusal?.reason, "invalidEvent")
        XCTAssertEqual(refused.refusal?.fields, ["validationURL"])
        XCTAssertEqual(relay.session("v1")?.isMerchantValidated, false)
        let validated = await relay.handle(try Page.validate("v1"))
        XCTAssertEqual(validated.completion?.method, "completeMerchantValidation")
    }
}
