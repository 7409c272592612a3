import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import Foundation
import XCTest

// The code of README.md, compiled and run. `testReadmeShowsThisCode` checks that every Swift
// block of the README appears here line for line, so the README cannot rot.

// README: shipping delegate
final class ShipOnlyToTheUS: ShippingAddressDelegate {
    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {
        print("customer cancelled")
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didEnter address: Contact,
        completion: @escaping @Sendable (ShippingAddressValidation) -> Void
    ) {
        guard address.postalAddress?.country?.code == "US" else {
            completion(.invalid(message: "We ship to the US only"))
            return
        }
        let ground = ShippingMethod(identifier: "ground", label: "Ground", amount: .zero(.usd))
        let express = ShippingMethod(
            identifier: "express",
            label: "Express",
            amount: Money(minorUnits: 1_500, currency: .usd)
        )
        completion(.valid(shippingMethods: [ground, express], selected: nil))
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didFinishWith address: Contact,
        shippingMethod: ShippingMethod?
    ) {
        print("ship to \(address) by \(shippingMethod?.label ?? "any method")")
    }
}

// README: authorization delegate
final class Shop: PaymentAuthorizationDelegate {
    let items = [
        SummaryItem(label: "Tea", amount: Money(minorUnits: 1_200, currency: .usd)),
        SummaryItem(label: "Shipping", amount: Money(minorUnits: 500, currency: .usd)),
        SummaryItem(label: "Tea Shop", amount: Money(minorUnits: 1_700, currency: .usd)),
    ]

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        // The contact is redacted: city, state, country and a short postal code only.
        if contact.postalAddress?.state == "AK" {
            let error = PaymentError.shippingAddressUnserviceable("We do not ship to Alaska")
            handler(ShippingContactUpdate(errors: [error], summaryItems: items))
        } else {
            handler(ShippingContactUpdate(summaryItems: items))
        }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        // Charge payment.token with your processor, then:
        handler(.success)
    }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {
        print("sheet dismissed: \(flow.outcome.map { "\($0)" } ?? "")")
    }
}

// README: pay-context delegate
final class TeaCheckout: PayContextDelegate {
    let stripe: InMemoryStripeBackend  // your server talks to Stripe; here, Stripe's test mode in memory

    init(stripe: InMemoryStripeBackend) { self.stripe = stripe }

    func payContext(
        _ context: PayContext,
        didCreatePaymentMethod paymentMethod: StripePaymentMethod,
        paymentInformation: Payment,
        completion: @escaping @Sendable (IntentAnswer) -> Void
    ) {
        do {
            let secret = try stripe.createPaymentIntent(amount: Money(minorUnits: 1_700, currency: .usd))
            completion(.secret(secret))
        } catch {
            completion(.failure(error))
        }
    }

    func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {
        print("payment ended: \(status)", error.map { "\($0)" } ?? "")
    }
}

final class ReadmeExamples: XCTestCase {
    func testCoreTour() throws {
        // README: core tour
        let price = try Money("12.50", currency: .usd)
        let total = try price + Money(minorUnits: 499, currency: .usd)
        print(total.amountString)  // 17.49
        print(try total.stripeAmount())  // 1749
        let dinar = try Money("1.250", currency: CurrencyCode("kwd"))
        print(dinar.minorUnits)  // 1250
        let secret = try IntentClientSecret("pi_3Mt_secret_abc")
        print(secret.intentID, secret)  // pi_3Mt pi_3Mt_secret_•••
        let home = Contact(
            name: "Ada Lovelace",
            postalAddress: Address(
                line1: "10 Downing St",
                city: "London",
                postalCode: "SW1A 2AA",
                country: try CountryCode("GB")
            )
        )
        print(home.redactedForShipping())  // RedactedContact(address: London, SW1A, GB)
        // README: end

        XCTAssertEqual(total.amountString, "17.49")
        XCTAssertEqual(try total.stripeAmount(), 1_749)
        XCTAssertEqual(dinar.minorUnits, 1_250)
        XCTAssertEqual(secret.intentID, "pi_3Mt")
        XCTAssertFalse(secret.description.contains("abc"))
        XCTAssertEqual(home.redactedForShipping().description, "RedactedContact(address: London, SW1A, GB)")
    }

