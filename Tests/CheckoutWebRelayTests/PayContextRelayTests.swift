import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// A Stripe merchant: creates a PaymentIntent for the sheet's total and answers shipping changes
/// as ``Shop`` does.
final class StripeShop: PayContextDelegate {
    let backend: FlakyBackend
    private let completions = Locked<[PaymentStatus]>([])

    init(backend: FlakyBackend) { self.backend = backend }

    var statuses: [PaymentStatus] { completions.withLock { $0 } }

    func payContext(
        _ context: PayContext, didCreatePaymentMethod paymentMethod: StripePaymentMethod,
        paymentInformation: Payment, completion: @escaping @Sendable (IntentAnswer) -> Void
    ) {
        do {
            let total = context.sheet.sheet?.grandTotal ?? Shop.money(2_500)
            completion(.secret(try backend.stripe.createPaymentIntent(amount: total)))
        } catch {
            completion(.failure(error))
        }
    }

    func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {
        completions.withLock { $0.append(status) }
    }

    func payContext(
        _ context: PayContext, didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) { handler(Shop.answer(contact: contact)) }

    func payContext(
        _ context: PayContext, didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) { handler(Shop.answer(method: method)) }
}

/// The in-memory Stripe, whose next payment-method creation can be made to fail.
final class FlakyBackend: PaymentBackend {
    let stripe = InMemoryStripeBackend()
    private let failNext = Locked(false)

    func failNextPaymentMethod() { failNext.withLock { $0 = true } }

    func createPaymentMethod(from payment: Payment) async throws -> StripePaymentMethod {
        if failNext.withLock({ $0.take() }) {
            throw StripeError(type: "api_error", code: nil, message: "Stripe is unavailable", param: nil)
        }
        return try await stripe.createPaymentMethod(from: payment)
    }

    func retrieveIntent(_ secret: IntentClientSecret) async throws -> StripeIntent {
        try await stripe.retrieveIntent(secret)
    }

    func confirmIntent(_ secret: IntentClientSecret, paymentMethodID: String, shipping: ShippingDetails?) async throws
        -> StripeIntent
    {
        try await stripe.confirmIntent(secret, paymentMethodID: paymentMethodID, shipping: shipping)
    }
}

extension Bool {
    fileprivate mutating func take() -> Bool {
        defer { self = false }
        return self
    }
}

final class PayContextRelayTests: XCTestCase {
    private func relay() -> WebRelay { WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key)) }

    private func payment(_ session: String, card: String) throws -> RelayEvent {
        try Page.event(
            #"{"session": "\#(session)", "type": "paymentauthorized", "payment": {"token": {"paymentMethod": {"displayName": "Visa 4242", "network": "Visa", "type": "credit"}, "transactionIdentifier": "tx-1", "paymentData": "\#(card)"}}}"#
        )
    }

    // spec W4, W6, P1-P6: a pay-context session is relayed like an authorization flow, written
    // out and resumed between events, and pays through the backend.
    func testAPayContextSessionIsRelayedResumedAndPaid() async throws {
        let backend = FlakyBackend()
        let first = relay()
        try first.open(
            "p1", request: Shop.request, merchant: .payContext(delegate: StripeShop(backend: backend), backend: backend)
        )
        let contact = await first.handle(try Page.contact("p1"))
        XCTAssertEqual(contact.completion?.method, "completeShippingContactSelection")
        let method = await first.handle(try Page.method("p1", "express"))
        guard case .shippingMethodSelection(let update) = method.completion else { return XCTFail("\(method)") }
        XCTAssertEqual(update.newTotal.amount, "35.00")
        let card = await first.handle(try Page.card("p1"))  // the sheet answers a card change itself
        XCTAssertEqual(card.completion?.method, "completePaymentMethodSelection")

        let store = InMemoryRelaySessionStore()
        try await first.suspend("p1", to: store)
        let second = relay()
        let merchant = StripeShop(backend: backend)
        let resumed = try await second.resume(
            "p1", from: store, merchant: .payContext(delegate: merchant, backend: backend))
        XCTAssertNotNil(resumed.payContext)
        XCTAssertEqual(resumed.authorizationFlow.sheet?.grandTotal, Shop.money(3_500))

        // spec P4: the backend failed to create the payment method: a failure to retry from.
        backend.failNextPaymentMethod()
        let failed = await second.handle(try payment("p1", card: "4242424242424242"))
        guard case .payment(let failure) = failed.completion else { return XCTFail("\(failed)") }
        XCTAssertEqual(failure.status, 1)  // STATUS_FAILURE: the customer may try again
        // spec W6: a pay context cannot be written out once its backend was called.
        XCTAssertThrowsError(try second.snapshot("p1")) {
            XCTAssertEqual(($0 as? RelayError)?.code, .snapshotUnsupported)
        }
        let paid = await second.handle(try payment("p1", card: "4242424242424242"))
        guard case .payment(let success) = paid.completion else { return XCTFail("\(paid)") }
        XCTAssertEqual(success.status, 0)
        await resumed.payContext?.waitUntilEnded()
        XCTAssertEqual(merchant.statuses, [.success])
    }

    // spec P4, W4: a declined card ends the pay context with its error; the page aborts.
    func testADeclinedCardEndsThePayment() async throws {
        let backend = FlakyBackend()
        let relay = relay()
        let merchant = StripeShop(backend: backend)
        try relay.open("p1", request: Shop.request, merchant: .payContext(delegate: merchant, backend: backend))
        let declined = await relay.handle(try payment("p1", card: "4000000000000002"))
        // The sheet shows the failure with Stripe's error and the payment is over; when the
        // sheet's result and the context's end cross, the page gets the end instead.
        switch declined.body {
        case .complete(.payment(let result)):
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.errors?.first?.message.contains("card_declined") == true, "\(declined)")
        case .ended(let end):
            XCTAssertEqual(end.reason, "paymentFailed")
            XCTAssertEqual(end.abort, true)
            XCTAssertTrue(end.message.contains("card_declined"), "\(declined)")
        default: XCTFail("\(declined)")
        }
        await relay.session("p1")?.payContext?.waitUntilEnded()
        XCTAssertEqual(merchant.statuses, [.error])
        XCTAssertEqual(relay.session("p1")?.isEnded, true)
        XCTAssertThrowsError(try relay.snapshot("p1")) { XCTAssertEqual(($0 as? RelayError)?.code, .sessionEnded) }
    }

    // spec W6: a snapshot resumes only with a merchant of its kind.
    func testASnapshotResumesOnlyWithAMerchantOfItsKind() async throws {
        let backend = FlakyBackend()
        let relay = relay()
        try relay.open(
            "p1", request: Shop.request, merchant: .payContext(delegate: StripeShop(backend: backend), backend: backend)
        )
        let sealed = try relay.snapshot("p1")
        do {
            _ = try await self.relay().resume(sealed, merchant: .authorization(delegate: ShopMerchant()))
            XCTFail("a pay context resumed as an authorization flow")
        } catch let error as RelayError {
            XCTAssertEqual(error.code, .snapshotDiverged)
            XCTAssertEqual(error.field, "kind")
        }
    }
}
