import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import Foundation
import XCTest

/// A flow knows its clock through `CheckoutClock` alone (spec E4): a clock of one's own, even a
/// value with only the three required members, times callbacks out, and the clock's
/// `deadlineArming` decides how deadlines are armed.
final class ClockProtocolTests: XCTestCase {
    /// A clock that is a value and implements only what the protocol requires, on a manual clock's
    /// virtual time.
    struct ValueClock: CheckoutClock {
        let manual: ManualClock
        var now: Duration { manual.now }
        func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> DeadlineTicket {
            manual.schedule(at: deadline, action)
        }
        func cancel(_ ticket: DeadlineTicket) { manual.cancel(ticket) }
    }

    private func flow(on clock: any CheckoutClock, _ delegate: RecordingPaymentAuthorizationDelegate) throws
        -> PaymentAuthorizationFlow
    {
        let flow = try PaymentAuthorizationFlow(
            request: FlowsFixture.request(), delegate: delegate,
            options: FlowOptions(callbackTimeout: .seconds(30), clock: clock))
        XCTAssertEqual(flow.present(), .accepted)
        return flow
    }

    func testAValueClockWithTheRequiredMembersOnlyTimesACallbackOut() throws {
        let manual = ManualClock()
        let clock = ValueClock(manual: manual)
        XCTAssertEqual(clock.deadlineArming, .exact)
        manual.advance(by: .nanoseconds(1_500))
        XCTAssertEqual(clock.nanosecondsSinceOrigin, 1_500)
        let delegate = RecordingPaymentAuthorizationDelegate(holdingUnscriptedCalls: true)
        let timed = try flow(on: clock, delegate)
        let answered = try flow(on: clock, delegate)
        XCTAssertEqual(timed.selectShippingContact(FlowsFixture.jane()), .accepted)
        XCTAssertEqual(answered.selectShippingContact(FlowsFixture.jane()), .accepted)
        delegate.didSelectShippingContact.complete(
            ShippingContactUpdate(summaryItems: FlowsFixture.summary("20.00")), call: 1)
        manual.advance(by: .seconds(29))
        XCTAssertNil(timed.outcome)
        manual.advance(by: .seconds(1))
        XCTAssertEqual(timed.outcome, .timedOut)
        XCTAssertNil(answered.outcome)
        // Armed exactly: the answered callback's deadline was cancelled, the other one fired.
        XCTAssertEqual(manual.pendingDeadlines, 0)
    }

    func testTheClockSaysHowDeadlinesAreArmed() {
        XCTAssertEqual(SystemClock.shared.deadlineArming, .lazy)
        XCTAssertEqual(ManualClock().deadlineArming, .exact)
    }
}
