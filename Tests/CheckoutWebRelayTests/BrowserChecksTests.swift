import CheckoutCore
import CheckoutFlows
import CheckoutTestSupport
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// The relay checks each answer as the browser would before it sends it (spec W4, W8): the flow
/// has judged it against the request (E7), and the wire's own rules come on top. What the browser
/// would refuse is never sent; the session ends and says why.
final class BrowserChecksTests: XCTestCase {
    /// A merchant whose every shipping-contact answer is `update`.
    private final class Answering: PaymentAuthorizationDelegate {
        let update: ShippingContactUpdate
        init(_ update: ShippingContactUpdate) { self.update = update }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact,
            handler: @escaping @Sendable (ShippingContactUpdate) -> Void
        ) { handler(update) }
        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) { handler(PaymentAuthorizationResult(status: .success)) }
        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}
    }

    private func relay(applePayVersion: Int = ApplePayVersion.supported.upperBound) -> WebRelay {
        WebRelay(options: RelayOptions(clock: ManualClock(), applePayVersion: applePayVersion))
    }

    /// A total over Apple Pay's 100,000,000 ("Total amount is too big", WebKit
    /// `PaymentRequestValidator.mm`), which the flow's own rules take.
    private static let hugeTotal = ShippingContactUpdate(
        summaryItems: [SummaryItem(label: "Tea Shop", amount: Money(minorUnits: 15_000_000_000, currency: .usd))],
        shippingMethods: [Shop.standard])

    // spec W4, W8: Apple Pay's ceiling on a total is the browser's rule, not the flow's.
    func testAnAppleTotalOverTheCeilingIsNeverSent() async throws {
        XCTAssertEqual(Shop.request.problems(in: Self.hugeTotal), [], "the flow's rules take the total")
        let relay = relay()
        try relay.open("b1", request: Shop.request, merchant: .authorization(delegate: Answering(Self.hugeTotal)))
        let reply = await relay.handle(try Page.contact("b1"))
        XCTAssertNil(reply.completion, "nothing is sent: \(reply)")
        XCTAssertEqual(reply.end?.reason, "browserWouldRefuse")
        XCTAssertEqual(reply.end?.abort, true)
        XCTAssertTrue(reply.end?.message.contains("newTotal.amount") == true, "\(reply)")
        let session = try XCTUnwrap(relay.session("b1"))
        XCTAssertTrue(session.isEnded)
        XCTAssertTrue(session.transcript.text().contains("browserWouldRefuse"))
    }

    // spec W8: the W3C sheet has no such ceiling; the same answer goes to `updateWith`.
    func testTheSameTotalGoesToAPaymentRequestPage() async throws {
        let relay = relay()
        try relay.open("b2", request: Shop.request, merchant: .authorization(delegate: Answering(Self.hugeTotal)))
        let reply = await relay.handle(try Page.address("b2"))
        guard case .updateWith(let update) = reply.completion else {
            return XCTFail("answered with updateWith: \(reply)")
        }
        XCTAssertEqual(update.total?.amount.value, "150000000.00")
    }

    // spec W8: a member the session's ApplePaySession version does not have is never sent.
    func testAMemberTheVersionLacksIsNeverSent() async throws {
        var update = ShippingContactUpdate(summaryItems: Shop.items(2_500), shippingMethods: [Shop.standard])
        update.recurringPaymentRequest = TodaysApplePay.recurring
        for (version, sent) in [(13, false), (14, true)] {
            let relay = relay(applePayVersion: version)
            try relay.open("v\(version)", request: Shop.request, merchant: .authorization(delegate: Answering(update)))
            let reply = await relay.handle(try Page.contact("v\(version)"))
            if sent {
                guard case .shippingContactSelection(let wire) = reply.completion else {
                    return XCTFail("version \(version) takes it: \(reply)")
                }
                XCTAssertNotNil(wire.newRecurringPaymentRequest)
            } else {
                XCTAssertNil(reply.completion, "\(reply)")
                XCTAssertEqual(reply.end?.reason, "browserWouldRefuse", "\(reply)")
                XCTAssertTrue(reply.end?.message.contains("newRecurringPaymentRequest") == true, "\(reply)")
            }
        }
    }

    // spec W8: coupon codes exist from ApplePaySession version 12.
    func testACouponAnswerBeforeVersion12IsNeverSent() async throws {
        let relay = relay(applePayVersion: 11)
        try relay.open("c1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let reply = await relay.handle(try Page.coupon("c1", "TEN"))
        XCTAssertNil(reply.completion, "\(reply)")
        XCTAssertEqual(reply.end?.reason, "browserWouldRefuse", "\(reply)")
    }
}
