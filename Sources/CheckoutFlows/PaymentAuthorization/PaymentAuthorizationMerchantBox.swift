/// A completion-handler merchant of type `Merchant`, as a ``PaymentAuthorizationFlow`` holds it
/// (see ``CompletionsMerchantBox``).
package final class PaymentAuthorizationMerchantBox<Merchant: PaymentAuthorizationDelegate>:
    CompletionsMerchantBox<PaymentAuthorizationFlow>, @unchecked Sendable
{
    // Unchecked: a `Sendable` merchant in a `let`.
    let merchant: Merchant

    package init(_ merchant: Merchant) { self.merchant = merchant }

    override package func perform(_ call: PaymentAuthorizationFlow.Machine.Call, of flow: PaymentAuthorizationFlow) {
        flow.perform(call, completions: merchant)
    }
}
