import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import XCTest

/// The pay context's state machine without threads or a backend: events in, effects out.
final class PayContextStateMachineTests: XCTestCase {
    let payment = Payment(
        token: PaymentToken(
            paymentMethod: PaymentMethod(network: .visa), transactionIdentifier: "t", paymentData: "4242")
    )

    /// Drives a machine to the point where its confirmation is in flight; returns the round id.
    func confirming(_ machine: inout PayContextStateMachine) throws -> UInt64 {
        _ = machine.present(at: .zero)
        guard
            case .call(.createPaymentMethod(_, let round)) = machine.authorizationRequested(
                payment, handler: { _ in }, at: .zero)
        else { throw SetupFailure("no backend call") }
        let method = StripePaymentMethod(id: "pm_1", brand: "visa", last4: "4242")
        guard
            case .call(.didCreatePaymentMethod(_, _, let id)) = machine.paymentMethodCreated(
                round, .success(method), at: .zero)
        else { throw SetupFailure("no didCreatePaymentMethod") }
        guard
            case .call(.retrieveIntent) = machine.intentAnswered(
                id, first: true, .clientSecret("pi_1_secret_a"), at: .zero)
        else { throw SetupFailure("no retrieve") }
        let intent = StripeIntent(id: "pi_1", kind: .paymentIntent, status: .requiresPaymentMethod)
        guard case .call(.confirmIntent) = machine.intentRetrieved(round, .success(intent), at: .zero)
        else { throw SetupFailure("no confirm") }
        return round
    }

    struct SetupFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // spec P5, P6: the sheet ending itself while the confirmation is in flight does not end the
    // payment; the confirmation's real outcome is reported by didComplete.
    func testSheetEndingDuringTheConfirmationWaitsForItsOutcome() throws {
        var machine = PayContextStateMachine(options: FlowOptions(callbackTimeout: nil, clock: ManualClock()))
        let round = try confirming(&machine)
        let violation = Violation(
            kind: .completionCalledTwice, callback: "didSelectShippingContact", callbackID: 1, time: .zero, detail: "")
        guard case .none = machine.sheetDismissed(.failed(.violation(violation)), at: .seconds(1)) else {
            return XCTFail("the payment ended while its confirmation was in flight")
        }
        XCTAssertFalse(machine.isEnded)
        let confirmed = StripeIntent(id: "pi_1", kind: .paymentIntent, status: .succeeded)
        guard
            case .call(.didComplete(let status, let error)) = machine.intentConfirmed(
                round, .success(confirmed), at: .seconds(2))
        else { return XCTFail("no didComplete after the confirmation") }
        XCTAssertEqual(status, .success)
        XCTAssertNil(error)
        XCTAssertEqual(machine.outcome?.status, .success)
        // A second dismissal (none comes, but if it did) changes nothing.
        guard case .none = machine.sheetDismissed(nil, at: .seconds(3)) else { return XCTFail("ended twice") }
    }

    // spec P5: a decline confirmed after the sheet ended is reported as the decline.
    func testSheetEndingThenADeclineReportsTheDecline() throws {
        var machine = PayContextStateMachine(options: FlowOptions(callbackTimeout: nil, clock: ManualClock()))
        let round = try confirming(&machine)
        _ = machine.sheetDismissed(nil, at: .seconds(1))
        let decline = StripeError(
            type: "card_error", code: "card_declined", declineCode: "generic_decline", message: "no")
        guard
            case .call(.didComplete(let status, let error)) = machine.intentConfirmed(
                round, .failure(decline), at: .seconds(2))
        else { return XCTFail("no didComplete") }
        XCTAssertEqual(status, .error)
        XCTAssertEqual((error as? StripeError)?.declineCode, "generic_decline")
    }
}
