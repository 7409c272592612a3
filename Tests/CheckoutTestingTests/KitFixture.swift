import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import CheckoutTesting

/// Shared values of the kit's tests (both frameworks).
enum KitFixture {
    static func money(_ text: String) -> Money {
        try! Money(text, currency: .usd)
    }

    /// A complete US contact.
    static func jane() -> Contact {
        Contact(
            name: "Jane Appleseed",
            emailAddress: "jane@example.com",
            phoneNumber: "+1 408 555 0100",
            postalAddress: Address(
                line1: "1 Infinite Loop",
                city: "Cupertino",
                state: "CA",
                postalCode: "95014-2083",
                country: try! CountryCode("US")
            )
        )
    }

    /// Another complete US contact.
    static func john() -> Contact {
        Contact(
            name: "John Doe",
            postalAddress: Address(
                line1: "350 Fifth Avenue",
                city: "New York",
                state: "NY",
                postalCode: "10118",
                country: try! CountryCode("US")
            )
        )
    }

    /// A British contact (for an answer that depends on the country).
    static func sherlock() -> Contact {
        Contact(
            name: "Sherlock Holmes",
            postalAddress: Address(
                line1: "221B Baker Street",
                city: "London",
                postalCode: "NW1 6XE",
                country: try! CountryCode("GB")
            )
        )
    }

    static let standard = ShippingMethod(identifier: "standard", label: "Standard", amount: money("0.00"))
    static let express = ShippingMethod(identifier: "express", label: "Express", amount: money("9.99"))

    /// A subtotal and a grand total of `total`.
    static func summary(_ total: String) -> [SummaryItem] {
        [
            SummaryItem(label: "Subtotal", amount: money(total)),
            SummaryItem(label: "Example Shop", amount: money(total)),
        ]
    }

    static func request(supportsCouponCode: Bool = false) -> PaymentRequest {
        PaymentRequest(
            merchantIdentifier: "merchant.com.example",
            countryCode: "US",
            currencyCode: "USD",
            requiredShippingContactFields: [.postalAddress],
            shippingMethods: [standard, express],
            summaryItems: summary("20.00"),
            supportsCouponCode: supportsCouponCode
        )
    }

    static let visa = PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit)
    static let amex = PaymentMethod(displayName: "Amex 0005", network: .amex, type: .credit)

    static func token(_ method: PaymentMethod = visa) -> PaymentToken {
        PaymentToken(paymentMethod: method, transactionIdentifier: "txn-1", paymentData: "tok_visa")
    }

    /// A token whose payment data is one of Stripe's test cards.
    static func card(_ card: StripeTestCard) -> PaymentToken {
        PaymentToken(paymentMethod: visa, transactionIdentifier: "tx", paymentData: card.rawValue)
    }

    /// Options without strict mode that collect the violations into `sink`.
    static func options(_ clock: ManualClock, sink: ViolationSink) -> FlowOptions {
        FlowOptions(clock: clock, onViolation: { sink.append($0) })
    }

    /// Collects the violations a flow reports through `FlowOptions.onViolation`, in order.
    final class ViolationSink: Sendable {
        private let received = LockedValue<[Violation]>([])

        func append(_ violation: Violation) {
            received.withLock { $0.append(violation) }
        }

        var violations: [Violation] { received.withLock { $0 } }
    }

    /// A backend that holds confirmations until the test releases them.
    final class HeldConfirmBackend: PaymentBackend {
        private struct Gate {
            var released = false
            var waiting: [CheckedContinuation<Void, Never>] = []
        }

        let inner: InMemoryStripeBackend
        private let gate = LockedValue(Gate())

        init(_ inner: InMemoryStripeBackend) { self.inner = inner }

        /// Lets every held confirmation, and every later one, through.
        func release() {
            let waiting = gate.withLock { gate in
                gate.released = true
                defer { gate.waiting = [] }
                return gate.waiting
            }
            for continuation in waiting { continuation.resume() }
        }

        func createPaymentMethod(from payment: Payment) async throws -> StripePaymentMethod {
            try await inner.createPaymentMethod(from: payment)
        }

        func retrieveIntent(_ secret: IntentClientSecret) async throws -> StripeIntent {
            try await inner.retrieveIntent(secret)
        }

        func confirmIntent(_ secret: IntentClientSecret, paymentMethodID: String, shipping: ShippingDetails?)
            async throws -> StripeIntent
        {
            await withCheckedContinuation { continuation in
                let go = gate.withLock { gate in
                    if gate.released { return true }
                    gate.waiting.append(continuation)
                    return false
                }
                if go { continuation.resume() }
            }
            return try await inner.confirmIntent(secret, paymentMethodID: paymentMethodID, shipping: shipping)
        }
    }

    /// A recording delegate whose trace shows a call that never returned.
    final class UnfinishedTrace: RecordingDelegate {
        var calls: [RecordedCall] { [RecordedCall(method: "didEnterAddress")] }
        var trace: [String] { [">didEnterAddress"] }
        func wait(for method: String, times: Int, timeout: Duration) async -> Bool { false }
    }

    /// An async authorization merchant that authorizes with success and answers the shipping
    /// contact and method with what its closures make (by default, the protocol's defaults).
    struct AsyncAuthorizationMerchant: AsyncPaymentAuthorizationDelegate {
        var contact: @Sendable (PaymentAuthorizationFlow) async -> ShippingContactUpdate = {
            $0.defaultShippingContactUpdate()
        }
        var method: @Sendable (PaymentAuthorizationFlow) async -> ShippingMethodUpdate = {
            $0.defaultShippingMethodUpdate()
        }

        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}

        func paymentAuthorizationFlow(_ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment) async
            -> PaymentAuthorizationResult
        {
            .success
        }

        func paymentAuthorizationFlow(_ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact)
            async -> ShippingContactUpdate
        {
            await self.contact(flow)
        }

        func paymentAuthorizationFlow(_ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod)
            async -> ShippingMethodUpdate
        {
            await self.method(flow)
        }
    }
}
