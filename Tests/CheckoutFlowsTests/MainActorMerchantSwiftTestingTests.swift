import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import Testing

/// A `@MainActor` merchant under Swift Testing (spec E10): a `@MainActor` suite's tests run on the
/// main actor and give it back while they await, so the flow's calls run there in between.
@Suite @MainActor struct MainActorMerchantSwiftTestingTests {
    private typealias F = FlowsFixture
    private typealias S = IsolatedSessions

    @Test func anAuthorizationSessionCallsTheMerchantOnTheMainActor() async throws {
        let merchant = MainActorMerchant()
        let flow = try PaymentAuthorizationFlow(request: F.request(), delegate: merchant, options: S.options())
        let outcome = try await S.authorization(flow)
        #expect(outcome.description == "success")
        #expect(merchant.calls == S.authorizationCalls)
        #expect(merchant.overlaps == 0)
    }
}
