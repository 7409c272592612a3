import CheckoutCore
import CheckoutFlows
import CheckoutSimulator
import CheckoutTestSupport
import CheckoutWeb
import CheckoutWebRelay
import Dispatch
import Foundation
import Synchronization
import XCTest

/// The "Done when": a server-style run of 10,000 relayed sessions at once.
final class ConcurrentSessionsTests: XCTestCase {
    static let sessionCount = 10_000
    static let threadCount = 8

    /// What a driving thread reports of one session: where it lives now, and the events that
    /// reached its flow (the relay's own refusals left out), for the direct run.
    struct Report: Sendable {
        var id: String
        var relay: Int
        var events: [RelayEvent]
        var suspensions: Int
        var pendingRefusals: Int
    }

    // spec W4, W6, E1, E8: 10,000 sessions driven from 8 threads, each thread interleaving its
    // sessions' events in random order; an event sent while the merchant owes an answer is refused
    // with callbackPending; idle sessions are written out and resumed in the other relay, back and
    // forth; at the end every session's transcript has the events of a direct run of the same flow
    // with the same events, in the same order. Times are not compared: a resumed flow replays its
    // events at the time of the resume.
    func testTenThousandConcurrentSessionsAgreeWithDirectRuns() async throws {
        let clock = ManualClock()
        let ends = Arrivals<String>()
        let options = RelayOptions(
            clock: clock, snapshotKey: Shop.key, onSessionEnd: { id, _ in ends.append(id) })
        let relays = [WebRelay(options: options), WebRelay(options: options)]
        let store = InMemoryRelaySessionStore()
        let reports = Locked<[Report]>([])
        let failures = Locked<[String]>([])
        let started = ContinuousClock.now

        let group = DispatchGroup()
        for thread in 0..<Self.threadCount {
            group.enter()
            let worker = Thread {
                let mine = Self.drive(
                    thread: thread, count: Self.sessionCount / Self.threadCount, relays: relays, store: store,
                    failures: failures)
                reports.withLock { $0 += mine }
                group.leave()
            }
            worker.stackSize = 1 << 20
            worker.start()
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                group.wait()
                continuation.resume()
            }
        }
        let driven = ContinuousClock.now - started
        XCTAssertEqual(failures.withLock { Array($0.prefix(10)) }, [])
        let all = reports.withLock { $0 }
        XCTAssertEqual(all.count, Self.sessionCount)
        let suspensions = all.map(\.suspensions).reduce(0, +)
        let pendingRefusals = all.map(\.pendingRefusals).reduce(0, +)
        let events = all.map(\.events.count).reduce(0, +)
        XCTAssertGreaterThan(suspensions, Self.sessionCount / 10)
        XCTAssertGreaterThan(pendingRefusals, Self.sessionCount / 10)

        // The direct runs, and the comparison.
        let mismatches = await withTaskGroup(of: [String].self) { group in
            for chunk in stride(from: 0, to: all.count, by: 500) {
                let slice = Array(all[chunk..<min(chunk + 500, all.count)])
                group.addTask {
                    var found: [String] = []
                    for report in slice {
                        guard let session = relays[report.relay].session(report.id) else {
                            found.append("\(report.id): not in relay \(report.relay)")
                            continue
                        }
                        let direct = Self.directRun(report.events)
                        let relayed = eventsWithoutTimes(session.flowTranscript)
                        if relayed != direct { found.append("\(report.id):\nrelayed \(relayed)\ndirect  \(direct)") }
                    }
                    return found
                }
            }
            var found: [String] = []
            for await part in group { found += part }
            return found
        }
        let compared = ContinuousClock.now - started
        XCTAssertEqual(mismatches.count, 0, mismatches.prefix(2).joined(separator: "\n"))
        XCTAssertEqual(relays[0].sessionCount + relays[1].sessionCount, Self.sessionCount)

