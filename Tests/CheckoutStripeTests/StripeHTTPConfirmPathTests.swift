import CheckoutCore
import CheckoutStripe
import CheckoutStripeBackends
import Foundation
import XCTest

/// The requests StripeHTTPBackend sends on Stripe's newer confirm paths, as Stripe's API reference
/// names their parameters (docs.stripe.com/api/confirmation_tokens/test_create,
/// /api/payment_intents/confirm, /api/payment_intents/create): checked on a loopback Stripe.
final class StripeHTTPConfirmPathTests: XCTestCase {
    private let secretKey = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"

    private func backend(
        _ stripe: FaultyStripe, key: String? = nil, emulator: Bool = false, standIns: Bool = false
    ) throws -> StripeHTTPBackend {
        StripeHTTPBackend(
            configuration: .init(
                apiKey: try StripeAPIKey(key ?? secretKey), baseURL: stripe.url, retry: .never, sendsTestCVC: emulator,
                sendsStandInCards: standIns))
    }

    private func payment(_ number: String) -> Payment {
        Payment(
            token: PaymentToken(
                paymentMethod: PaymentMethod(network: .visa, type: .credit), transactionIdentifier: "tx",
                paymentData: number))
    }

    private let options = StripeConfirmOptions(
        returnURL: "myapp://done", setupFutureUsage: .offSession,
        paymentMethodOptions: ["card": .object(["request_three_d_secure": .string("any"), "installments": .null])])

    func testAConfirmationTokenIsMadeByTheTestHelperAndConfirmsInOneRequest() async throws {
        let stripe = try FaultyStripe()
        defer { stripe.stop() }
        let backend = try backend(stripe)
        let shipping = ShippingDetails(name: "Jenny Rosen", address: Address(line1: "1 Main St", country: .us))
        let token = try await backend.createConfirmationToken(
            from: payment("4242 4242 4242 4242"), options: options, shipping: shipping)
        XCTAssertEqual(token.cardLast4, "4242")
        XCTAssertEqual(token.options.returnURL, "myapp://done")
        let create = try XCTUnwrap(stripe.attempts.last)
        XCTAssertEqual(create.path, "/v1/test_helpers/confirmation_tokens", "a secret key uses the test helper")
        XCTAssertEqual(create.form["payment_method_data[type]"], "card")
        XCTAssertEqual(create.form["payment_method_data[card][number]"], "4242424242424242")
        XCTAssertEqual(create.form["return_url"], "myapp://done")
        XCTAssertEqual(create.form["setup_future_usage"], "off_session")
        XCTAssertEqual(create.form["payment_method_options[card][request_three_d_secure]"], "any")
        XCTAssertEqual(create.form["payment_method_options[card][installments]"], "", "null unsets")
        XCTAssertEqual(create.form["shipping[name]"], "Jenny Rosen")
        XCTAssertEqual(create.form["shipping[address][line1]"], "1 Main St")
        XCTAssertNotNil(create.headers["idempotency-key"])
        let secret = try IntentClientSecret(stripe.makePaymentIntent())
        let intent = try await backend.confirmIntent(secret, confirmationTokenID: token.id)
        XCTAssertEqual(intent.status, .succeeded)
        let confirm = try XCTUnwrap(stripe.attempts.last)
        XCTAssertEqual(confirm.path, "/v1/payment_intents/\(secret.intentID)/confirm")
        XCTAssertEqual(confirm.form["confirmation_token"], token.id)
        XCTAssertEqual(stripe.attempts.count, 2, "the token is confirmed in one request")
    }

