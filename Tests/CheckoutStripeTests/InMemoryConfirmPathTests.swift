import CheckoutCore
import CheckoutStripe
import CheckoutStripeBackends
import Foundation
import Synchronization
import XCTest

/// Stripe's newer confirm paths in the in-memory test mode, answered as Stripe documents them
/// (docs.stripe.com/api/confirmation_tokens, /api/payment_intents/confirm): ConfirmationTokens,
/// `return_url`, `setup_future_usage`, `payment_method_options` and `automatic_payment_methods`.
final class InMemoryConfirmPathTests: XCTestCase {
    private let usd10 = Money(minorUnits: 1_000, currency: .usd)

    private func payment(_ card: StripeTestCard) -> Payment {
        Payment(
            token: PaymentToken(
                paymentMethod: PaymentMethod(network: .visa, type: .credit), transactionIdentifier: "tx",
                paymentData: card.number))
    }

    private func assertStripeError(
        _ param: String, code: String? = nil, _ body: () async throws -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            try await body()
            XCTFail("expected Stripe to refuse \(param)", file: file, line: line)
        } catch let error as StripeError {
            XCTAssertEqual(error.type, "invalid_request_error", file: file, line: line)
            XCTAssertEqual(error.param, param, error.message, file: file, line: line)
            if let code { XCTAssertEqual(error.code, code, error.message, file: file, line: line) }
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    func testAConfirmationTokenFromApplePayConfirmsOnceAndExpires() async throws {
        let clock = Mutex<Int64>(1_700_000_000)
        let backend = InMemoryStripeBackend(now: { clock.withLock { $0 } })
        let token = try await backend.createConfirmationToken(
            from: payment(.success), options: StripeConfirmOptions(setupFutureUsage: .offSession))
        XCTAssertTrue(token.id.hasPrefix("ctoken_"))
        XCTAssertEqual(token.cardBrand, "visa")
        XCTAssertEqual(token.cardLast4, "4242")
        XCTAssertEqual(token.field("payment_method_preview.card.wallet.type")?.stringValue, "apple_pay")
        XCTAssertEqual(token.expiresAt, 1_700_000_000 + 12 * 3_600, "12 hours")
        let secret = try backend.createPaymentIntent(amount: usd10)
        let intent = try await backend.confirmIntent(secret, confirmationTokenID: token.id)
        XCTAssertEqual(intent.status, .succeeded)
        XCTAssertEqual(intent.setupFutureUsage, .offSession, "the token's setup_future_usage applies")
        XCTAssertNotNil(intent.paymentMethodID, "a payment method is made from the token")
        XCTAssertEqual(backend.confirmationToken(token.id)?.paymentIntentID, secret.intentID)
        let other = try backend.createPaymentIntent(amount: usd10)
        await assertStripeError("confirmation_token") {
            _ = try await backend.confirmIntent(other, confirmationTokenID: token.id)
        }
        await assertStripeError("confirmation_token", code: "resource_missing") {
            _ = try await backend.confirmIntent(other, confirmationTokenID: "ctoken_unknown")
        }
        let late = try await backend.createConfirmationToken(from: payment(.success))
        clock.withLock { $0 += 12 * 3_600 + 1 }
        await assertStripeError("confirmation_token") {
            _ = try await backend.confirmIntent(other, confirmationTokenID: late.id)
        }
        XCTAssertEqual(backend.intent(other.intentID)?.status, .requiresPaymentMethod, "nothing was confirmed")
    }

    func testAConfirmationTokenCarriesTheCardsOutcome() async throws {
        let backend = InMemoryStripeBackend()
        let declined = try await backend.createConfirmationToken(from: payment(.insufficientFunds))
        let secret = try backend.createPaymentIntent(amount: usd10)
        do {
            _ = try await backend.confirmIntent(secret, confirmationTokenID: declined.id)
            XCTFail("the card declines")
        } catch let error as StripeError {
            XCTAssertEqual(error.declineCode, "insufficient_funds")
        }
        let setup = try backend.createSetupIntent()
        let token = try await backend.createConfirmationToken(from: payment(.success))
        let confirmed = try await backend.confirmIntent(setup, confirmationTokenID: token.id)
        XCTAssertEqual(confirmed.status, .succeeded)
        XCTAssertEqual(backend.confirmationToken(token.id)?.setupIntentID, setup.intentID)
    }

    func testAReturnURLMakesAChallengeARedirect() async throws {
        let backend = InMemoryStripeBackend()
        for (returnURL, type) in [("myapp://stripe-redirect", "redirect_to_url"), (nil, "use_stripe_sdk")] {
            let method = try await backend.createPaymentMethod(from: payment(.threeDSecureRequired))
            let secret = try backend.createPaymentIntent(amount: usd10)
            let intent = try await backend.confirmIntent(
                secret, paymentMethodID: method.id, shipping: nil, options: StripeConfirmOptions(returnURL: returnURL))
            XCTAssertEqual(intent.status, .requiresAction)
            XCTAssertEqual(intent.nextAction?.type, type)
            XCTAssertEqual(intent.field("next_action.redirect_to_url.return_url")?.stringValue, returnURL)
            XCTAssertEqual(intent.nextAction?.redirectURL != nil, returnURL != nil)
        }
        let method = try await backend.createPaymentMethod(from: payment(.success))
        let secret = try backend.createPaymentIntent(amount: usd10)
        await assertStripeError("return_url", code: "url_invalid") {
            _ = try await backend.confirmIntent(
                secret, paymentMethodID: method.id, shipping: nil, options: StripeConfirmOptions(returnURL: "not a url")
            )
        }
        XCTAssertEqual(backend.confirmCount(for: secret.intentID), 0, "refused before it counted")
    }

    func testSetupFutureUsageIsAPaymentIntentsOnly() async throws {
        let backend = InMemoryStripeBackend()
        let method = try await backend.createPaymentMethod(from: payment(.success))
        let payment = try backend.createPaymentIntent(amount: usd10)
        let intent = try await backend.confirmIntent(
            payment, paymentMethodID: method.id, shipping: nil,
            options: StripeConfirmOptions(setupFutureUsage: .onSession))
        XCTAssertEqual(intent.setupFutureUsage, .onSession)
        XCTAssertEqual(intent.field("setup_future_usage")?.stringValue, "on_session")
        let setup = try backend.createSetupIntent()
        await assertStripeError("setup_future_usage", code: "parameter_unknown") {
            _ = try await backend.confirmIntent(
                setup, paymentMethodID: method.id, shipping: nil,
                options: StripeConfirmOptions(setupFutureUsage: .offSession))
        }
    }

    func testPaymentMethodOptionsRequestThreeDSecureAndManualCapture() async throws {
        let backend = InMemoryStripeBackend()
        let any = StripeConfirmOptions(paymentMethodOptions: [
            "card": .object(["request_three_d_secure": .string("any")])
        ])
        let visa = try await backend.createPaymentMethod(from: payment(.success))
        let challenged = try await backend.confirmIntent(
            try backend.createPaymentIntent(amount: usd10), paymentMethodID: visa.id, shipping: nil, options: any)
        XCTAssertEqual(challenged.status, .requiresAction, "4242 supports 3-D Secure: any challenges it")
        XCTAssertEqual(challenged.field("payment_method_options.card.request_three_d_secure")?.stringValue, "any")
        let amex = try await backend.createPaymentMethod(from: payment(.amex))
        let unsupported = try await backend.confirmIntent(
            try backend.createPaymentIntent(amount: usd10), paymentMethodID: amex.id, shipping: nil, options: any)
        XCTAssertEqual(unsupported.status, .succeeded, "a card without 3-D Secure is not challenged")
        let manual = StripeConfirmOptions(paymentMethodOptions: ["card": .object(["capture_method": .string("manual")])]
        )
        let held = try await backend.confirmIntent(
            try backend.createPaymentIntent(amount: usd10), paymentMethodID: visa.id, shipping: nil, options: manual)
        XCTAssertEqual(held.status, .requiresCapture, "the card's capture_method overrides the intent's")
    }

    func testAutomaticPaymentMethodsThatRedirectNeedAReturnURLOnTheServer() async throws {
        let backend = InMemoryStripeBackend()
        let method = try await backend.createPaymentMethod(from: payment(.success))
        let secret = try backend.createPaymentIntent(
            amount: usd10, automaticPaymentMethods: StripeAutomaticPaymentMethods())
        XCTAssertEqual(backend.intent(secret.intentID)?.field("automatic_payment_methods.enabled"), .bool(true))
        await assertStripeError("return_url") {
            _ = try backend.confirmIntentOnServer(secret.intentID, paymentMethodID: method.id)
        }
        let confirmed = try backend.confirmIntentOnServer(
            secret.intentID, paymentMethodID: method.id,
            options: StripeConfirmOptions(returnURL: "https://shop.test/done"))
        XCTAssertEqual(confirmed.status, .succeeded)
        let never = try backend.createPaymentIntent(
            amount: usd10, automaticPaymentMethods: StripeAutomaticPaymentMethods(allowRedirects: .never))
        XCTAssertEqual(try backend.confirmIntentOnServer(never.intentID, paymentMethodID: method.id).status, .succeeded)
        let client = try backend.createPaymentIntent(amount: usd10, automaticPaymentMethods: .init())
        let byClient = try await backend.confirmIntent(client, paymentMethodID: method.id, shipping: nil)
        XCTAssertEqual(byClient.status, .succeeded, "a client's confirmation is not refused for it")
    }

    func testMexicosCarnetCardSucceeds() async throws {
        let backend = InMemoryStripeBackend()
        let carnet = try XCTUnwrap(StripeTestCard(paymentData: "5062 2100 0000 0009"))
        XCTAssertEqual(carnet, .mexicoCarnet)
        let method = try await backend.createPaymentMethod(from: payment(carnet))
        XCTAssertEqual(method.card?.country, "MX")
        XCTAssertEqual(method.card?.last4, "0009")
        XCTAssertEqual(method.brand, "unknown", "Carnet is none of Stripe's card.brand values")
        let intent = try await backend.confirmIntent(
            try backend.createPaymentIntent(amount: Money(minorUnits: 10_000, currency: try CurrencyCode("MXN"))),
            paymentMethodID: method.id, shipping: nil)
        XCTAssertEqual(intent.status, .succeeded)
    }
}
