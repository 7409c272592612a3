import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutPayContextTesting
import CheckoutStripeBackends
import Foundation
import XCTest

/// Issue 34's members on the pay context, written as a stripe-ios delegate writes them.
extension PayContextTests {
    // spec P4, E8: Stripe's `willCompleteWithResult` order tracking: the merchant sets the order
    // on the result; the sheet gets it, and no transcript shows its token.
    func testWillCompleteCarriesOrderDetailsToTheSheetWithTheTokenMasked() async throws {
        let backend = InMemoryStripeBackend()
        let secret = try backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        let merchant = scriptedMerchant(.answer { _ in .secret(secret) })
        let order = PaymentOrderDetails(
            orderTypeIdentifier: "order.com.example.tea", orderIdentifier: "ORDER-42",
            webServiceURL: URL(string: "https://orders.example.com/v1")!, authenticationToken: "tok-wallet-31337")
        merchant.willComplete.fallback = .answer { result in
            var tracked = result
            tracked.orderDetails = order
            return tracked
        }
        let (context, outcome) = try await pay(merchant, backend: backend)
        XCTAssertEqual(outcome.status, .success)
        let sheetJSON = context.sheet.transcript.json(showingPersonalData: true)
        XCTAssertTrue(sheetJSON.contains("ORDER-42"), "the sheet's result carries the order: \(sheetJSON)")
        for rendering in [
            sheetJSON, context.transcript.json(showingPersonalData: true),
            context.transcript.text(showingPersonalData: true),
        ] {
            XCTAssertFalse(rendering.contains("tok-wallet-31337"), rendering)
        }
    }

    // spec P3: Stripe's completion block `(String?, Error?)`, called as stripe-ios code calls it.
    func testStripeCompletionBlockShapePays() async throws {
        let backend = InMemoryStripeBackend()
        let secret = try backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        let merchant = scriptedMerchant(.hold)
        let context = try startPayment(merchant, backend: backend)
        await merchant.waitUntilCalled("didCreatePaymentMethod")
        let held = try XCTUnwrap(merchant.didCreatePaymentMethod.completion(call: 0))
        let stripeCompletion = IntentAnswer.stripeCompletion(held)
        stripeCompletion(secret.unmaskedValue, nil)
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(backend.intent(secret.intentID)?.status, .succeeded)
    }
}

/// Stripe's answer shapes on their own.
final class IntentAnswerShapeTests: XCTestCase {
    struct ServerDown: Error {}

    func testStripePairMapsAsStripeReadsIt() {
        guard case .clientSecret("pi_1_secret_2") = IntentAnswer(clientSecret: "pi_1_secret_2", error: nil) else {
            return XCTFail("a secret")
        }
        guard
            case .completeWithoutConfirming = IntentAnswer(
                clientSecret: "COMPLETE_WITHOUT_CONFIRMING_INTENT", error: nil)
        else { return XCTFail("Stripe's constant") }
        guard case .failure(let error) = IntentAnswer(clientSecret: "pi_1_secret_2", error: ServerDown()),
            error is ServerDown
        else { return XCTFail("an error wins") }
        guard case .failure(let missing as PayContextError) = IntentAnswer(clientSecret: nil, error: nil) else {
            return XCTFail("neither")
        }
        XCTAssertEqual(missing.code, .missingClientSecret)
    }

    func testAsyncThrowingBodyMapsToTheAnswer() async {
        guard case .clientSecret("seti_1_secret_2") = await IntentAnswer({ "seti_1_secret_2" }) else {
            return XCTFail("a secret")
        }
        guard case .failure(let error) = await IntentAnswer({ throw ServerDown() }), error is ServerDown else {
            return XCTFail("the thrown error")
        }
    }
}
