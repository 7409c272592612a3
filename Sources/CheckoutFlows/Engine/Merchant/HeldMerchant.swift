/// What a runner holds its merchant as (a ``HeldMerchant``): it keeps the merchant from the flow's
/// making until the terminal call has returned (spec E5), then lets go of it, once.
@usableFromInline
package protocol MerchantHold: Sendable {
    /// Lets go of the merchant: after the terminal call, or when a flow that never made it is freed.
    func release()
    /// The merchant's box, kept alive for as long as the caller keeps this: for a use of the
    /// merchant outside the runner's lock, where the drainer may let go of it meanwhile.
    var retained: AnyObject { get }
}

/// A flow's merchant, as its runner holds it: one that answers through completion handlers or one
/// whose methods are `async`, each in its box, through a ``MerchantReference`` (the flows'
/// `perform` switches on the two forms).
@usableFromInline
package enum HeldMerchant<Completions: AnyObject & Sendable, Async: AnyObject & Sendable>: MerchantHold {
    case completions(MerchantReference<Completions>)
    case async(MerchantReference<Async>)

    /// Holds a completion-handler merchant's box until ``release()``.
    @inlinable package init(completions box: Completions) { self = .completions(MerchantReference(box)) }

    /// Holds an async merchant's box until ``release()``.
    @inlinable package init(async box: Async) { self = .async(MerchantReference(box)) }

    /// Whether the merchant's methods are `async` (its flow tracks the tasks that call them).
    @inlinable var isAsync: Bool {
        if case .async = self { return true }
        return false
    }

    @inlinable package func release() {
        switch self {
        case .completions(let reference): reference.release()
        case .async(let reference): reference.release()
        }
    }

    @inlinable package var retained: AnyObject {
        switch self {
        case .completions(let reference): reference.retained
        case .async(let reference): reference.retained
        }
    }
}

/// A merchant's box, held with one retain of its own, unmanaged: copying the reference costs no
/// reference count, and nothing lets go of the box but ``release()``. The draining thread calls
/// the merchant through it, borrowed (the runner's hold outlives every call it makes). Held
/// strongly instead, the round trip cost 11.7 % more (BENCHMARKS.md, plain parts).
@usableFromInline
package struct MerchantReference<Box: AnyObject & Sendable>: @unchecked Sendable {
    // Unchecked: an unmanaged reference to a `Sendable` box.
    @usableFromInline let box: Unmanaged<Box>

    /// Holds `box` until ``release()``.
    @inlinable package init(_ box: Box) { self.box = .passRetained(box) }

    /// Calls `body` with the box, borrowed. Only while the hold is kept: on the draining thread,
    /// or with ``retained`` kept.
    @inlinable @inline(__always)
    package func withBox<Result>(_ body: (Box) -> Result) -> Result {
        box._withUnsafeGuaranteedRef(body)
    }

    /// The box itself, a reference that keeps it alive on its own (for a task that calls it later).
    @inlinable package var strong: Box { box.takeUnretainedValue() }

    @inlinable package func release() { box.release() }

    @inlinable package var retained: AnyObject { box.takeUnretainedValue() }
}

/// A merchant behind its protocol's existential, in a box: the held merchant stays one reference,
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
