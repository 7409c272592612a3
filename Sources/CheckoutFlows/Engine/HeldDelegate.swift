import Synchronization

/// A merchant's delegate, held in a box of its own, as a flow's delegate enum carries it (one
/// case for completion handlers, one for `async`), through a ``DelegateHold``.
///
/// The box makes the enum one reference, held inline in the runner's state, and lets a flow call
/// the delegate where the box holds it: a `let` of a class is read in place, where binding an
/// existential out of an enum (or an `indirect` case) copied it, through its value witnesses, on
/// every delegate call.
package final class HeldDelegate<Value: Sendable>: Sendable {
    package let delegate: Value

    package init(_ delegate: Value) { self.delegate = delegate }
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
/// nothing, and nothing releases it but ``release()``.
package struct DelegateHold<Value: Sendable>: @unchecked Sendable {
    // Unchecked: an unmanaged reference to a `Sendable` box.
    private let box: Unmanaged<HeldDelegate<Value>>

    /// Holds `delegate`, in a new box, until ``release()``.
    package init(_ delegate: Value) { box = .passRetained(HeldDelegate(delegate)) }

    /// Calls `body` with the delegate, borrowed where its box holds it. Only while the hold is
    /// kept: on the draining thread, or with ``retained`` kept.
    @inline(__always)
    package func call<Result>(_ body: (Value) -> Result) -> Result {
        box._withUnsafeGuaranteedRef { body($0.delegate) }
    }

    /// The delegate itself, a copy that keeps it alive on its own (for a task that calls it later).
    package var delegate: Value { box.takeUnretainedValue().delegate }

    package func release() { box.release() }

    package var retained: AnyObject { box.takeUnretainedValue() }
}

/// A flow's delegate: one that answers through completion handlers, or one whose methods are
/// `async`. Each flow names its two protocols (`FlowDelegates<any PaymentAuthorizationDelegate,
/// any AsyncPaymentAuthorizationDelegate>`).
package enum FlowDelegates<Completions: Sendable, Async: Sendable>: FlowDelegate {
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