    func testAPublishableKeyMakesTheTokenAsTheClientSDKsDo() async throws {
        let stripe = try FaultyStripe()
        defer { stripe.stop() }
        let backend = try backend(stripe, key: "pk_test_TYooMQauvdEDq54NiTphI7jx")
        let token = try await backend.createConfirmationToken(from: payment("tok_visa"))
        XCTAssertEqual(stripe.attempts.last?.path, "/v1/confirmation_tokens")
        XCTAssertEqual(stripe.attempts.last?.form["payment_method_data[card][token]"], "tok_visa")
        let secret = try IntentClientSecret(stripe.makePaymentIntent())
        _ = try await backend.confirmIntent(secret, confirmationTokenID: token.id)
        XCTAssertEqual(stripe.attempts.last?.form["client_secret"], secret.unmaskedValue)
        XCTAssertEqual(stripe.attempts.last?.form["confirmation_token"], token.id)
    }

    func testTheOptionsGoWithTheConfirmation() async throws {
        let stripe = try FaultyStripe()
        defer { stripe.stop() }
        let backend = try backend(stripe)
        let secret = try IntentClientSecret(stripe.makePaymentIntent())
        _ = try await backend.confirmIntent(secret, paymentMethodID: "pm_1", shipping: nil, options: options)
        let (attach, confirm) = (stripe.attempts[0], stripe.attempts[1])
        XCTAssertEqual(attach.form["payment_method"], "pm_1")
        XCTAssertNil(attach.form["return_url"])
        XCTAssertEqual(confirm.form["return_url"], "myapp://done")
        XCTAssertEqual(confirm.form["setup_future_usage"], "off_session")
        XCTAssertEqual(confirm.form["payment_method_options[card][request_three_d_secure]"], "any")
        let plain = try IntentClientSecret(stripe.makePaymentIntent())
        _ = try await backend.confirmIntent(plain, paymentMethodID: "pm_1", shipping: nil)
        XCTAssertEqual(stripe.attempts.last?.form.keys.sorted(), [], "no options, nothing more sent")
    }

    func testAutomaticPaymentMethodsOnCreation() async throws {
        let stripe = try FaultyStripe()
        defer { stripe.stop() }
        let backend = try backend(stripe)
        _ = try await backend.createPaymentIntent(
            amount: Money(minorUnits: 1_000, currency: .usd),
            automaticPaymentMethods: StripeAutomaticPaymentMethods(allowRedirects: .never))
        let create = try XCTUnwrap(stripe.attempts.last)
        XCTAssertEqual(create.path, "/v1/payment_intents")
        XCTAssertEqual(create.form["automatic_payment_methods[enabled]"], "true")
        XCTAssertEqual(create.form["automatic_payment_methods[allow_redirects]"], "never")
        XCTAssertNil(create.form["payment_method_types[0]"], "the Dashboard decides the payment methods")
    }

    func testAnEmulatorGetsAmericanExpresssFourDigitCVC() async throws {
        let stripe = try FaultyStripe()
        defer { stripe.stop() }
        _ = try await backend(stripe, emulator: true).createPaymentMethod(from: payment("378282246310005"))
        XCTAssertEqual(stripe.attempts.last?.form["card[cvc]"], "1234")
        _ = try await backend(stripe, emulator: true).createPaymentMethod(from: payment("4242424242424242"))
        XCTAssertEqual(stripe.attempts.last?.form["card[cvc]"], "123")
    }

    func testAnEmulatorThatTakesSixteenDigitsGetsAStandInForAPlainSuccessOnly() async throws {
        let stripe = try FaultyStripe()
        defer { stripe.stop() }
        let backend = try backend(stripe, emulator: true, standIns: true)
        for (number, sent) in [
            ("378282246310005", "4242424242424242"), ("36227206271667", "4242424242424242"),
            ("5555555555554444", "5555555555554444"), ("4000000000000002", "4000000000000002"),
            ("378734493671000", "378734493671000"),
        ] {
            _ = try await backend.createPaymentMethod(from: payment(number))
            XCTAssertEqual(stripe.attempts.last?.form["card[number]"], sent, number)
        }
        _ = try await self.backend(stripe, emulator: true).createPaymentMethod(from: payment("378282246310005"))
        XCTAssertEqual(stripe.attempts.last?.form["card[number]"], "378282246310005", "Stripe itself gets the card")
    }
}
