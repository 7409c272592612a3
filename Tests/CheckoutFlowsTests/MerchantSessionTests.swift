import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import Foundation
import XCTest

/// PassKit's `didRequestMerchantSessionUpdate` as a callback of the authorization flow (spec W5):
/// one at a time under the deadline, a session lets the sheet go on, a failure ends it, and the
/// session itself is never shown.
final class MerchantSessionTests: XCTestCase {
    private typealias F = FlowsFixture
    private let request = MerchantSessionRequest(
        validationURL: URL(string: "https://apple-pay-gateway.apple.com/paymentservices/startSession")!)
    private let session = MerchantSession(json: #"{"merchantSessionIdentifier":"SECRET-SESSION"}"#)

    private func makeFlow(_ delegate: RecordingPaymentAuthorizationDelegate, clock: ManualClock = ManualClock())
        throws -> PaymentAuthorizationFlow
    {
        let flow = try PaymentAuthorizationFlow(
            request: F.request(), delegate: delegate, options: F.options(clock, timeout: .seconds(30)))
        XCTAssertEqual(flow.present(), .accepted)
        return flow
    }

    // spec W5, E1: the merchant's session lets the sheet go on; while it is owed, the customer waits.
    func testASessionLetsTheSheetGoOn() throws {
        let delegate = RecordingPaymentAuthorizationDelegate(holdingUnscriptedCalls: true)
        let flow = try makeFlow(delegate)
        XCTAssertEqual(flow.requestMerchantSession(request), .accepted)
        XCTAssertEqual(flow.step, .awaiting("didRequestMerchantSessionUpdate"))
        XCTAssertEqual(delegate.didRequestMerchantSessionUpdate.arguments, [request])
        guard case .refused(let refusal) = flow.selectShippingMethod("express") else {
            return XCTFail("an action while the session is owed is refused")
        }
        XCTAssertEqual(refusal.code, .callbackPending)
        XCTAssertEqual(refusal.pendingCallback, "didRequestMerchantSessionUpdate")
        delegate.didRequestMerchantSessionUpdate.complete(.success(session))
        XCTAssertEqual(flow.step, .sheet)
        for rendering in [flow.transcript.text(showingPersonalData: true), flow.transcript.json(), "\(session)"] {
            XCTAssertFalse(rendering.contains("SECRET-SESSION"), rendering)
        }
    }

    // spec W5: without a session Apple Pay's sheet cannot go on: the flow ends failed.
    func testAFailureEndsTheFlow() throws {
        let delegate = RecordingPaymentAuthorizationDelegate()
        delegate.didRequestMerchantSessionUpdate.script(.answer(.failure))
        let flow = try makeFlow(delegate)
        XCTAssertEqual(flow.requestMerchantSession(request), .accepted)
        XCTAssertEqual(flow.outcome, .failed(.merchantValidation))
        XCTAssertEqual(delegate.didFinish.callCount, 1)
    }

    // spec A9, E11: a merchant that does not implement the callback gets the default answer (no
    // session), and the transcript says a default answered.
    func testTheDefaultAnswerIsNoSessionAndSaysSo() throws {
        let delegate = RecordingPaymentAuthorizationDelegate()
        let flow = try makeFlow(delegate)
        XCTAssertEqual(flow.requestMerchantSession(request), .accepted)
        XCTAssertEqual(flow.outcome, .failed(.merchantValidation))
        let defaults = flow.transcript.entries.filter {
            if case .completion("didRequestMerchantSessionUpdate", _, _, true) = $0.event { return true }
            return false
        }
        XCTAssertEqual(defaults.count, 1, flow.transcript.text())
    }

    // spec E4: the session has the callback's deadline.
    func testALateSessionTimesTheFlowOut() throws {
        let clock = ManualClock()
        let delegate = RecordingPaymentAuthorizationDelegate(holdingUnscriptedCalls: true)
        let flow = try makeFlow(delegate, clock: clock)
        XCTAssertEqual(flow.requestMerchantSession(request), .accepted)
        clock.advance(by: .seconds(30))
        XCTAssertEqual(flow.outcome, .timedOut)
    }
}
