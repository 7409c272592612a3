/// A completion-handler merchant of type `Merchant`, as a ``ShippingAddressFlow`` holds it (see
/// ``CompletionsMerchantBox``).
package final class ShippingAddressMerchantBox<Merchant: ShippingAddressDelegate>:
    CompletionsMerchantBox<ShippingAddressFlow>, @unchecked Sendable
{
    // Unchecked: a `Sendable` merchant in a `let`.
    let merchant: Merchant

    package init(_ merchant: Merchant) { self.merchant = merchant }

    override package func perform(_ call: ShippingAddressFlow.Machine.Call, of flow: ShippingAddressFlow) {
        flow.perform(call, completions: merchant)
    }
}