    func testShippingSession() throws {
        // README: shipping session
        let flow = try ShippingAddressFlow(
            configuration: ShippingAddressConfiguration(requiredShippingAddressFields: [
                .name, .postalAddress,
            ]),
            delegate: ShipOnlyToTheUS()
        )
        flow.present()
        let address = Address(
            line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701",
            country: try CountryCode("US"))
        flow.enterAddress(Contact(name: "Grace Hopper", postalAddress: address))
        flow.selectShippingMethod("express")
        flow.done()
        print(flow.outcome!)  // finished(method: express)
        print(flow.transcript.text())
        // README: end

        XCTAssertEqual(flow.outcome?.description, "finished(method: express)")
        XCTAssertEqual(flow.transcript.delegateCalls, ["didEnterAddress", "didFinish"])
        XCTAssertFalse(flow.transcript.text().contains("Grace"))
    }

    func testAuthorizationSession() async throws {
        // README: authorization session
        let request = PaymentRequest(
            merchantIdentifier: "merchant.com.example.tea",
            countryCode: "US",
            currencyCode: "USD",
            requiredShippingContactFields: [.postalAddress],
            summaryItems: Shop().items
        )
        let flow = try PaymentAuthorizationFlow(request: request, delegate: Shop())
        flow.present()
        let home = Contact(
            postalAddress: Address(
                line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701",
                country: try CountryCode("US"))
        )
        let update = try await flow.selectShippingContactAndWait(home)
        print(update.summaryItems.last!.amount)  // 17.00 USD
        let card = PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit)
        let token = PaymentToken(paymentMethod: card, transactionIdentifier: "tx-1", paymentData: "tok_visa")
        let result = try await flow.authorizeAndWait(token)
        print(result.status)  // success
        print(await flow.waitUntilEnded())  // authorized
        // README: end

        XCTAssertEqual(update.summaryItems.last?.amount.amountString, "17.00")
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(flow.outcome?.description, "success")
        XCTAssertEqual(
            flow.transcript.delegateCalls,
            ["didSelectShippingContact", "willAuthorizePayment", "didAuthorizePayment", "didFinish"]
        )
    }

    func testPayContextSession() async throws {
        // README: pay-context session
        let request = PaymentRequest(
            merchantIdentifier: "merchant.com.example.tea",
            countryCode: "US",
            currencyCode: "USD",
            summaryItems: [SummaryItem(label: "Tea Shop", amount: Money(minorUnits: 1_700, currency: .usd))]
        )
        let stripe = InMemoryStripeBackend()
        let context = try PayContext(request: request, backend: stripe, delegate: TeaCheckout(stripe: stripe))
        context.present()
        let card = PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit)
        let token = PaymentToken(paymentMethod: card, transactionIdentifier: "tx-1", paymentData: "4242 4242 4242 4242")
        let result = try await context.authorizeAndWait(token)
        print(result.status)  // success
        let outcome = await context.waitUntilEnded()
        print(outcome.status, stripe.confirmCount)  // success 1
        // README: end

        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(stripe.confirmCount, 1)
    }

    func testTestingExample() throws {
        // README: testing example
        let flow = try ShippingAddressFlow(
            configuration: ShippingAddressConfiguration(),
            delegate: ShipOnlyToTheUS(),
            options: .testing()  // virtual time, strict mode: a contract violation fails the test
        )
        flow.present()
        let paris = Address(
            line1: "1 Rue de Rivoli", city: "Paris", postalCode: "75001", country: try CountryCode("FR"))
        flow.enterAddress(Contact(postalAddress: paris))
        XCTAssertEqual(flow.step, .address(error: "We ship to the US only"))
        flow.cancel()
        assertDelegateCalls(flow.transcript, ["didEnterAddress", "didCancel"])
        assertNoViolations(flow)
        // README: end

        XCTAssertEqual(flow.outcome, .cancelled)
    }

    /// Every ```swift block of README.md appears in this file, line for line (indentation aside).
    func testReadmeShowsThisCode() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        XCTAssertGreaterThanOrEqual(blocks.count, 7, "README lost its examples")
        for block in blocks {
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
            guard let first = lines.first, first != "// Package.swift" else { continue }
            let found = sourceLines.indices.contains { start in
                sourceLines[start] == first
                    && Array(sourceLines[start...].filter { !$0.isEmpty }.prefix(lines.count)) == lines
            }
            XCTAssertTrue(found, "README block starting with \(first) is not in ReadmeExamples.swift")
        }
    }
}
