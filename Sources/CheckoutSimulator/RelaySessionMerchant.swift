import CheckoutCore
import CheckoutFlows
import CheckoutStripeBackends
import CheckoutWebRelay

extension RelayScript {
    /// The request each relayed session of the scenario opens with.
    package var sessionRequest: PaymentRequest { request }

    /// The merchant one relayed session of the scenario gets, as `checkout-sim relay` gives it:
    /// the scenario's ``ScenarioMerchant`` on its own in-memory Stripe backend, with the simulated
    /// merchant validation, on `clock` (the script's virtual one: time moves only when it is
    /// advanced). A live server (the Chromium harness) opens its
    /// sessions with it, so that its recordings replay the same through `checkout-sim relay`.
    package func sessionMerchant(clock: ManualClock) -> RelayMerchant {
        let merchant = ScenarioMerchant(
            spec: scenario.merchant, request: request, clock: clock, backend: .memory(InMemoryStripeBackend()))
        return Self.relayMerchant(merchant, flow: scenario.flow, request: request, clock: clock)
    }

    /// `merchant` behind a relay: a pay context's forwarding delegate and backend, or a payment
    /// authorization delegate, each with the simulated merchant validation.
    static func relayMerchant(
        _ merchant: ScenarioMerchant, flow: Scenario.Flow, request: PaymentRequest, clock: ManualClock
    ) -> RelayMerchant {
        let validator = SimulatedMerchantValidator(merchantIdentifier: request.merchantIdentifier, clock: clock)
        switch flow {
        case .payContext:
            return .payContext(delegate: merchant, backend: merchant.backend.payment, validator: validator)
        case .paymentAuthorization, .shippingAddress:
            return .authorization(delegate: merchant, validator: validator)
        }
    }
}
