import Synchronization

/// A merchant's delegate, held in a box of its own, as a flow's delegate enum carries it (one
/// case for completion handlers, one for `async`).
///
/// The box makes the enum one reference, held inline in the runner's state, and lets a flow call
/// the delegate where the box holds it: a `let` of a class is read in place, where binding an
/// existential out of an enum (or an `indirect` case) copied it, through its value witnesses, on
/// every delegate call.
package final class HeldDelegate<Value: Sendable>: Sendable {
    package let delegate: Value

    package init(_ delegate: Value) { self.delegate = delegate }
}
