import CheckoutCore
import CheckoutFlows
import XCTest

/// Spec A2, A5, W3: which errors of an update keep authorization blocked, after PassKit
/// (`PKPaymentRequestShippingContactUpdate.errors`: errors "the user must resolve"; WebKit hands
/// every error code of an Apple Pay update to PassKit unchanged), and an empty list of methods
/// blocking as the relay's wire says it does (the wire's side: CheckoutWebTests'
/// `UpdateBlockingWireTests`).
final class UpdateBlockingTests: XCTestCase {
    private typealias F = FlowsFixture
    private typealias Machine = PaymentAuthorizationStateMachine

    private func presented(_ request: PaymentRequest = FlowsFixture.request()) -> Machine {
        var machine = Machine(request: request, options: FlowOptions(callbackTimeout: nil, clock: ManualClock()))
        _ = machine.present(at: .zero)
        return machine
    }

    /// Selects `contact`, answers with `update`, and returns what `authorize` does then.
    private func selectAndAuthorize(
        _ machine: inout Machine, _ contact: Contact = FlowsFixture.jane(), answering update: ShippingContactUpdate,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Refusal? {
        guard case .didSelectShippingContact(_, let id) = F.call(machine.selectShippingContact(contact, at: .zero))
        else {
            XCTFail("expected didSelectShippingContact", file: file, line: line)
            return nil
        }
        _ = machine.answer(id, first: true, .shippingContact(update), at: .zero)
        XCTAssertEqual(machine.step, .sheet, file: file, line: line)
        let effect = machine.authorize(F.token(), billingContact: nil, at: .zero)
        if case .authorize = F.call(effect) { return nil }
        return F.refusal(effect)
    }

    // spec A2: an error of no particular kind in a shipping-contact update blocks, as every code
    // but a coupon's does (the case: `.unknown` with an empty method list).
    func testUnknownErrorInAContactUpdateBlocksAuthorizationUntilAnotherContact() {
        var machine = presented()
        let unknown = PaymentError.unknown("We cannot price this address right now")
        let refusal = selectAndAuthorize(
            &machine,
            answering: ShippingContactUpdate(errors: [unknown], summaryItems: F.summary("20.00"), shippingMethods: []))
        XCTAssertEqual(refusal?.code, .blockedByError)
        XCTAssertEqual(refusal?.blockingError, unknown)
        XCTAssertEqual(machine.sheet?.shownErrors, [unknown], "the merchant's error is blocking already: nothing added")

        // Another contact with methods lifts the block.
        let lifted = selectAndAuthorize(
            &machine, F.john(),
            answering: ShippingContactUpdate(summaryItems: F.summary("25.00"), shippingMethods: [F.standard]))
        XCTAssertNil(lifted, "\(String(describing: lifted))")
    }

    // spec A2, W3: "none available" (an empty list) blocks as the relay's addressUnserviceable does.
    func testEmptyMethodListBlocksWithTheErrorTheRelaySends() throws {
        var machine = presented()
        let update = ShippingContactUpdate(summaryItems: F.summary("20.00"), shippingMethods: [])
        let refusal = selectAndAuthorize(&machine, answering: update)
        XCTAssertEqual(refusal?.code, .blockedByError)
        XCTAssertEqual(refusal?.blockingError, .noShippingMethodAvailable)
        XCTAssertEqual(machine.sheet?.shippingMethods, [])
        XCTAssertNil(machine.sheet?.selectedShippingMethodID)
        XCTAssertEqual(machine.sheet?.shownErrors, [.noShippingMethodAvailable])
    }

    // spec A2, A5: coupon errors in a contact update are shown and do not block.
    func testCouponErrorsInAContactUpdateDoNotBlock() {
        var machine = presented()
        let coupon = PaymentError.couponCodeExpired("The code has expired")
        let refusal = selectAndAuthorize(
            &machine, answering: ShippingContactUpdate(errors: [coupon], summaryItems: F.summary("20.00")))
        XCTAssertNil(refusal)
    }

    // spec A5, W3: a coupon update that leaves no method blocks until another contact; one that
    // keeps methods never blocks, whatever its errors.
    func testCouponUpdateWithAnEmptyListBlocksUntilAnotherContact() {
        var machine = presented(F.request(supportsCouponCode: true))
        guard case .didChangeCouponCode(_, let id) = F.call(machine.changeCouponCode("LOCAL", at: .zero)) else {
            return XCTFail("expected didChangeCouponCode")
        }
        let invalid = PaymentError.couponCodeInvalid("Only for local pickup")
        _ = machine.answer(
            id, first: true,
            .couponCode(CouponCodeUpdate(errors: [invalid], summaryItems: F.summary("20.00"), shippingMethods: [])),
            at: .zero)
        XCTAssertEqual(machine.sheet?.shownErrors, [invalid, .noShippingMethodAvailable])
        let refusal = F.refusal(machine.authorize(F.token(), billingContact: nil, at: .zero))
        XCTAssertEqual(refusal?.blockingError, .noShippingMethodAvailable)

        let lifted = selectAndAuthorize(
            &machine, answering: ShippingContactUpdate(summaryItems: F.summary("20.00"), shippingMethods: [F.standard]))
        XCTAssertNil(lifted)
    }
}
