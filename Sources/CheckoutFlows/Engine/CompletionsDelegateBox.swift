/// A completion-handler merchant, as a flow holds it: in a box typed by the merchant's own type (a
/// subclass per flow, `PaymentAuthorizationDelegateBox<Merchant>`), which holds it in its
/// own size and calls it where it holds it, through the flow's `perform(_:completions:)`, generic
/// over the merchant's type.
///
/// (In a ``HeldDelegate`` of the protocol's existential, a flow kept 40 bytes for any merchant, a
/// class's one reference included: 64 bytes with the box, where a class merchant's own box takes
/// 32. Issue 16: a parked session's bytes.)
package class CompletionsDelegateBox<Shell: FlowShell>: @unchecked Sendable {
    // Unchecked: abstract; its subclasses hold a `Sendable` merchant in a `let`.

    /// Performs `call` of `shell` on the merchant, borrowed where the box holds it.
    package func perform(_ call: Shell.Machine.Call, of shell: Shell) {
        preconditionFailure("CompletionsDelegateBox is abstract")
    }
}
