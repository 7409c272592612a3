import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import XCTest

/// Deadlines armed lazily, as on the system clock: a flow keeps one timer, which may fire before
/// the outstanding callback's deadline and must then re-arm, never time a callback out early, and
/// not keep an ended flow alive. In virtual time on a `ManualClock(armsTimersLazily: true)`, and on
/// the real clock where nothing has to wait.
final class LazyTimerTests: XCTestCase {
    private typealias F = FlowsFixture
    private typealias Recorder = RecordingPaymentAuthorizationDelegate

    private func makeFlow(_ delegate: Recorder, _ clock: any CheckoutClock, timeout: Duration) throws
        -> PaymentAuthorizationFlow
    {
        let flow = try PaymentAuthorizationFlow(
            request: F.request(), delegate: delegate, options: FlowOptions(callbackTimeout: timeout, clock: clock))
        XCTAssertEqual(flow.present(), .accepted)
        return flow
    }

    // spec E4: the timer armed for the first callback fires before the second one's deadline; it
    // times nothing out and re-arms, and the second callback times out at its own full deadline,
    // counted from its call.
    func testTimerArmedForAnEarlierCallbackReArmsForTheNextOne() throws {
        let clock = ManualClock(armsTimersLazily: true)
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = try makeFlow(delegate, clock, timeout: .seconds(30))
        XCTAssertEqual(flow.selectShippingContact(F.jane()), .accepted)
        delegate.didSelectShippingContact.complete(ShippingContactUpdate(summaryItems: F.summary("20.00")))
        XCTAssertEqual(clock.pendingDeadlines, 1, "the timer stays armed after the answer")
        clock.advance(by: .seconds(10))
        XCTAssertEqual(flow.selectShippingMethod("express"), .accepted)
        XCTAssertEqual(clock.pendingDeadlines, 1, "the second callback's later deadline leaves the timer alone")
        clock.advance(to: .seconds(30))
        XCTAssertNil(flow.outcome, "the timer fired early and timed nothing out")
        XCTAssertEqual(clock.pendingDeadlines, 1, "and re-armed")
        clock.advance(to: .seconds(40) - .nanoseconds(1))
        XCTAssertNil(flow.outcome)
        clock.advance(to: .seconds(40))
        XCTAssertEqual(flow.outcome, .timedOut)
        XCTAssertEqual(flow.violations.map(\.kind), [.completionTimedOut])
        XCTAssertEqual(flow.violations.map(\.callbackID), [2])
        XCTAssertEqual(flow.violations.map(\.time), [.seconds(40)])
        XCTAssertEqual(delegate.calledMethods, ["didSelectShippingContact", "didSelectShippingMethod", "didFinish"])
        XCTAssertEqual(clock.pendingDeadlines, 0)
    }

    // spec E4, E5: a flow dropped between callbacks stays alive until its timer fires, and no
    // longer; an ended flow's timer is cancelled at once.
    func testTheTimerHoldsAnIdleFlowUntilItFiresAndAnEndedOneNotAtAll() throws {
        let clock = ManualClock(armsTimersLazily: true)
        weak var idle: PaymentAuthorizationFlow?
        weak var ended: PaymentAuthorizationFlow?
        do {
            // A merchant that answers at once and keeps nothing: a recording one keeps the
            // completions, which hold the flow as the flow holds its merchant until the end.
            let first = try PaymentAuthorizationFlow(
                request: F.request(), delegate: InlineMerchant(),
                options: FlowOptions(callbackTimeout: .seconds(30), clock: clock))
            idle = first
            XCTAssertEqual(first.present(), .accepted)
            XCTAssertEqual(first.selectShippingContact(F.jane()), .accepted)
            XCTAssertEqual(first.step, .sheet, "answered")

            let second = try PaymentAuthorizationFlow(
                request: F.request(), delegate: InlineMerchant(),
                options: FlowOptions(callbackTimeout: .seconds(30), clock: clock))
            ended = second
            XCTAssertEqual(second.present(), .accepted)
            XCTAssertEqual(second.selectShippingContact(F.jane()), .accepted)
            XCTAssertEqual(second.cancel(), .accepted)
        }
        XCTAssertNil(ended, "the ended flow's timer still holds it")
        XCTAssertNotNil(idle, "the idle flow's timer holds it until it fires")
        clock.advance(by: .seconds(30))
        XCTAssertNil(idle)
        XCTAssertEqual(clock.pendingDeadlines, 0)
    }

    // spec E4: on the real clock, answers in time are taken, however many callbacks share the timer.
    func testCallbacksAnsweredInTimeNeverTimeOut() throws {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = try makeFlow(delegate, SystemClock(), timeout: .seconds(30))
        for round in 0..<200 {
            XCTAssertEqual(flow.selectShippingMethod(round.isMultiple(of: 2) ? "express" : "standard"), .accepted)
            delegate.didSelectShippingMethod.complete(ShippingMethodUpdate(summaryItems: F.summary("29.99")))
        }
        XCTAssertEqual(flow.cancel(), .accepted)
        XCTAssertEqual(flow.outcome, .cancelled)
        XCTAssertEqual(flow.violations, [])
    }

    // spec E5: on the real clock too, an ended flow is released with the last reference its owner
    // drops, not when an hour-long deadline would have fired.
    func testAnEndedFlowIsReleasedAtOnceOnTheSystemClock() throws {
        weak var released: PaymentAuthorizationFlow?
        do {
            let delegate = Recorder(holdingUnscriptedCalls: true)
            let flow = try makeFlow(delegate, SystemClock(), timeout: .seconds(3600))
            released = flow
            XCTAssertEqual(flow.selectShippingContact(F.jane()), .accepted)
            delegate.didSelectShippingContact.complete(ShippingContactUpdate(summaryItems: F.summary("20.00")))
            XCTAssertEqual(flow.cancel(), .accepted)
            XCTAssertEqual(flow.outcome, .cancelled)
        }
        XCTAssertNil(released, "the ended flow's timer still holds it")
    }
}

/// Answers the shipping contact at once with the fixture's summary, and keeps nothing.
private final class InlineMerchant: PaymentAuthorizationDelegate {
    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        handler(.success)
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        handler(ShippingContactUpdate(summaryItems: FlowsFixture.summary("20.00")))
    }
}
