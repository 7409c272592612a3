import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripe
import CheckoutStripeBackends
import XCTest

/// Every card of Stripe's testing page, in a pay-context scenario on the in-memory backend, ends
/// as the page documents it.
final class InMemoryTestCardTests: XCTestCase {
    private func run(_ card: StripeTestCard, radar: StripeRadarRules = .stripeDefault, setup: Bool = false)
        async throws -> (CardScenario.Result, InMemoryStripeBackend)
    {
        let backend = InMemoryStripeBackend(radar: radar)
        let (result, _) = try await CardScenario.run(card, backend: backend) {
            setup
                ? try backend.createSetupIntent()
                : try backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        }
        return (result, backend)
    }

    func testEveryDocumentedCardOnAPaymentIntent() async throws {
        for card in StripeTestCard.allCases {
            let (result, _) = try await run(card)
            XCTAssertEqual(result, CardScenario.expected(card), "\(card)")
        }
    }

    func testEveryDocumentedCardOnASetupIntent() async throws {
        for card in StripeTestCard.allCases {
            let (result, _) = try await run(card, setup: true)
            XCTAssertEqual(result, CardScenario.expected(card, setup: true), "\(card)")
        }
    }

    func testThePageSaysWhatEachKindOfCardDoes() {
        // Independent of the table's own outcome function: the page's words, card by card.
        XCTAssertEqual(CardScenario.expected(.success), .success)
        XCTAssertEqual(CardScenario.expected(.mastercard), .success)
        XCTAssertEqual(CardScenario.expected(.amex), .success)
        XCTAssertEqual(CardScenario.expected(.genericDecline), .error("generic_decline"))
        XCTAssertEqual(CardScenario.expected(.stolenCard), .error("stolen_card"))
        XCTAssertEqual(CardScenario.expected(.velocityExceeded), .error("card_velocity_exceeded"))
        XCTAssertEqual(CardScenario.expected(.expiredCard), .error("expired_card"))
        XCTAssertEqual(CardScenario.expected(.incorrectCVC), .error("incorrect_cvc"))
        XCTAssertEqual(CardScenario.expected(.alwaysBlocked), .error("fraudulent"))
        XCTAssertEqual(CardScenario.expected(.highestRisk), .error("fraudulent"))
        XCTAssertEqual(CardScenario.expected(.highestRisk, radar: .permissive), .success)
        XCTAssertEqual(CardScenario.expected(.elevatedRisk), .success)
        // "Radar might block it depending on your settings"; the postal-code rule "might not be
        // enabled for your account by default" (docs.stripe.com/radar/rules).
        XCTAssertEqual(CardScenario.expected(.incorrectZIP), .success)
        XCTAssertEqual(CardScenario.expected(.incorrectZIP, radar: .blockingFailedPostalCodes), .retryPostalCode)
        XCTAssertEqual(CardScenario.expected(.addressChecksFail, radar: .blockingFailedPostalCodes), .retryPostalCode)
        XCTAssertEqual(CardScenario.expected(.incorrectZIP, radar: .permissive), .success)
        XCTAssertEqual(CardScenario.expected(.cvcCheckFails), .success, "Apple Pay sends no CVC")
        XCTAssertEqual(CardScenario.expected(.line1CheckFails), .success)
        XCTAssertEqual(CardScenario.expected(.incorrectNumber), .retryCreation("incorrect_number"))
        XCTAssertEqual(CardScenario.expected(.alwaysAuthenticate), .error("confirmationFailure"))
        XCTAssertEqual(CardScenario.expected(.threeDSecureRequired), .error("confirmationFailure"))
        // "It requires authentication for one-time and other on-session payments."
        XCTAssertEqual(CardScenario.expected(.alreadySetUp), .error("confirmationFailure"))
        XCTAssertEqual(CardScenario.expected(.alreadySetUp, setup: true), .success)
        XCTAssertEqual(CardScenario.expected(.threeDSecureFrictionless), .error("confirmationFailure"))
        // "3DS Required, Error": the lookup fails, "payments are declined with a card_declined
        // failure code"; "3DS Supported, Error": Radar requests no 3-D Secure by default.
        XCTAssertEqual(CardScenario.expected(.threeDSecureLookupError), .error("card_declined"))
        XCTAssertEqual(CardScenario.expected(.authenticateThenDecline), .error("confirmationFailure"))
        XCTAssertEqual(CardScenario.expected(.threeDSecureSupportedError), .success)
        XCTAssertEqual(StripeTestCard.threeDSecure2Required.country, "IE", "3DS Required, OK: Ireland-issued")
        XCTAssertEqual(StripeTestCard.threeDSecure2RequiredUS.country, "US")
        XCTAssertEqual(CardScenario.expected(.highFraudDisputeScore), .success)
        XCTAssertEqual(CardScenario.expected(.captcha), .success)
        XCTAssertEqual(CardScenario.expected(.disputeFraudulent), .success)
        XCTAssertEqual(CardScenario.expected(.refundFails), .success)
        XCTAssertEqual(StripeTestCard.refundPending.afterPayment, "a refund starts pending, then succeeds")
        XCTAssertEqual(StripeTestCard.refundFails.afterPayment, "a refund starts succeeded, then fails")
        XCTAssertNil(StripeTestCard(rawValue: "4000000000003063"), "no longer on the page")
        XCTAssertNil(StripeTestCard(rawValue: "4000000000000093"), "no longer on the page")
        XCTAssertEqual(StripeTestCard.allCases.filter { $0.section == .countries }.count, 63, "Carnet included")
    }

