import Synchronization

/// A merchant's delegate, held in a box of its own, as a flow's delegate enum carries it (one
/// case for completion handlers, one for `async`), through a ``DelegateHold``.
///
/// The box makes the enum one reference, held inline in the runner's state, and lets a flow call
/// the delegate where the box holds it: a `let` of a class is read in place, where binding an
/// existential out of an enum (or an `indirect` case) copied it, through its value witnesses, on
/// every delegate call.
package final class HeldDelegate<Value: Sendable>: HoldsDelegate {
    package let delegate: Value

    package init(_ delegate: Value) { self.delegate = delegate }
}

/// A box that holds a delegate, as its ``delegate``, in a `let` (read in place).
package protocol HoldsDelegate: AnyObject, Sendable {
    associatedtype Value
    var delegate: Value { get }
}

/// A flow's delegate enum, as its runner holds it: the runner keeps the delegate's box alive from
/// the flow's making until the terminal call has returned (spec E5), with one retain of its own,
/// and the draining thread calls the delegate borrowed, without a reference count of its own (the
/// runner's hold outlives every call it makes). (Held strongly, the enum was retained and released
/// around every delegate call: about 30 instructions a round trip, issue 16.)
package protocol FlowDelegate: Sendable {
    /// Gives back the runner's hold, once: after the terminal call, or when a flow that never
    /// made it is freed.
    func release()
    /// The delegate's box, retained for as long as the caller keeps it: for a use of the delegate
    /// outside the runner's lock, where the drainer may give back its hold meanwhile.
    var retained: AnyObject { get }
}

/// A delegate's box, held with one retain of its own (see ``FlowDelegate``): copying it costs
/// nothing, and nothing releases it but ``release()``. The box is a ``HeldDelegate``, or a box
/// typed by the merchant's own type (``CompletionsDelegateBox``).
package struct DelegateHold<Box: AnyObject & Sendable>: @unchecked Sendable {
    // Unchecked: an unmanaged reference to a `Sendable` box.
    private let box: Unmanaged<Box>

    /// Holds `box` until ``release()``.
    package init(box: Box) { self.box = .passRetained(box) }

    /// Calls `body` with the box, borrowed. Only while the hold is kept: on the draining thread,
    /// or with ``retained`` kept.
    @inline(__always)
    package func withBox<Result>(_ body: (Box) -> Result) -> Result {
        box._withUnsafeGuaranteedRef(body)
    }

    package func release() { box.release() }

    package var retained: AnyObject { box.takeUnretainedValue() }
}

extension DelegateHold where Box: HoldsDelegate {
    /// Holds `delegate`, in a new box, until ``release()``.
    package init<Value>(_ delegate: Value) where Box == HeldDelegate<Value> { self.init(box: HeldDelegate(delegate)) }

    /// Calls `body` with the delegate, borrowed where its box holds it. Only while the hold is
    /// kept: on the draining thread, or with ``retained`` kept.
    @inline(__always)
    package func call<Result>(_ body: (Box.Value) -> Result) -> Result {
        withBox { body($0.delegate) }
    }

    /// The delegate itself, a copy that keeps it alive on its own (for a task that calls it later).
    package var delegate: Box.Value { box.takeUnretainedValue().delegate }
}

/// A flow's delegate: one that answers through completion handlers, or one whose methods are
/// `async`, each in its box: a ``HeldDelegate`` of the delegate protocol's existential, or a box
/// typed by the merchant's own type (``CompletionsDelegateBox``). Each flow names its two boxes
/// (`FlowDelegates<CompletionsDelegateBox<PaymentAuthorizationFlow>,
/// HeldDelegate<any AsyncPaymentAuthorizationDelegate>>`).
package enum FlowDelegates<Completions: AnyObject & Sendable, Async: AnyObject & Sendable>: FlowDelegate {
    case completions(DelegateHold<Completions>)
    case async(DelegateHold<Async>)

    var isAsync: Bool {
        if case .async = self { return true }
        return false
    }

    package func release() {
        switch self {
        case .completions(let held): held.release()
        case .async(let held): held.release()
        }
    }

    package var retained: AnyObject {
        switch self {
        case .completions(let held): held.retained
        case .async(let held): held.retained
        }
    }
}
