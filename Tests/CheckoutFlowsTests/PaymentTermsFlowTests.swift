import CheckoutCore
import CheckoutFlows
import CheckoutTestSupport
import CheckoutTesting
import Foundation
import XCTest

/// The authorization flow's sheet with today's Apple Pay terms: the request's are shown, an
/// update's replace them, an invalid one ends the flow (spec E7, W8), and the transcript renders
/// what the merchant answered (spec E8).
final class PaymentTermsFlowTests: XCTestCase {
    private typealias F = FlowsFixture
    private typealias Recorder = RecordingPaymentAuthorizationDelegate

    private func makeFlow(_ request: PaymentRequest, _ delegate: Recorder) throws -> PaymentAuthorizationFlow {
        let flow = try PaymentAuthorizationFlow(request: request, delegate: delegate, options: F.options(ManualClock()))
        XCTAssertEqual(flow.present(), .accepted)
        return flow
    }

    private func recurringRequest() -> PaymentRequest {
        var request = F.request(total: "25.00")
        request.recurringPaymentRequest = TodaysApplePay.recurring
        return request
    }

    func testTheSheetShowsTheRequestsTermsThenTheUpdatesAndTheTranscriptRendersThem() throws {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        var yearly = TodaysApplePay.recurring
        yearly.regularBilling.intervalUnit = .year
        yearly.regularBilling.amount = Money(99, .usd)
        delegate.didSelectShippingContact.script(
            .answer(
                TodaysApplePay.with(ShippingContactUpdate(summaryItems: F.summary("25.00"))) {
                    $0.recurringPaymentRequest = yearly
                }))
        delegate.didSelectShippingMethod.script(.answer(ShippingMethodUpdate(summaryItems: F.summary("25.00"))))
        let flow = try makeFlow(recurringRequest(), delegate)
        XCTAssertEqual(flow.sheet?.recurringPaymentRequest, TodaysApplePay.recurring)
        flow.selectShippingContact(F.jane())
        XCTAssertEqual(flow.sheet?.recurringPaymentRequest, yearly, "the update replaced the request's")
        flow.selectShippingMethod("express")
        XCTAssertEqual(flow.sheet?.recurringPaymentRequest, yearly, "an update without terms leaves them")
        XCTAssertNil(flow.outcome)
        let text = flow.transcript.text()
        XCTAssertTrue(
            text.contains(#"recurring: RecurringPaymentSummaryItem("Tea club, monthly", 99.00 USD every 1 year)"#), text
        )
        let json = flow.transcript.json()
        XCTAssertTrue(json.contains(#""recurringPaymentRequest""#), json)
        XCTAssertTrue(json.contains(#""intervalUnit":"year""#), json)
    }

    func testContextsReplacedByAnUpdateAreTheOnesALaterTotalIsCheckedAgainst() throws {
        var request = F.request(total: "25.00")
        request.multiTokenContexts = TodaysApplePay.contexts
        let delegate = Recorder(holdingUnscriptedCalls: true)
        // First the merchant drops to one context of 15.00, then lowers the total to 20.00: it
        // fits the contexts in force, though not the request's (25.00).
        delegate.didSelectShippingContact.script(
            .answer(
                TodaysApplePay.with(ShippingContactUpdate(summaryItems: F.summary("25.00"))) {
                    $0.multiTokenContexts = [TodaysApplePay.contexts[0]]
                }))
        delegate.didSelectShippingMethod.script(.answer(ShippingMethodUpdate(summaryItems: F.summary("20.00"))))
        let flow = try makeFlow(request, delegate)
        flow.selectShippingContact(F.jane())
        flow.selectShippingMethod("express")
        XCTAssertNil(flow.outcome)
        XCTAssertEqual(flow.sheet?.multiTokenContexts, [TodaysApplePay.contexts[0]])
        XCTAssertEqual(flow.sheet?.grandTotal, Money(20, .usd))
    }

    // spec E7: an update whose terms the browser would reject ends the flow with invalidUpdate,
    // naming the field.
    func testInvalidTermsInAnUpdateAreAnInvalidUpdate() throws {
        var badInterval = TodaysApplePay.recurring
        badInterval.regularBilling.intervalCount = 0
        var contextsOver = TodaysApplePay.contexts
        contextsOver[0].amount = Money(16, .usd)
        let cases: [(String, PaymentMethodUpdate, String)] = [
            (
                "interval",
                TodaysApplePay.with(PaymentMethodUpdate(summaryItems: F.summary("25.00"))) {
                    $0.recurringPaymentRequest = badInterval
                },
                "recurringPaymentRequest.regularBilling.intervalCount"
            ),
            (
                "two requests",
                TodaysApplePay.with(PaymentMethodUpdate(summaryItems: F.summary("25.00"))) {
                    $0.deferredPaymentRequest = TodaysApplePay.deferred
                },
                "deferredPaymentRequest"
            ),
            (
                "contexts over the total",
                TodaysApplePay.with(PaymentMethodUpdate(summaryItems: F.summary("25.00"))) {
                    $0.multiTokenContexts = contextsOver
                },
                "multiTokenContexts"
            ),
        ]
        for (name, update, field) in cases {
            let delegate = Recorder(holdingUnscriptedCalls: true)
            delegate.didSelectPaymentMethod.script(.answer(update))
            var request = recurringRequest()
            if name == "contexts over the total" { request.recurringPaymentRequest = nil }
            let flow = try makeFlow(request, delegate)
            flow.selectPaymentMethod(F.visa)
            guard case .failed(.violation(let violation)) = flow.outcome else {
                XCTFail("\(name): expected failed, got \(String(describing: flow.outcome))")
                continue
            }
            XCTAssertEqual(violation.kind, .invalidUpdate, name)
            XCTAssertTrue(violation.detail.contains(field), "\(name): \(violation.detail)")
            XCTAssertEqual(delegate.calledMethods, ["didSelectPaymentMethod", "didFinish"], name)
        }
    }
}