    /// A number names the first card of the page's table that has it (the lookup is a table made
    /// once, not a walk): every card's number, and numbers that are not a card's.
    func testANumberNamesTheFirstCardWithIt() {
        for card in StripeTestCard.allCases {
            let first = StripeTestCard.allCases.first { $0.number == card.number }
            XCTAssertEqual(StripeTestCard(rawValue: card.number), first, card.name)
            XCTAssertEqual(StripeTestCard(rawValue: card.number)?.number, card.number, card.name)
        }
        XCTAssertNil(StripeTestCard(rawValue: ""))
        XCTAssertNil(StripeTestCard(rawValue: "4242 4242 4242 4242"), "spaces are for init(paymentData:)")
        XCTAssertEqual(StripeTestCard(paymentData: "4242 4242 4242 4242")?.number, "4242424242424242")
        // Stripe's test ids for the cards (docs.stripe.com/testing).
        XCTAssertEqual(StripeTestCard(paymentData: "tok_visa"), .success)
        XCTAssertEqual(StripeTestCard(paymentData: "pm_card_visa"), .success)
        XCTAssertEqual(StripeTestCard(paymentData: "pm_card_chargeDeclined"), .genericDecline)
        XCTAssertNil(StripeTestCard(paymentData: "pm_card_unknown"))
    }

    func testRadarRulesAreAnOptionWithStripesDefault() async throws {
        XCTAssertEqual(InMemoryStripeBackend().radar, .stripeDefault)
        XCTAssertFalse(StripeRadarRules.stripeDefault.blocksFailedPostalCodeCheck)
        XCTAssertTrue(StripeRadarRules.stripeDefault.blocksHighestRisk)
        let (allowed, backend) = try await run(.incorrectZIP)
        XCTAssertEqual(allowed, .success, "Stripe's default reports the failed check and charges")
        XCTAssertEqual(backend.intent("pi_000002")?.status, .succeeded)
        let (blocked, _) = try await run(.incorrectZIP, radar: .blockingFailedPostalCodes)
        XCTAssertEqual(blocked, .retryPostalCode)
        let (permitted, _) = try await run(.highestRisk, radar: .permissive)
        XCTAssertEqual(permitted, .success)
    }

