import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripe
import Foundation
import XCTest

/// One pay-context scenario for one test card, the same on every backend: the customer selects
/// a contact and authorizes with the card; the merchant creates an intent with `makeIntent`; the
/// outcome is reduced to what a backend-independent comparison needs.
enum CardScenario {
    /// How a payment with a card ended.
    enum Result: Equatable, CustomStringConvertible {
        /// `didComplete(.success)`.
        case success
        /// The sheet stayed with a billing postal-code error for a retry (spec P4).
        case retryPostalCode
        /// The sheet stayed with a failure after payment-method creation failed (spec P3).
        case retryCreation(String)
        /// `didComplete(.error)`: Stripe's decline code, else its code, else the pay context's.
        case error(String)

        var description: String {
            switch self {
            case .success: "success"
            case .retryPostalCode: "retry(incorrect_zip)"
            case .retryCreation(let code): "retry(\(code))"
            case .error(let code): "error(\(code))"
            }
        }
    }

    /// What the page says a payment with `card` ends as in the pay context on an account with
    /// `radar`, for a PaymentIntent or (`setup`) a SetupIntent.
    static func expected(_ card: StripeTestCard, setup: Bool = false, radar: StripeRadarRules = .stripeDefault)
        -> Result
    {
        if let error = card.creationError { return .retryCreation(error.code ?? error.type) }
        switch card.outcome(setup: setup, radar: radar) {
        case .succeeds: return .success
        case .requiresAction: return .error(PayContextError.Code.confirmationFailure.rawValue)
        case .declines(let error) where error.code == "incorrect_zip": return .retryPostalCode
        case .declines(let error): return .error(error.declineCode ?? error.code ?? error.type)
        }
    }

    static let request = PaymentRequest(
        merchantIdentifier: "merchant.com.example",
        countryCode: "US",
        currencyCode: "USD",
        summaryItems: [SummaryItem(label: "Tea Shop", amount: Money(minorUnits: 1_000, currency: .usd))]
    )

    static let home = Contact(
        name: "Grace Hopper",
        postalAddress: Address(line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701", country: .us)
    )

    /// Runs the scenario; a failure result on the sheet is the end of it (the customer cancels).
    static func run(
        _ card: StripeTestCard,
        backend: any PaymentBackend,
        makeIntent: @escaping @Sendable () async throws -> IntentClientSecret
    ) async throws -> (Result, PayContextOutcome) {
        let merchant = Merchant(makeIntent: makeIntent)
        let context = try PayContext(
            request: request, backend: backend, delegate: merchant, options: FlowOptions(callbackTimeout: nil))
        context.present()
        let token = PaymentToken(
            paymentMethod: PaymentMethod(displayName: card.name, network: .visa, type: .credit),
            transactionIdentifier: "tx-\(card.last4)",
            paymentData: card.number
        )
        let sheet: PaymentAuthorizationResult
        do {
            sheet = try await context.authorizeAndWait(token)
        } catch {
            return (result(await context.waitUntilEnded()), await context.waitUntilEnded())
        }
        guard sheet.status == .success else {
            // A failure the customer may retry leaves the sheet up; any other ends the payment.
            await context.waitUntilIdle()
            if case .refused = context.cancel() {
                let outcome = await context.waitUntilEnded()
                return (result(outcome), outcome)
            }
            let outcome = await context.waitUntilEnded()
            let retry: Result =
                sheet.errors.contains { $0.code == .billingContactInvalid }
                ? .retryPostalCode : .retryCreation(stripeCode(in: sheet) ?? "\(sheet.errors)")
            return (retry, outcome)
        }
        let outcome = await context.waitUntilEnded()
        return (result(outcome), outcome)
    }

    private static func stripeCode(in sheet: PaymentAuthorizationResult) -> String? {
        for error in sheet.errors {
            for code in ["incorrect_number", "test_mode_live_card", "card_declined"]
            where error.message.contains(code) || "\(error)".contains(code) {
                return code
            }
        }
        return nil
    }

    private static func result(_ outcome: PayContextOutcome) -> Result {
        switch outcome.status {
        case .success: return .success
        case .userCancellation: return .error("userCancellation")
        case .error:
            if let stripe = outcome.error as? StripeError {
                return .error(stripe.declineCode ?? stripe.code ?? stripe.type)
            }
            if let context = outcome.error as? PayContextError { return .error(context.code.rawValue) }
            return .error("\(outcome.error.map { "\($0)" } ?? "nil")")
        }
    }

    /// A merchant that creates an intent for every payment method.
    final class Merchant: PayContextDelegate {
        let makeIntent: @Sendable () async throws -> IntentClientSecret

        init(makeIntent: @escaping @Sendable () async throws -> IntentClientSecret) { self.makeIntent = makeIntent }

        func payContext(
            _ context: PayContext,
            didCreatePaymentMethod paymentMethod: StripePaymentMethod,
            paymentInformation: Payment,
            completion: @escaping @Sendable (IntentAnswer) -> Void
        ) {
            let makeIntent = self.makeIntent
            Task {
                do {
                    completion(.secret(try await makeIntent()))
                } catch {
                    completion(.failure(error))
                }
            }
        }

        func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {}
    }
}
