/// The merchant a flow's runner holds: its box (a ``MerchantBox``, or a flow's subclass of
/// ``CompletionsMerchantBox``), kept from the flow's making until the terminal call has returned
/// (spec E5), then let go of, once, by ``release()``.
///
/// The box is held with one retain of its own, unmanaged: copying the hold costs no reference
/// count, and nothing lets go of the box but ``release()``. The draining thread calls the merchant
/// through it, borrowed (the runner's hold outlives every call it makes). Held strongly instead,
/// the round trip cost 11.7 % more (BENCHMARKS.md, plain parts). The hold is one word: the box's
/// type is the flow's to know, and it reads the box as that type (``borrow(as:_:)``).
@usableFromInline
package enum MerchantHold: @unchecked Sendable {
    // Unchecked: an unmanaged reference to a `Sendable` box.
    /// A merchant that answers through completion handlers.
    case completions(Unmanaged<AnyObject>)
    /// A merchant whose methods are `async` (its flow tracks the tasks that call them).
    case async(Unmanaged<AnyObject>)

    /// Holds a completion-handler merchant's box until ``release()``.
    @inlinable package init(completions box: some AnyObject & Sendable) {
        self = .completions(.passRetained(box))
    }

    /// Holds an async merchant's box until ``release()``.
    @inlinable package init(async box: some AnyObject & Sendable) {
        self = .async(.passRetained(box))
    }

    /// Whether the merchant's methods are `async`.
    @inlinable package var isAsync: Bool {
        if case .async = self { return true }
        return false
    }

    @inlinable var box: Unmanaged<AnyObject> {
        switch self {
        case .completions(let box), .async(let box): box
        }
    }

    /// Calls `body` with the box, borrowed, as the `Box` it was held as. Only while the hold is
    /// kept: on the draining thread, or with a ``strong(as:)`` reference kept.
    @inlinable @inline(__always)
    package func borrow<Box: AnyObject, Result>(as type: Box.Type, _ body: (Box) -> Result) -> Result {
        box._withUnsafeGuaranteedRef { body(unsafeDowncast($0, to: Box.self)) }
    }

    /// The box, as the `Box` it was held as: a reference that keeps it alive on its own (for a task
    /// that calls the merchant later, or a use outside the runner's lock, where the drainer may let
    /// go of the hold meanwhile).
    @inlinable package func strong<Box: AnyObject>(as type: Box.Type) -> Box {
        unsafeDowncast(box.takeUnretainedValue(), to: Box.self)
    }

    /// Lets go of the merchant: after the terminal call, or when a flow that never made it is freed.
    @inlinable package func release() { box.release() }
}