        // spec W6: past the idle timeout every session is let go of, on the clock.
        clock.advance(by: .seconds(31))
        await ends.waitFor(Self.sessionCount, timeout: .seconds(60))
        XCTAssertEqual(relays[0].sessionCount + relays[1].sessionCount, 0)
        XCTAssertEqual(ends.items.count, Self.sessionCount)
        let total = ContinuousClock.now - started
        print(
            "relay: \(Self.sessionCount) sessions, \(events) events reached the flows, \(pendingRefusals) refused "
                + "as pending, \(suspensions) written out and resumed; driven in \(driven), compared by \(compared), all in \(total)"
        )
    }

    /// One thread's sessions, their events interleaved at random.
    private static func drive(
        thread: Int, count: Int, relays: [WebRelay], store: InMemoryRelaySessionStore, failures: Locked<[String]>
    ) -> [Report] {
        var random = SeededGenerator(seed: UInt64(thread) &* 0x9e37_79b9_7f4a_7c15 &+ 1)
        let fail: (String) -> Void = { message in failures.withLock { $0.append(message) } }
        var sessions: [DrivenSession] = (0..<count).map { index in
            let id = "t\(thread)-s\(index)"
            let merchant = ShopMerchant()
            do {
                try relays[0].open(id, request: Shop.request, merchant: .authorization(delegate: merchant))
            } catch {
                fail("\(id): \(error)")
            }
            return DrivenSession(
                report: Report(id: id, relay: 0, events: [], suspensions: 0, pendingRefusals: 0), merchant: merchant,
                steps: Int.random(in: 3...7, using: &random), paymentRequest: index % 4 == 3)
        }
        var live = Array(sessions.indices)
        while !live.isEmpty {
            let pick = Int.random(in: 0..<live.count, using: &random)
            let index = live[pick]
            step(&sessions[index], relays: relays, store: store, random: &random, fail: fail)
            sessions[index].steps -= 1
            if sessions[index].steps <= 0 || sessions[index].ended {
                live.swapAt(pick, live.count - 1)
                live.removeLast()
            }
        }
        return sessions.map(\.report)
    }

    /// One random event of one session (or a write-out and resume in the other relay).
    private static func step(
        _ session: inout DrivenSession, relays: [WebRelay], store: InMemoryRelaySessionStore,
        random: inout SeededGenerator, fail: (String) -> Void
    ) {
        let id = session.report.id
        let relay = relays[session.report.relay]
        // Spec W10: a page is an ApplePaySession's or a PaymentRequest's; each event is the
        // session's page's own.
        func onWire(_ event: RelayEvent) throws -> RelayEvent {
            switch (session.paymentRequest, event.payload) {
            case (false, .shippingAddressChange(let address)):
                try Page.contact(
                    id, country: address.country ?? "US", postalCode: address.country == "CA" ? "K1A 0B1" : "78701")
            case (false, .shippingOptionChange(let option)): try Page.method(id, option)
            case (true, .shippingContactSelected(let contact)):
                try Page.address(id, country: contact.countryCode == "CA" ? "CA" : "US")
            case (true, .shippingMethodSelected(let method)): try Page.option(id, method.identifier)
            case (true, .paymentMethodSelected), (true, .couponCodeChanged), (true, .paymentAuthorized):
                try Page.option(id, "standard")
            default: event
            }
        }
        func send(_ event: RelayEvent) -> RelayReply { blocking { await relay.handle(event) } }
        func sent(_ event: RelayEvent, _ reply: RelayReply) {
            if let refusal = reply.refusal, refusal.reason == "callbackPending" {
                return fail("\(id): a sequential \(event.type.rawValue) was refused: \(refusal)")
            }
            if reply.session != id || reply.type != event.type.rawValue { fail("\(id): reply \(reply) to \(event)") }
            session.report.events.append(event)
            session.ended = relay.session(id)?.isEnded ?? true
        }
        func sent(_ event: RelayEvent) throws {
            let event = try onWire(event)
            sent(event, send(event))
        }
        do {
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<16:
                let country = ["US", "US", "US", "CA", "GB"].randomElement(using: &random)!
                let event = try Page.contact(id, country: country, postalCode: country == "US" ? "78701" : "K1A 0B1")
                try sent(event)
            case 16..<30:
                let event = try Page.method(id, ["standard", "express", "overnight"].randomElement(using: &random)!)
                try sent(event)
            case 30..<38:
                let event = try Page.card(id, type: Bool.random(using: &random) ? "credit" : "debit")
                try sent(event)
            case 38..<47:
                let code =
                    Int.random(in: 0..<40, using: &random) == 0 ? "BAD" : Bool.random(using: &random) ? "TEN" : "NOPE"
                let event = try Page.coupon(id, code)
                try sent(event)
            case 47..<60:
                // spec W4: an event while the merchant owes an answer is refused, and changes nothing.
                let held = try onWire(try Page.contact(id))
                let other = try onWire(
                    [try Page.method(id, "express"), try Page.coupon(id, "TEN"), try Page.card(id)]
                        .randomElement(using: &random)!)
                let merchant = session.merchant
                merchant.holdNextAnswer()
                let first = Locked<RelayReply?>(nil)
                let answered = DispatchSemaphore(value: 0)
                Task {
                    let reply = await relay.handle(held)
                    first.withLock { $0 = reply }
                    answered.signal()
                }
                blocking { await merchant.waitUntilParked() }
                let refused = send(other)
                if refused.refusal?.reason != "callbackPending"
                    || refused.refusal?.pendingCallback != "didSelectShippingContact"
                {
                    fail("\(id): \(other.type.rawValue) while an answer is owed got \(refused)")
                }
                session.report.pendingRefusals += 1
                merchant.release()
                answered.wait()
                sent(held, first.withLock { $0! })
            case 60..<70:
                let transaction = Int.random(in: 0..<5, using: &random) < 3 ? "decline-\(roll)" : "ok-\(roll)"
                let event = try Page.authorize(id, transaction: transaction)
                try sent(event)
            case 70..<73:
                let event = try Page.cancel(id)
                try sent(event)
            case 73..<82:
                let event =
                    Bool.random(using: &random)
                    ? try Page.address(id, country: Bool.random(using: &random) ? "US" : "CA")
                    : try Page.option(id, Bool.random(using: &random) ? "standard" : "express")
                try sent(event)
            case 82..<94:
                let event = try Page.card(id, type: "credit")
                try sent(event)
            default:
                // spec W6: written out between events, resumed by the other relay.
                let target = 1 - session.report.relay
                let merchant = ShopMerchant()
                let result: Result<RelaySession, any Error> = blocking {
                    do {
                        try await relay.suspend(id, to: store)
                        return .success(
                            try await relays[target].resume(
                                id, from: store, merchant: .authorization(delegate: merchant)))
                    } catch {
                        return .failure(error)
                    }
                }
                switch result {
                case .success:
                    session.merchant = merchant
                    session.report.relay = target
                    session.report.suspensions += 1
                case .failure(let error): fail("\(id): suspend and resume: \(error)")
                }
            }
        } catch {
            fail("\(id): \(error)")
        }
    }

    /// The same events given straight to a fresh flow with the same merchant's answers.
    static func directRun(_ events: [RelayEvent]) -> [TimelessEntry] {
        guard
            let flow = try? PaymentAuthorizationFlow(
                request: Shop.request, delegate: ShopMerchant(), options: FlowOptions(clock: ManualClock()))
        else { return [] }
        flow.present()
        // The merchant answers inside its callbacks, so each action is over when it returns.
        for event in events {
            do {
                switch event.payload {
                case .shippingContactSelected(let contact):
                    // Apple's contact is redacted, as the relay takes it.
                    var redacted = try contact.core()
                    redacted.isRedacted = true
                    flow.selectShippingContact(redacted)
                case .shippingAddressChange(let address): flow.selectShippingContact(try address.core())
                case .shippingMethodSelected(let method): flow.selectShippingMethod(method.identifier)
                case .shippingOptionChange(let identifier): flow.selectShippingMethod(identifier)
                case .paymentMethodSelected(let method): flow.selectPaymentMethod(method.core())
                case .couponCodeChanged(let code): flow.changeCouponCode(code)
                case .paymentAuthorized(let payment):
                    let core = try payment.core()
                    flow.authorize(
                        core.token, billingContact: core.billingContact, shippingContact: core.shippingContact)
                case .cancel: flow.cancel()
                case .validateMerchant, .paymentMethodChange, .paymentResponse, .payerDetailChange: break
                // Express Checkout Element and Google Pay: these sessions send none.
                case .expressCheckoutClick, .expressCheckoutShippingAddressChange, .expressCheckoutShippingRateChange,
                    .expressCheckoutConfirm, .googlePayPaymentDataChanged, .googlePayPaymentAuthorized:
                    return []
                }
            } catch {
                return []  // the events were read by the relay; a direct run must read them too
            }
        }
        return eventsWithoutTimes(flow.transcript)
    }
}

/// A session as its driving thread sees it.
private struct DrivenSession {
    var report: ConcurrentSessionsTests.Report
    var merchant: ShopMerchant
    var steps: Int
    /// The session's page is a PaymentRequest's, not an ApplePaySession's.
    var paymentRequest: Bool
    var ended = false
}

/// A value under a lock, shareable by reference.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: LockedValue<Value>
    init(_ value: Value) { mutex = LockedValue(value) }
    func withLock<T>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}

/// Runs `body` on the cooperative pool and blocks this (non-pool) thread until it is done.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}
