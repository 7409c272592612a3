/// The delegate calls handed off to an isolated merchant's isolation during one `perform` (spec
/// E10): the drainer starts them once `perform` has returned, one after the other, and the last
/// goes on draining the flow where it ends (``FlowRunner/handOff(_:)``,
/// ``FlowRunner/resumeDrain(_:)``). Made by the hand-offs of each isolation kind: the main actor,
/// an actor, a serial queue.
@usableFromInline
package final class DrainHandOff: Sendable {
    /// Enqueues the calls on the isolation and returns at once; `then` runs once they have
    /// returned.
    @usableFromInline let start: @Sendable (_ then: @escaping @Sendable () -> Void) -> Void

    package init(start: @escaping @Sendable (_ then: @escaping @Sendable () -> Void) -> Void) {
        self.start = start
    }

    /// These calls, then `next`'s (a `perform` that makes two delegate calls, such as
    /// `willAuthorizePayment` and `didAuthorizePayment`).
    package func followed(by next: DrainHandOff) -> DrainHandOff {
        DrainHandOff { [self] then in start { next.start(then) } }
    }
}
