import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripe
import CheckoutStripeBackends
import CheckoutWeb
import Foundation
import XCTest

@testable import CheckoutWebRelay

/// The Express Checkout Element's `confirm` through a pay context on `StripeHTTPBackend`, against
/// a Stripe emulator (localstripe, which `Scripts/with-localstripe.sh` starts in CI) or Stripe's
/// test mode (spec W9, P1-P4): the page's Stripe.js creates the PaymentMethod, the server confirms
/// the merchant's PaymentIntent with it, over HTTP.
final class ExpressCheckoutStripeEmulatorTests: XCTestCase {
    /// A Stripe merchant whose intents are created over HTTP for the sheet's total.
    private final class HTTPShop: PayContextDelegate {
        let backend: StripeHTTPBackend
        private let completions = Locked<[PaymentStatus]>([])
        init(backend: StripeHTTPBackend) { self.backend = backend }
        var statuses: [PaymentStatus] { completions.withLock { $0 } }

        func payContext(
            _ context: PayContext, didCreatePaymentMethod paymentMethod: StripePaymentMethod,
            paymentInformation: Payment, completion: @escaping @Sendable (IntentAnswer) -> Void
        ) {
            let total = context.sheet.sheet?.grandTotal ?? Shop.money(2_500)
            let backend = self.backend
            Task {
                do {
                    completion(.secret(try await backend.createPaymentIntent(amount: total)))
                } catch {
                    completion(.failure(error))
                }
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

    private func backend() throws -> StripeHTTPBackend {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["STRIPE_EMULATOR_URL"], !text.isEmpty {
            let url = try XCTUnwrap(URL(string: text))
            guard url.host == "127.0.0.1" else {
                throw StripeError(
                    type: "invalid_request_error", message: "STRIPE_EMULATOR_URL must be on 127.0.0.1, not \(text)")
            }
            return StripeHTTPBackend(
                configuration: StripeHTTPBackend.Configuration(
                    apiKey: try StripeAPIKey("sk_test_localstripe"), baseURL: url,
                    retry: StripeRetryPolicy(maxRetries: 2, initialDelay: .milliseconds(50)), sendsTestCVC: true,
                    sendsStandInCards: true))
        }
        if let key = environment["STRIPE_SECRET_KEY"], !key.isEmpty {
            return StripeHTTPBackend(configuration: .init(apiKey: try StripeAPIKey(key)))
        }
        throw XCTSkip(
            "Stripe emulator tests skipped: set STRIPE_EMULATOR_URL=http://127.0.0.1:PORT of a running localstripe "
                + "(Scripts/with-localstripe.sh swift test --filter StripeEmulatorTests does it), or "
                + "STRIPE_SECRET_KEY=sk_test_… to run them against Stripe's test mode.")
    }

    private func send(_ relay: WebRelay, _ json: String) async throws -> RelayReply {
        try JSONDecoder().decode(RelayReply.self, from: await relay.handle(json: Data(json.utf8)))
    }

    // spec W9, P1-P4: a whole element session paid over HTTP: the intent Stripe holds succeeded,
    // for the sheet's total.
    func testAConfirmPaysTheMerchantsIntentOverHTTP() async throws {
        let http = try backend()
        let merchant = HTTPShop(backend: http)
        let relay = WebRelay(options: RelayOptions(clock: ManualClock()))
        try relay.open("x1", request: Shop.request, merchant: .payContext(delegate: merchant, backend: http))
        _ = try await send(relay, ExpressCheckoutRelayTests.click("x1"))
        _ = try await send(relay, ExpressCheckoutRelayTests.address("x1"))
        let rate = try await send(relay, ExpressCheckoutRelayTests.rate("x1", "express", amount: 1_500))
        XCTAssertEqual(rate.completion?.elementsAmount, 3_500)
        // What `stripe.createPaymentMethod({elements})` does on the page, against the same Stripe.
        let method = try await http.createPaymentMethod(
            from: Payment(
                token: PaymentToken(
                    paymentMethod: PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit),
                    transactionIdentifier: "express-1", paymentData: "4242424242424242")))
        let paid = try await send(relay, ExpressCheckoutRelayTests.confirm("x1", paymentMethod: method.id))
        XCTAssertEqual(paid.completion, .expressCheckoutPaymentSucceeded, "\(paid)")
        let context = try XCTUnwrap(relay.session("x1")?.payContext)
        await context.waitUntilEnded()
        XCTAssertEqual(merchant.statuses, [.success])
    }
}
