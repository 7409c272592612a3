import CheckoutCore
import CheckoutTesting
import Foundation
import XCTest

@testable import CheckoutFlows

/// Deadlines on the real clock, where a flow keeps one timer armed lazily: it may fire before the
/// outstanding callback's deadline and must then re-arm, never time a callback out early, and it
/// must not keep an ended flow alive.
final class SystemClockDeadlineTests: XCTestCase {
    private typealias F = FlowsFixture
    private typealias Recorder = RecordingPaymentAuthorizationDelegate

    /// Waits (polling, up to `limit`) until `condition` holds; false if it never did.
    private func eventually(_ limit: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + limit
        while clock.now < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return condition()
    }

    // spec E4: the timer armed for the first callback fires before the second one's deadline; it
    // times nothing out and re-arms, and the second callback times out no earlier than its own
    // full deadline, counted from its call.
    func testTimerArmedForAnEarlierCallbackReArmsForTheNextOne() {
        let clock = SystemClock()
        let timeout = Duration.milliseconds(200)
        let delegate = Recorder()
        let flow = PaymentAuthorizationFlow(
            request: F.request(), delegate: delegate, options: FlowOptions(callbackTimeout: timeout, clock: clock))
        XCTAssertEqual(flow.present(), .accepted)
        XCTAssertEqual(flow.selectShippingContact(F.jane()), .accepted)
        delegate.didSelectShippingContact.complete(ShippingContactUpdate(summaryItems: F.summary("20.00")))
        // The first callback's timer is due 200 ms after its call; the second opens 100 ms later.
        Thread.sleep(forTimeInterval: 0.1)
        let secondCalled = clock.now
        XCTAssertEqual(flow.selectShippingMethod("express"), .accepted)
        // The timeout ends the flow on the clock's thread, which then makes the terminal call.
        XCTAssertTrue(
            eventually { flow.outcome != nil && delegate.calledMethods.contains("didFinish") },
            "the second callback never timed out")
        XCTAssertEqual(flow.outcome, .timedOut)
        XCTAssertEqual(flow.violations.map(\.kind), [.completionTimedOut])
        XCTAssertEqual(flow.violations.first?.callbackID, 2)
        if let time = flow.violations.first?.time {
            XCTAssertGreaterThanOrEqual(time, secondCalled + timeout, "timed out before its own deadline")
        }
        XCTAssertEqual(delegate.calledMethods, ["didSelectShippingContact", "didSelectShippingMethod", "didFinish"])
    }

    // spec E4: an answer in time on the real clock is taken, however many callbacks share the timer.
    func testCallbacksAnsweredInTimeNeverTimeOut() {
        let clock = SystemClock()
        let delegate = Recorder()
        let flow = PaymentAuthorizationFlow(
            request: F.request(), delegate: delegate,
            options: FlowOptions(callbackTimeout: .seconds(30), clock: clock))
        XCTAssertEqual(flow.present(), .accepted)
        for round in 0..<200 {
            XCTAssertEqual(flow.selectShippingMethod(round.isMultiple(of: 2) ? "express" : "standard"), .accepted)
            delegate.didSelectShippingMethod.complete(ShippingMethodUpdate(summaryItems: F.summary("29.99")))
        }
        XCTAssertEqual(flow.cancel(), .accepted)
        XCTAssertEqual(flow.outcome, .cancelled)
        XCTAssertEqual(flow.violations, [])
    }

    // spec E5: once the flow has ended its timer is cancelled, so the flow is released with the
    // last reference its owner drops, not when an hour-long deadline would have fired.
    func testAnEndedFlowIsReleasedAtOnce() {
        let clock = SystemClock()
        weak var released: PaymentAuthorizationFlow?
        do {
            let delegate = Recorder()
            let flow = PaymentAuthorizationFlow(
                request: F.request(), delegate: delegate,
                options: FlowOptions(callbackTimeout: .seconds(3600), clock: clock))
            released = flow
            XCTAssertEqual(flow.present(), .accepted)
            XCTAssertEqual(flow.selectShippingContact(F.jane()), .accepted)
            delegate.didSelectShippingContact.complete(ShippingContactUpdate(summaryItems: F.summary("20.00")))
            XCTAssertEqual(flow.cancel(), .accepted)
            XCTAssertEqual(flow.outcome, .cancelled)
        }
        XCTAssertNil(released, "the ended flow's timer still holds it")
    }
}
