import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import CheckoutTesting
import XCTest

/// Whole sessions of every flow, the same for each kind of isolated merchant (spec E10): the
/// customer's steps, and the answers every isolated merchant of these tests gives
/// (``IsolatedAnswers``). Each returns the flow's outcome once its terminal call has returned.
enum IsolatedSessions {
    private typealias F = FlowsFixture

    /// The merchant's calls of a whole shipping-address session, in order.
    static let shippingCalls = ["didEnterAddress", "didFinish"]
    /// The merchant's calls of a whole authorization session, in order.
    static let authorizationCalls = [
        "didSelectShippingContact", "didSelectShippingMethod", "willAuthorizePayment", "didAuthorizePayment",
        "didFinish",
    ]
    /// The merchant's calls of a whole pay-context session, in order.
    static let payContextCalls = ["didSelectShippingContact", "didCreatePaymentMethod", "willComplete", "didComplete"]

    /// Enters an address (the merchant offers two methods), picks express, and finishes (spec S3, S4).
    static func shipping(_ flow: ShippingAddressFlow) async throws -> ShippingAddressOutcome {
        XCTAssertEqual(flow.present(), .accepted)
        let validation = try await flow.enterAddressAndWait(F.jane())
        XCTAssertEqual(validation, IsolatedAnswers.validation)
        XCTAssertEqual(flow.selectShippingMethod("express"), .accepted)
        return try await flow.doneAndWait()
    }

    /// Selects a contact and a method (each answered with a new total) and authorizes (spec A2-A8).
    static func authorization(_ flow: PaymentAuthorizationFlow) async throws -> PaymentAuthorizationOutcome {
        XCTAssertEqual(flow.present(), .accepted)
        let contact = try await flow.selectShippingContactAndWait(F.jane())
        XCTAssertEqual(contact.summaryItems, IsolatedAnswers.contactSummary)
        let method = try await flow.selectShippingMethodAndWait("express")
        XCTAssertEqual(method.summaryItems, IsolatedAnswers.methodSummary)
        let result = try await flow.authorizeAndWait(F.token())
        XCTAssertEqual(result.status, .success)
        return await flow.waitUntilEnded()
    }

    /// Selects a contact and authorizes; the merchant's intent is confirmed by the backend (spec P2-P6).
    static func payContext(_ context: PayContext) async throws -> PayContextOutcome {
        XCTAssertEqual(context.present(), .accepted)
        let contact = try await context.selectShippingContactAndWait(F.jane())
        XCTAssertEqual(contact.summaryItems, IsolatedAnswers.contactSummary)
        XCTAssertEqual(context.authorize(F.token()), .accepted)
        return await context.waitUntilEnded()
    }

    /// A backend with a PaymentIntent for the pay context's merchant to answer with.
    static func backend() throws -> (InMemoryStripeBackend, IntentClientSecret) {
        let backend = InMemoryStripeBackend()
        return (backend, try backend.createPaymentIntent(amount: F.money("20.00")))
    }

    /// Strict options on `clock`: any violation or default answer fails the test.
    static func options(_ clock: ManualClock = ManualClock()) -> FlowOptions { .testing(clock: clock) }
}

/// What every isolated merchant of these tests answers.
enum IsolatedAnswers {
    private typealias F = FlowsFixture

    static let validation = ShippingAddressValidation.valid(
        shippingMethods: [F.standard, F.express], selected: F.standard)
    static let contactSummary = F.summary("21.00")
    static let methodSummary = F.summary("22.00")
}