    func testBrandFundingAndChecksComeFromTheNumber() async throws {
        let backend = InMemoryStripeBackend()
        func method(_ card: StripeTestCard, network: PaymentNetwork) async throws -> StripePaymentMethod {
            let token = PaymentToken(
                paymentMethod: PaymentMethod(network: network, type: .credit), transactionIdentifier: "tx",
                paymentData: card.number)
            return try await backend.createPaymentMethod(
                from: Payment(token: token, billingContact: nil, shippingContact: nil, shippingMethod: nil))
        }
        let declinedAsMastercard = try await method(.genericDecline, network: .masterCard)
        XCTAssertEqual(declinedAsMastercard.brand, "visa", "the brand comes from the number, not PassKit's network")
        let cases: [(StripeTestCard, String, String)] = [
            (.mastercard, "mastercard", "credit"), (.amex, "amex", "credit"), (.discoverDebit, "discover", "debit"),
            (.diners14, "diners", "credit"), (.jcb, "jcb", "credit"), (.unionPay, "unionpay", "credit"),
            (.mastercardPrepaid, "mastercard", "prepaid"), (.visaDebit, "visa", "debit"),
            (.eftposVisa, "visa", "debit"),
        ]
        for (card, brand, funding) in cases {
            let made = try await method(card, network: .visa)
            XCTAssertEqual(made.card?.brand, brand, "\(card)")
            XCTAssertEqual(made.card?.funding, funding, "\(card)")
            XCTAssertEqual(made.card?.wallet?.type, "apple_pay")
            XCTAssertEqual(made.last4, card.last4)
        }
        let zip = try await method(.incorrectZIP, network: .visa)
        XCTAssertEqual(zip.card?.checks?.addressPostalCodeCheck, "fail")
        do {
            _ = try await method(.incorrectNumber, network: .visa)
            XCTFail("4242424242424241 is refused at creation")
        } catch let error as StripeError {
            XCTAssertEqual(error.code, "incorrect_number")
        }
    }

    func testEveryNumberIsValidAndUnique() {
        let numbers = StripeTestCard.allCases.map(\.number)
        XCTAssertEqual(Set(numbers).count, numbers.count)
        for card in StripeTestCard.allCases where card != .incorrectNumber {
            XCTAssertTrue(StripeCardBrand.passesLuhnCheck(card.number), "\(card)")
            // Carnet alone is none of Stripe's card.brand values.
            XCTAssertEqual(card.brand == "unknown", card == .mexicoCarnet, "\(card)")
        }
        XCTAssertFalse(StripeCardBrand.passesLuhnCheck(StripeTestCard.incorrectNumber.number))
    }

    func testAValidNumberThatIsNoTestCardIsALiveCard() async throws {
        let backend = InMemoryStripeBackend()
        let token = PaymentToken(
            paymentMethod: PaymentMethod(network: .visa, type: .credit), transactionIdentifier: "tx",
            paymentData: "4111111111111111")
        do {
            _ = try await backend.createPaymentMethod(
                from: Payment(token: token, billingContact: nil, shippingContact: nil, shippingMethod: nil))
            XCTFail("not a test card")
        } catch let error as StripeError {
            XCTAssertEqual(error.declineCode, "test_mode_live_card")
        }
    }

    func testANamelessShippingContactSendsNoShipping() async throws {
        let backend = InMemoryStripeBackend()
        let merchant = CardScenario.Merchant {
            try backend.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        }
        var request = CardScenario.request
        request.requiredShippingContactFields = [.postalAddress]
        let context = try PayContext(
            request: request, backend: backend, delegate: merchant, options: FlowOptions(callbackTimeout: nil))
        context.present()
        let token = PaymentToken(
            paymentMethod: PaymentMethod(network: .visa, type: .credit), transactionIdentifier: "tx",
            paymentData: StripeTestCard.success.number)
        var nameless = CardScenario.home
        nameless.name = nil
        _ = try await context.selectShippingContactAndWait(nameless)
        let sheet = try await context.authorizeAndWait(token)
        XCTAssertEqual(sheet.status, .success)
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(backend.confirmCount, 1)
        XCTAssertNil(backend.lastConfirmShipping(for: "pi_000002"), "Stripe refuses shipping without a name")
    }
}
