import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

final class SnapshotTests: XCTestCase {
    private func relay(key: [UInt8] = Shop.key) -> WebRelay {
        WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: key))
    }

    /// A session with accepted events, a flow refusal and a declined authorization.
    private func openedSession(in relay: WebRelay, _ id: String = "s1", caller: RelayCaller? = nil) async throws
        -> ShopMerchant
    {
        let merchant = ShopMerchant()
        try relay.open(
            id, request: Shop.request, merchant: .authorization(delegate: merchant, validator: ShopValidator()),
            caller: caller)
        _ = await relay.handle(try Page.validate(id), caller: caller)
        _ = await relay.handle(try Page.contact(id), caller: caller)
        let unknown = await relay.handle(try Page.method(id, "overnight"), caller: caller)
        XCTAssertEqual(unknown.refusal?.reason, "unknownShippingMethod")
        _ = await relay.handle(try Page.method(id, "express"), caller: caller)
        _ = await relay.handle(try Page.coupon(id, "NOPE"), caller: caller)
        let declined = await relay.handle(try Page.authorize(id, transaction: "decline-1"), caller: caller)
        XCTAssertEqual(declined.completion, .payment(ApplePayPaymentAuthorizationResult(status: 1)))
        return merchant
    }

    // spec W6: written out between events and resumed by another relay (another process), the
    // session goes on where it was, with the same record.
    func testASnapshotResumesInAnotherRelay() async throws {
        let first = relay()
        _ = try await openedSession(in: first)
        let store = InMemoryRelaySessionStore()
        let before = try XCTUnwrap(first.session("s1")).flowTranscript
        try await first.suspend("s1", to: store)
        XCTAssertNil(first.session("s1"))
        let stored = await store.sessionIDs
        XCTAssertEqual(stored, ["s1"])

        let second = relay()
        let merchant = ShopMerchant()
        let resumed = try await second.resume("s1", from: store, merchant: .authorization(delegate: merchant))
        XCTAssertTrue(resumed.isMerchantValidated)
        // spec E8: the replay gives the same events, in the same order (at the resume's time).
        XCTAssertEqual(eventsWithoutTimes(resumed.flowTranscript), eventsWithoutTimes(before))
        XCTAssertEqual(resumed.authorizationFlow.sheet?.selectedShippingMethodID, "express")
        XCTAssertEqual(resumed.authorizationFlow.sheet?.grandTotal, Shop.money(2_500))
        XCTAssertEqual(merchant.finishedCount, 0)  // the replay never reached the merchant
        XCTAssertTrue(merchant.payments.isEmpty)

        let paid = await second.handle(try Page.authorize("s1"))
        XCTAssertEqual(paid.completion, .payment(ApplePayPaymentAuthorizationResult(status: 0)))
        XCTAssertEqual(merchant.payments.count, 1)
        XCTAssertEqual(merchant.finishedCount, 1)
        XCTAssertEqual(resumed.outcome, "success")
    }

    // spec W6: a serverless function resumes the session from its store on the next event,
    // through the relay's opener.
    func testTheOpenerResumesFromAStore() async throws {
        let first = relay()
        let id = SessionID.random()
        _ = try await openedSession(in: first, id, caller: Shop.caller)
        let store = InMemoryRelaySessionStore()
        try await first.suspend(id, to: store)
        let second = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key)) { id in
            await store.load(id).map { .resume($0, .authorization(delegate: ShopMerchant())) }
        }
        // The snapshot keeps its owner (spec W10): the resumed session answers them.
        let reply = await second.handle(try Page.method(id, "standard"), caller: Shop.caller)
        guard case .shippingMethodSelection(let update) = reply.completion else { return XCTFail("\(reply)") }
        XCTAssertEqual(update.newTotal.amount, "25.00")
        XCTAssertEqual(second.session(id)?.isMerchantValidated, true)
        let unknown = await second.handle(try Page.method(SessionID.random(), "standard"), caller: Shop.caller)
        XCTAssertEqual(unknown.refusal?.reason, "unknownSession")
    }

    // spec W6, W4: no event is lost between the snapshot and the hand-over: while the session is
    // written out its events are refused.
    func testAnEventWhileTheSessionIsWrittenOutIsRefused() async throws {
        let first = relay()
        _ = try await openedSession(in: first)
        let store = GatedStore()
        let suspending = Task { try await first.suspend("s1", to: store) }
        await store.waitUntilSaving()
        let refused = await first.handle(try Page.coupon("s1", "TEN"))
        XCTAssertEqual(refused.refusal?.reason, "callbackPending")
        XCTAssertEqual(refused.refusal?.pendingCallback, "relay.suspend")
        await store.finishSave()
        try await suspending.value
        XCTAssertNil(first.session("s1"))
        let resumed = try await relay().resume("s1", from: store, merchant: .authorization(delegate: ShopMerchant()))
        XCTAssertEqual(resumed.authorizationFlow.sheet?.couponCode, "NOPE")
    }

    // spec W6: a snapshot is taken only between events, and not of an ended session.
    func testASnapshotIsRefusedWhileAnAnswerIsOwedOrAfterTheEnd() async throws {
        let relay = relay()
        let merchant = ShopMerchant()
        try relay.open("s1", request: Shop.request, merchant: .authorization(delegate: merchant))
        merchant.holdNextAnswer()
        let pending = Task { await relay.handle(try Page.contact("s1")) }
        await merchant.waitUntilParked()
        XCTAssertThrowsError(try relay.snapshot("s1")) { XCTAssertEqual(($0 as? RelayError)?.code, .sessionBusy) }
        merchant.release()
        _ = try await pending.value
        XCTAssertNoThrow(try relay.snapshot("s1"))
        _ = await relay.handle(try Page.cancel("s1"))
        XCTAssertThrowsError(try relay.snapshot("s1")) { XCTAssertEqual(($0 as? RelayError)?.code, .sessionEnded) }
        XCTAssertThrowsError(try relay.snapshot("nobody")) {
            XCTAssertEqual(($0 as? RelayError)?.code, .unknownSession)
        }
        XCTAssertThrowsError(try self.relay(key: [1, 2, 3]).snapshot("s1")) {
            XCTAssertEqual(($0 as? RelayError)?.code, .snapshotKeyMissing)
        }
    }

    // spec W6: every byte changed is refused, with a reason, never trusted.
    func testEveryChangedByteIsRefused() async throws {
        let relay = relay()
        _ = try await openedSession(in: relay)
        let sealed = [UInt8](try relay.snapshot("s1"))
        XCTAssertGreaterThan(sealed.count, 500)
        var reasons: [RelayError.Code: Int] = [:]
        for index in sealed.indices {
            for flip: UInt8 in [0x01, 0x20] {
                var changed = sealed
                changed[index] ^= flip
                do {
                    _ = try RelaySnapshot.open(Data(changed), key: Shop.key)
                    XCTFail("byte \(index) ^ \(flip) was accepted")
                } catch let error as RelayError {
                    reasons[error.code, default: 0] += 1
                }
            }
        }
        XCTAssertEqual(Set(reasons.keys).subtracting([.tamperedSnapshot, .malformedSnapshot]), [])
        XCTAssertGreaterThan(reasons[.tamperedSnapshot] ?? 0, sealed.count)
        // Cut short, or sealed under another key: refused too.
        XCTAssertThrowsError(try RelaySnapshot.open(Data(sealed.dropLast()), key: Shop.key))
        XCTAssertThrowsError(try RelaySnapshot.open(Data(sealed), key: [UInt8](repeating: 1, count: 32))) {
            XCTAssertEqual(($0 as? RelayError)?.code, .tamperedSnapshot)
        }
        // A resume refuses the changed snapshot and opens nothing.
        var changed = sealed
        changed[sealed.count / 2] ^= 0x01
        let other = self.relay()
        do {
            _ = try await other.resume(Data(changed), merchant: .authorization(delegate: ShopMerchant()))
            XCTFail("a changed snapshot was resumed")
        } catch let error as RelayError {
            XCTAssertEqual(error.code, .tamperedSnapshot)
        }
        XCTAssertEqual(other.sessionCount, 0)
    }

    // spec W6: an old version is refused with its reason, even when its MAC verifies.
    func testAnOldVersionIsRefused() async throws {
        let relay = relay()
        _ = try await openedSession(in: relay)
        let payload = try RelaySnapshot.open(try relay.snapshot("s1"), key: Shop.key)
        var old = payload
        old.version = 0
        let sealed = try RelaySnapshot.seal(old, key: Shop.key, version: 0)
        XCTAssertThrowsError(try RelaySnapshot.open(sealed, key: Shop.key)) {
            XCTAssertEqual(($0 as? RelayError)?.code, .unsupportedSnapshotVersion)
            XCTAssertEqual(($0 as? RelayError)?.value, "0")
        }
    }

    // spec W6: the resume checks the record again as wire input, through a fresh flow: a record
    // that a fresh flow would not give the same way is refused, even under a valid MAC.
    func testAResumeRevalidatesTheRecord() async throws {
        let relay = relay()
        _ = try await openedSession(in: relay)
        let payload = try RelaySnapshot.open(try relay.snapshot("s1"), key: Shop.key)

        func resume(_ payload: RelaySnapshot.Payload) async -> RelayError.Code? {
            let other = self.relay()
            do {
                _ = try await other.resume(
                    try RelaySnapshot.seal(payload, key: Shop.key), merchant: .authorization(delegate: ShopMerchant()))
                return nil
            } catch {
                XCTAssertEqual(other.sessionCount, 0)
                return (error as? RelayError)?.code ?? RelayError.Code(rawValue: "\(type(of: error))")
            }
        }
        let untouched = await resume(payload)
        XCTAssertNil(untouched)

        // A refusal recorded where the flow accepts.
        var accepted = payload
        accepted.steps[1].refusal = nil
        accepted.steps[1].event = try Page.method("s1", "standard")
        let acceptedCode = await resume(accepted)
        XCTAssertEqual(acceptedCode, .snapshotDiverged)

        // A recorded answer the flow refuses (E7: another currency).
        var invalid = payload
        invalid.steps[0].answer = .shippingContact(
            ShippingContactUpdate(summaryItems: [SummaryItem(label: "x", amount: Money(minorUnits: 1, currency: .eur))]
            ),
            byDefault: false)
        let invalidCode = await resume(invalid)
        XCTAssertEqual(invalidCode, .snapshotDiverged)

        // An event that is not valid wire input.
        var country = payload
        country.steps[0].event = try Page.contact("s1", country: "XX")
        let countryCode = await resume(country)
        XCTAssertEqual(countryCode, .snapshotDiverged)

        // An answer of another callback's type.
        var swapped = payload
        swapped.steps[0].answer = .couponCode(CouponCodeUpdate(summaryItems: Shop.items(100)), byDefault: false)
        let swappedCode = await resume(swapped)
        XCTAssertEqual(swappedCode, .snapshotDiverged)

        // An invalid request (spec A1).
        var request = payload
        request.request.summaryItems = []
        let requestCode = await resume(request)
        XCTAssertEqual(requestCode, .invalidRequest)
    }
}

extension RelayError.Code {
    fileprivate static let invalidRequest = RelayError.Code(rawValue: "CheckoutError")
}
