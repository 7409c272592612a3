/// A merchant behind its protocol's existential, in a box: the ``MerchantHold`` stays one word,
/// and the flow calls the merchant where the box keeps it (read in place, not copied out).
@usableFromInline
package final class MerchantBox<Merchant: Sendable>: Sendable {
    @usableFromInline package let merchant: Merchant

    @inlinable package init(_ merchant: Merchant) { self.merchant = merchant }
}

/// A completion-handler merchant in a box typed by its own type, a subclass per flow
/// (`PaymentAuthorizationMerchantBox<Merchant>`), which calls the flow's `perform(_:completions:)`
/// generic over that type: a class merchant's box is then one reference of its own size, where
/// the protocol's existential takes 40 bytes (see BENCHMARKS.md, a parked session's bytes).
@usableFromInline
package class CompletionsMerchantBox<Shell: FlowShell>: @unchecked Sendable {
    // Unchecked: abstract; its subclasses hold a `Sendable` merchant in a `let`.

    /// Performs `call` of `shell` on the merchant.
    package func perform(_ call: Shell.Machine.Call, of shell: Shell) {
        preconditionFailure("CompletionsMerchantBox is abstract")
    }
}
