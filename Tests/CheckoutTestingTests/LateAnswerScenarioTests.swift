import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutPayContextTesting
import CheckoutTesting
import XCTest

/// The spec's scenario, under XCTest: the customer selects a shipping contact, the merchant
/// answers after 5 s of virtual time, the customer cancels at 2 s, then the late answer arrives:
/// a `lateCompletion`, recorded and not a failure of strict mode.
final class LateAnswerScenarioTests: XCTestCase {
    private typealias F = KitFixture

    func testAnAnswerAfterTheCustomersCancelIsLateNotAFailure() throws {
        let clock = ManualClock()
        let merchant = RecordingPaymentAuthorizationDelegate()
        merchant.didSelectShippingContact.script(
            .answer(ShippingContactUpdate(summaryItems: F.summary("25.00")), after: .seconds(5), on: clock))
        let flow = try PaymentAuthorizationFlow(
            request: F.request(), delegate: merchant, options: .testing(clock: clock))
        flow.present()
        flow.selectShippingContact(F.jane())
        clock.advance(by: .seconds(2))
        flow.cancel()
        clock.advance(by: .seconds(3))  // the merchant's answer arrives, late

        XCTAssertEqual(flow.outcome, .cancelled)
        XCTAssertEqual(flow.violations.map(\.kind), [.lateCompletion])
        XCTAssertEqual(flow.violations.first?.time, .seconds(5))
        assertDelegateCalls(flow, ["didSelectShippingContact", "didFinish"])
    }

    func testThePayContextsLateAnswerIsNotAFailure() async throws {
        let clock = ManualClock()
        let merchant = RecordingPayContextDelegate()
        merchant.didSelectShippingContact.script(
            .answer(ShippingContactUpdate(summaryItems: F.summary("25.00")), after: .seconds(5), on: clock))
        let context = try PayContext(
            request: F.request(), backend: RecordingPaymentBackend(), delegate: merchant,
            options: .testing(clock: clock))
        context.present()
        context.selectShippingContact(F.jane())
        clock.advance(by: .seconds(2))
        let outcome = try await context.cancelAndWait()
        clock.advance(by: .seconds(3))  // the merchant's answer arrives, late

        XCTAssertEqual(outcome.status, .userCancellation)
        XCTAssertEqual(context.violations.map(\.kind), [.lateCompletion])
        assertDelegateCalls(context, ["didSelectShippingContact", "didComplete"])
    }
}
