import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one-callback-at-a-time engine shared by every flow (spec E1-E6).
///
/// It holds a state machine and the delegate under a lock (an ``EngineLock``, in the runner's own
/// allocation: see ``RunnerState``). Each event (a driver action, a completion, a deadline) is
/// decided under the lock; the delegate calls and violation reports it produces go into a queue
/// that exactly one thread at a time drains, outside the lock. So
/// delegate calls of one flow never overlap and never nest: a completion called synchronously
/// inside a callback, or a `cancel()` from inside one, only queues what follows, which runs after
/// the callback has returned (spec E6). A callback's deadline starts when the draining thread takes
/// its delegate call, under the lock, and is armed on the flow's clock then: exactly, and
/// cancelled when the callback closes, or lazily, with one timer per flow that lives until the flow
/// ends, as the clock's ``CheckoutClock/deadlineArming`` says (see `rearm`). A deadline that fires times out
/// the callback then outstanding only if that callback's own deadline has come.
///
/// The engine is `@inlinable` (its internals `@usableFromInline`) so that a flow of another module,
/// the pay context's, gets it specialized for its own types: compiled only here, it ran generic
/// there, looking up its types' metadata on every event (about 26,000 instructions an explored session).
@usableFromInline
package final class FlowRunner<Machine: FlowMachine>:
    ManagedBuffer<RunnerState<Machine>, EngineLock.Word>
{
    // The engine's working types are declared outside the class, over the machine's call,
    // delegate and answer types: nested in the generic class, the compiler copied and destroyed
    // them through their runtime metadata, on every event.
    @usableFromInline typealias Work = RunnerWork<Machine.Call>
    @usableFromInline typealias AfterEvent = RunnerAfterEvent<Machine.Answer>

    @usableFromInline typealias Locked = RunnerLocked<Machine>

    /// Makes the runner of a flow: one allocation holds its state and its lock.
    @inlinable package static func make(
        machine: Machine, merchant: MerchantHold, options: FlowOptions, tracksActivity: Bool = false
    ) -> FlowRunner {
        let buffer = create(minimumCapacity: 1) { _ in
            RunnerState(machine: machine, merchant: merchant, options: options, tracksActivity: tracksActivity)
        }
        // `create` returns the dynamic type it was called on.
        let runner = unsafeDowncast(buffer, to: FlowRunner.self)
        runner.withUnsafeMutablePointerToElements(EngineLock.initialize)
        return runner
    }

    deinit {
        withUnsafeMutablePointerToHeader { state in
            state.pointee.clockObject.release()
            // A flow freed before its terminal call (never presented, or dropped while waiting for
            // the customer): the merchant is let go of here.
            state.pointee.locked.merchant?.release()
        }
    }

    /// One field of the runner's state, where it lives. The state's address is fixed for the
    /// runner's life (a `ManagedBuffer`'s header); its `locked` part is reached only through
    /// ``withLock(_:)`` (but for the delegate, which the draining thread also reads outside the
    /// lock: see `DrainStep`), the rest is fixed when the flow is made, except `spare`, which only
    /// the draining thread touches (or, while no drain is under way, a thread holding the lock). Each is reached through a pointer to the field itself, never
    /// through the whole state: an access to the state outside the lock would overlap the locked
    /// part's accesses under it (ThreadSanitizer reports it, rightly, as a Swift access race).
    @inlinable @inline(__always)
    func field<Field>(_ path: KeyPath<RunnerState<Machine>, Field>) -> UnsafePointer<Field> {
        withUnsafeMutablePointerToHeader { UnsafePointer($0).pointer(to: path)! }
    }

    /// ``field(_:)``, to write.
    @inlinable @inline(__always)
    func mutableField<Field>(_ path: WritableKeyPath<RunnerState<Machine>, Field>)
        -> UnsafeMutablePointer<Field>
    {
        withUnsafeMutablePointerToHeader { $0.pointer(to: path)! }
    }

    /// Runs `body` with exclusive access to the locked state. Never call a delegate or a
    /// completion inside: the lock is not re-entrant.
    @inlinable @inline(__always)
    func withLock<Result>(_ body: (inout Locked) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { state, lock in
            try EngineLock.withLocked(lock) { try body(&state.pointee.locked) }
        }
    }

    @inlinable @inline(__always) var clockObject: Unmanaged<RunnerClockBox> { field(\.clockObject).pointee }
    @inlinable @inline(__always) var armsLazily: Bool { field(\.armsLazily).pointee }
    @inlinable @inline(__always) var extras: RunnerExtras? { field(\.extras).pointee }
    @inlinable var tracked: ActivityCounter? { extras?.tracked }

    /// The flow's clock, for what is not on the round trip (scheduling, cancelling, a timer).
    @inlinable var clock: any CheckoutClock { clockObject._withUnsafeGuaranteedRef { $0.clock } }

    @inlinable var onViolation: (@Sendable (Violation) -> Void)? { extras?.onViolation }

    /// The completion for callback `id`, for the shell's `perform` (the draining thread only):
    /// the object of an earlier callback that the merchant has let go of, re-armed, or a new one.
    /// It does not hold its flow yet: hand it to ``recycle(_:)`` once the delegate call it was
    /// handed to has returned, which makes it hold the flow if the merchant keeps it.
    @inlinable @inline(__always)
    package func makeCompletion<Shell: FlowShell>(_ id: UInt64, _ shell: Shell) -> Completion<Shell>
    where Shell.Machine == Machine {
        mutableField(\.spare).pointee.make(id, shell)
    }

    /// Makes the flow small while it waits between events, for a driver that keeps it waiting
    /// long (the web relay's idle sessions): under the lock, `compact` makes the machine small
    /// (its transcript packed), and the runner lets go of what it keeps for the next event, which
    /// makes them anew: the waiters' box when no driver waits, and the completion kept for reuse
    /// unless a drain is under way (whose thread alone touches it: a drainer that has let go of the
    /// drain under the lock touches it no more).
    package func compactWhileIdle(_ compact: (inout Machine) -> Void) {
        withLock { locked in
            compact(&locked.machine)
            if locked.waiters?.isEmpty == true { locked.waiters = nil }
            guard !locked.draining else { return }
            mutableField(\.spare).pointee = SpareCompletion()
        }
    }

    /// After the delegate call that was handed `completion` has returned (the draining thread
    /// only): keeps it for the next callback if the merchant has let go of it.
    @inlinable @inline(__always)
    package func recycle<Shell: FlowShell>(_ completion: consuming Completion<Shell>)
    where Shell.Machine == Machine {
        mutableField(\.spare).pointee.recycle(completion)
    }

    /// The flow's time, for every event, in the clock's nanoseconds (``CheckoutClock/nanosecondsSinceOrigin``),
    /// the clock's box borrowed (the flow holds it for its life).
    @inlinable @inline(__always)
    var now: FlowInstant { clockObject._withUnsafeGuaranteedRef { $0.instant } }

    /// Reads the machine under the lock.
    @inlinable package func read<T>(_ body: (Machine) -> T) -> T {
        withLock { body($0.machine) }
    }

    /// Runs `body` with the merchant, kept alive for it, or with nil once the terminal call has
    /// been made and the merchant let go of (spec E5). Outside the lock (never call the merchant
    /// under it).
    @inlinable package func withMerchant<Result>(_ body: (MerchantHold?) -> Result) -> Result {
        let held: (merchant: MerchantHold, box: AnyObject)? = withLock { locked in
            locked.merchant.map { ($0, $0.strong(as: AnyObject.self)) }
        }
        return withExtendedLifetime(held?.box) { body(held?.merchant) }
    }

    /// Whether the terminal delegate call has been made and the delegate released.
    @inlinable package var hasDeliveredTerminal: Bool { withLock { $0.terminalDone } }

    /// Runs one event and then the work it produced.
    @inlinable @discardableResult
    package func send<Shell: FlowShell>(
        _ shell: Shell,
        _ event: (inout Machine, FlowInstant) -> Effect<Machine.Call>
    ) -> DriverResponse where Shell.Machine == Machine {
        let now = self.now
        var after = AfterEvent()
        var work = Work.idle
        let response: DriverResponse = withLock { locked in
            // The event's effect goes straight into `settle`, which consumes it (bound to a name
            // first, it was copied).
            settle(event(&locked.machine, now), at: now, &locked, &after, &work, shell)
        }
        finish(&after, &work, shell)
        return response
    }

    /// ``send(_:_:)`` for an event that takes `value` over (a merchant's answer, which the machine
    /// keeps for the transcript): moved into the event, not copied. (The lock is taken here rather
    /// than through ``withLock(_:)``: a closure can only borrow what it captures.)
    @inlinable @inline(__always) @discardableResult
    package func send<Shell: FlowShell, Value>(
        _ shell: Shell,
        taking value: consuming Value,
        _ event: (inout Machine, FlowInstant, consuming Value) -> Effect<Machine.Call>
    ) -> DriverResponse where Shell.Machine == Machine {
        let now = self.now
        var after = AfterEvent()
        var work = Work.idle
        let (state, lock) = withUnsafeMutablePointers { ($0, $1) }
        EngineLock.lock(lock)
        let response = settle(
            event(&state.pointee.locked.machine, now, value), at: now, &state.pointee.locked, &after, &work, shell)
        EngineLock.unlock(lock)
        finish(&after, &work, shell)
        return response
    }

    /// Runs one event and waits until what it started is over: the answer to the callback it
    /// opened, or the terminal call when it ended the flow; nil when it did neither.
    ///
    /// - Throws: the ``Refusal`` when the action is refused, ``CallbackEnded`` when the callback
    ///   it opened ended without an answer.
    @inlinable package func sendAndWait<Shell: FlowShell>(
        _ shell: Shell,
        _ event: (inout Machine, FlowInstant) -> Effect<Machine.Call>
    ) async throws -> Machine.Answer? where Shell.Machine == Machine {
        try await withCheckedThrowingContinuation { continuation in
            let now = self.now
            var after = AfterEvent()
            var work = Work.idle
            withLock { locked in
                register(continuation, for: event, at: now, &locked, &after, &work, shell)
            }
            finish(&after, &work, shell)
        }
    }

    /// Under the lock: runs `event` and parks `continuation` until what the event started is over.
    @inlinable func register<Shell: FlowShell>(
        _ continuation: CheckedContinuation<Machine.Answer?, any Error>,
        for event: (inout Machine, FlowInstant) -> Effect<Machine.Call>,
        at now: FlowInstant,
        _ locked: inout Locked,
        _ after: inout AfterEvent,
        _ work: inout Work,
        _ shell: Shell
    ) where Shell.Machine == Machine {
        locked.machine.ledger.keepsResolutions = true
        let before = locked.machine.pending?.id
        let response = settle(event(&locked.machine, now), at: now, &locked, &after, &work, shell)
        if case .refused(let refusal) = response {
            after.resume((continuation, .failure(refusal)))
        } else if let opened = locked.machine.pending?.id, opened != before {
            locked.madeWaiters.answers[opened] = continuation
        } else if locked.machine.isEnded {
            if locked.terminalDone {
                after.resume((continuation, .success(nil)))
            } else {
                locked.madeWaiters.ends.append(continuation)
            }
        } else {
            after.resume((continuation, .success(nil)))
        }
    }

    /// Waits until the flow has ended and its terminal call has been made.
    @inlinable package func waitForEnd() async {
        _ = try? await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<Machine.Answer?, any Error>) in
            let done = withLock { locked in
                if locked.terminalDone { return true }
                locked.madeWaiters.ends.append(continuation)
                return false
            }
            if done { continuation.resume(returning: nil) }
        }
    }

    /// The shell has made the terminal delegate call and it has returned: the delegate's tasks
    /// still running are cancelled (their answers would be late). ``FlowOptions/onEnd`` runs when
    /// the drain that made the call has also delivered the violations queued behind it: they
    /// happened before the end, and `onEnd` (strict mode's check of expected violations) must see
    /// every one.
    @inlinable package func terminalCallReturned() {
        tracked?.cancelAll()
    }

    /// A protocol's default implementation is answering `method` in the merchant's place (spec
    /// A9, E11): tells ``FlowOptions/onDefaultAnswer``. Called by the generated defaults, inside
    /// the delegate call, outside the lock.
    package func defaultAnswered(_ method: DelegateMethod) {
        extras?.onDefaultAnswer?(method)
    }

    /// The flow's work in flight, for a flow made with `tracksActivity`.
    @inlinable package var activity: ActivityCounter {
        guard let tracked else { preconditionFailure("the flow was made without tracksActivity") }
        return tracked
    }

    /// Returns once no async delegate method or backend call of the flow is in flight.
    @inlinable package func waitUntilIdle() async {
        await tracked?.waitUntilIdle()
    }

    // MARK: - Internals

    /// What the draining thread does next: run the work item with the merchant, or, with no work
    /// (`.idle`), stop. (When the flow has ended, what its end leaves to do travels beside it, in
    /// a ``RunnerEnding``: see `nextStep` and `ended`.)
    ///
    /// The merchant is borrowed from `RunnerLocked.merchant`, in place, without a reference count:
    /// only the drainer ever writes it (in `nextStep`, under the lock, once the flow has ended,
    /// moving it to `ending`); other threads only read it, under the lock. So it stays put while
    /// this thread drains.
    @usableFromInline typealias DrainStep = (work: Work, merchant: UnsafeRawPointer?)

    /// Under the lock: where the runner's state holds the merchant, or nil once it has been let go
    /// of (spec E5).
    @inlinable @inline(__always)
    func merchantPointer(_ locked: borrowing Locked) -> UnsafeRawPointer? {
        guard !locked.terminalDone else { return nil }
        return UnsafeRawPointer(field(\.locked.merchant))
    }

    /// Under the lock: queues the effect's call and new violations, re-arms the deadline, collects
    /// waiters to resume, and decides whether this thread drains.
    @inlinable func settle<Shell: FlowShell>(
        _ effect: consuming Effect<Machine.Call>,
        at now: FlowInstant,
        _ locked: inout Locked,
        _ after: inout AfterEvent,
        _ work: inout Work,
        _ shell: Shell
    ) -> DriverResponse where Shell.Machine == Machine {
        // What is rare is done out of line, so that the common event pays only for the checks:
        // inline, the waiters' continuations alone had every event look up their type's
        // metadata to make room for one on the stack.
        if locked.reportedViolations < locked.machine.log.violationCount { queueViolations(&locked) }
        let response: DriverResponse
        // The effect is consumed, so that its call moves into the work item rather than being
        // copied. (Its refusal is not `indirect`: with an indirect case, `switch consume` crashes
        // the 6.3 compiler's move checker.)
        switch consume effect {
        case .none:
            response = .accepted
        case .refused(let refused):
            response = refused
        case .call(let call):
            if !locked.hasWork, !locked.draining {
                // Nothing queued and nobody draining: this thread runs the call, first.
                locked.draining = true
                after.drains = true
                locked.machine.delegateCalled(call, at: now)
                work = .call(call)
                after.merchant = merchantPointer(locked)
            } else {
                locked.work.append(.call(call))
            }
            response = .accepted
        }
        rearm(&locked, &after.cancelTicket, shell)
        if locked.machine.ledger.keepsResolutions { wakeAnswerWaiter(&locked, &after) }
        if locked.needsDrainer, !locked.draining { takeDrain(&locked, &after, &work, shell) }
        return response
    }

    /// Under the lock: queues the machine's new violations for ``FlowOptions/onViolation``.
    @inlinable @inline(never)
    func queueViolations(_ locked: inout Locked) {
        let violationCount = locked.machine.log.violationCount
        if onViolation != nil {
            for violation in locked.machine.log.violations[Int(locked.reportedViolations)...] {
                locked.work.append(.violation(violation))
            }
        }
        locked.reportedViolations = violationCount
    }

    /// Under the lock: the driver awaiting the callback that ended during this event learns how.
    @inlinable @inline(never)
    func wakeAnswerWaiter(_ locked: inout Locked, _ after: inout AfterEvent) {
        guard let (id, resolution) = locked.machine.ledger.takeResolution(),
            let waiter = locked.waiters?.answers.removeValue(forKey: id)
        else { return }
        switch resolution {
        case .answered(let answer): after.resume((waiter, .success(answer)))
        case .ended(let ended): after.resume((waiter, .failure(ended)))
        }
    }

    /// Under the lock: work to do and nobody draining (a drainer comes back under the lock for
    /// it): this thread drains.
    @inlinable @inline(never)
    func takeDrain<Shell: FlowShell>(
        _ locked: inout Locked, _ after: inout AfterEvent, _ work: inout Work, _ shell: Shell
    ) where Shell.Machine == Machine {
        locked.draining = true
        after.drains = true
        var ending: RunnerEnding?
        (work, after.merchant) = nextStep(&locked, &after.cancelTicket, &ending, shell)
        after.keep(ending)
    }

    /// Outside the lock: cancels a stale deadline, resumes waiters, and drains if this thread
    /// won the drain.
    @inlinable @inline(__always)
    func finish<Shell: FlowShell>(
        _ after: inout AfterEvent,
        _ work: inout Work,
        _ shell: Shell
    ) where Shell.Machine == Machine {
        if after.cancelTicket != nil || after.wakes != nil { cancelAndWake(&after) }
        if after.drains {
            drain(shell, (work.take(), after.merchant.take()), after.takeEnding())
        }
    }

    /// ``finish(_:_:_:)``'s rare part, out of line: the stale deadline cancelled, the waiters woken.
    @inlinable @inline(never)
    func cancelAndWake(_ after: inout AfterEvent) {
        if let ticket = after.cancelTicket.take() { clock.cancel(ticket) }
        if let wakes = after.takeWakes() {
            for (continuation, result) in wakes.resume { continuation.resume(with: result) }
        }
    }

    /// Under the lock: arms the deadline of the outstanding callback once its delegate call has
    /// started, and leaves the ticket of a deadline that no longer applies to be cancelled
    /// outside the lock.
    ///
    /// Armed lazily (``DeadlineArming/lazy``), a flow keeps one timer: a callback whose deadline
    /// falls at or after the timer's leaves it alone, and the timer, when it fires early, times out
    /// nothing and re-arms for the callback then outstanding. So a round trip neither schedules nor
    /// cancels anything; the timer is cancelled when the flow ends. Armed exactly
    /// (``DeadlineArming/exact``), each callback's deadline is scheduled when its delegate call
    /// starts and cancelled when the callback closes, so that actions due at the same virtual
    /// instant run in the order they were scheduled.
    @inlinable @inline(__always)
    func rearm<Shell: FlowShell>(
        _ locked: inout Locked,
        _ cancelTicket: inout DeadlineTicket?,
        _ shell: Shell
    ) where Shell.Machine == Machine {
        // Whether anything changes, inline; the change itself, rare, out of line.
        let pending = locked.machine.pending
        if armsLazily {
            guard let deadline = pending?.deadline else {
                if locked.machine.isEnded, locked.armed != nil { rearmChanging(&locked, &cancelTicket, shell) }
                return
            }
            if let timer = locked.armed, timer.at <= deadline { return }
        } else if locked.armed?.id == (pending?.deadline == nil ? nil : pending?.id) {
            return
        }
        rearmChanging(&locked, &cancelTicket, shell)
    }

    /// ``rearm(_:_:_:)`` when the armed deadline changes.
    @inlinable @inline(never)
    func rearmChanging<Shell: FlowShell>(
        _ locked: inout Locked,
        _ cancelTicket: inout DeadlineTicket?,
        _ shell: Shell
    ) where Shell.Machine == Machine {
        let pending = locked.machine.pending
        if armsLazily {
            guard let deadline = pending?.deadline else {
                // Nothing to time: keep the timer for the next callback, unless the flow is over
                // (the timer would keep it alive until it fires).
                if locked.machine.isEnded, let timer = locked.armed {
                    locked.armed = nil
                    Self.discard(timer.ticket, &cancelTicket, clock)
                }
                return
            }
            if let timer = locked.armed {
                if timer.at <= deadline { return }
                Self.discard(timer.ticket, &cancelTicket, clock)
            }
            // The action captures the shell alone (no allocation of its own).
            let action: @Sendable () -> Void = { [shell] in shell.runner.timerFired(shell) }
            // Reached on every event that changes the deadline, so rarely; the flow's address picks
            // the clock's shard: the same for all its deadlines.
            let ticket = clock.schedule(
                atNanoseconds: deadline.nanoseconds,
                shard: Int(bitPattern: UInt(bitPattern: ObjectIdentifier(self)) >> 4),
                action)
            locked.armed = (ticket, pending?.id ?? 0, deadline)
            return
        }
        // The callback whose deadline should be armed: the outstanding one, once it has a deadline.
        let timed = pending?.deadline == nil ? nil : pending?.id
        guard locked.armed?.id != timed else { return }
        if let stale = locked.armed?.ticket { Self.discard(stale, &cancelTicket, clock) }
        locked.armed = nil
        guard let pending, let deadline = pending.deadline else { return }
        // The action captures the shell alone (no allocation of its own); when it runs, it times
        // out whichever callback is then outstanding, if that one's deadline has come. A stale
        // timer (its callback answered in the meantime) finds a later deadline, or none, and does
        // nothing.
        let action: @Sendable () -> Void = { [shell] in
            shell.runner.send(shell) { machine, now in
                guard let pending = machine.pending, let deadline = pending.deadline, now >= deadline else {
                    return .none
                }
                return machine.deadlinePassed(pending.id, at: now)
            }
        }
        locked.armed = (clock.schedule(at: deadline.duration, action), pending.id, deadline)
    }

    /// Leaves `ticket` to be cancelled outside the lock; when one is already waiting there (which
    /// takes two changes of deadline in one event), cancels it now instead.
    @inlinable static func discard(
        _ ticket: DeadlineTicket, _ cancelTicket: inout DeadlineTicket?, _ clock: any CheckoutClock
    ) {
        if cancelTicket == nil {
            cancelTicket = ticket
        } else {
            clock.cancel(ticket)
        }
    }

    /// The flow's system-clock timer fired: it times out the outstanding callback if that one's
    /// deadline has come, and otherwise re-arms for it (through ``settle``).
    @inlinable func timerFired<Shell: FlowShell>(_ shell: Shell)
    where Shell.Machine == Machine {
        let now = self.now
        var after = AfterEvent()
        var work = Work.idle
        withLock { locked in
            // A timer due by now has fired or is about to: forget it, so that re-arming schedules
            // anew. (One fired after being replaced finds a later timer and leaves it.)
            if let timer = locked.armed, timer.at <= now { locked.armed = nil }
            var effect = Effect<Machine.Call>.none
            if let pending = locked.machine.pending, let deadline = pending.deadline, now >= deadline {
                effect = locked.machine.deadlinePassed(pending.id, at: now)
            }
            _ = settle(effect, at: now, &locked, &after, &work, shell)
        }
        finish(&after, &work, shell)
    }

    /// Under the lock, for the draining thread: the next queued work item, or the end of the
    /// drain (and, once the flow has ended, the release of the delegate, into `ending`). A delegate
    /// call taken here starts its callback's deadline (spec E4).
    @inlinable @inline(__always)
    func nextStep<Shell: FlowShell>(
        _ locked: inout Locked,
        _ cancelTicket: inout DeadlineTicket?,
        _ ending: inout RunnerEnding?,
        _ shell: Shell
    ) -> DrainStep where Shell.Machine == Machine {
        // The common end of a drain, inline: nothing queued, the flow goes on.
        if !locked.hasWork, !locked.machine.isEnded {
            locked.draining = false
            return (.idle, nil)
        }
        return nextQueuedStep(&locked, &cancelTicket, &ending, shell)
    }

    /// ``nextStep(_:_:_:_:)`` with work queued or the flow ended.
    @inlinable @inline(never)
    func nextQueuedStep<Shell: FlowShell>(
        _ locked: inout Locked,
        _ cancelTicket: inout DeadlineTicket?,
        _ ending: inout RunnerEnding?,
        _ shell: Shell
    ) -> DrainStep where Shell.Machine == Machine {
        let work = locked.popWork()
        if case .call(let call) = work {
            locked.machine.delegateCalled(call, at: now)
            rearm(&locked, &cancelTicket, shell)
        }
        if !work.isIdle { return (work, merchantPointer(locked)) }
        locked.draining = false
        guard locked.machine.isEnded, !locked.terminalDone else { return (.idle, nil) }
        // The terminal call has been performed and everything queued behind it delivered:
        // let go of the merchant (spec E5), run onEnd, and wake whoever waits for the end.
        locked.terminalDone = true
        var wake: (() -> Void)?
        if let ends = locked.waiters?.ends, !ends.isEmpty {
            wake = { for waiter in ends { waiter.resume(returning: nil) } }
            locked.waiters?.ends = []
        }
        ending = RunnerEnding(merchant: locked.merchant.take(), wakeEndWaiters: wake)
        return (.idle, nil)
    }

    @inlinable func drain<Shell: FlowShell>(
        _ shell: Shell, _ first: consuming DrainStep, _ firstEnding: consuming RunnerEnding?
    ) where Shell.Machine == Machine {
        var (work, merchant) = first
        var ending = firstEnding
        loop: while true {
            // The item is moved out, not copied: a copy of a call costs reference counts for
            // each of its fields.
            switch consume work {
            case .idle:
                break loop
            case .call(let call):
                if let merchant = merchant?.assumingMemoryBound(to: MerchantHold?.self).pointee {
                    shell.perform(call, on: merchant)
                }
                // An isolated merchant's call, handed off: it runs on the merchant's isolation,
                // which goes on draining when it returns (spec E10). Nothing is left to this thread
                // (the call made no ending: that comes with no work, in `nextStep`).
                if let handOff = mutableField(\.handedOff).pointee.take() {
                    handOff.start { shell.runner.resumeDrain(shell) }
                    return
                }
            case .violation(let violation):
                onViolation?(violation)
            }
            // Back under the lock: the next item, or the end of the drain.
            var cancelTicket: DeadlineTicket?
            (work, merchant) = withLock { nextStep(&$0, &cancelTicket, &ending, shell) }
            if let cancelTicket { clock.cancel(cancelTicket) }
        }
        if let ending { ended(ending) }
    }

    /// On the draining thread, inside `perform`: the delegate call is `handOff`, to run on the
    /// merchant's isolation once `perform` has returned (after the calls handed off before it in
    /// the same `perform`); the drain then waits for it (the flow's
    /// `draining` stays set, so events only queue their work) and goes on, on that isolation, when
    /// the call has returned (``resumeDrain(_:)``). Delegate calls so keep one at a time, never
    /// nested (spec E6, E10), and the end (the merchant's release, `onEnd`, the end's waiters)
    /// comes after the isolated terminal call has returned.
    package func handOff(_ handOff: DrainHandOff) {
        let handedOff = mutableField(\.handedOff)
        handedOff.pointee = handedOff.pointee.map { $0.followed(by: handOff) } ?? handOff
    }

    /// Goes on draining after a handed-off delegate call has returned (on the merchant's
    /// isolation, outside every lock): the next work item, or the end of the drain.
    @inlinable package func resumeDrain<Shell: FlowShell>(_ shell: Shell)
    where Shell.Machine == Machine {
        var ending: RunnerEnding?
        var cancelTicket: DeadlineTicket?
        let step = withLock { nextStep(&$0, &cancelTicket, &ending, shell) }
        if let cancelTicket { clock.cancel(cancelTicket) }
        drain(shell, step, ending)
    }

    /// Outside the lock, once the terminal call has returned and the drain that made it has
    /// delivered what was queued behind it: the merchant is let go of (here, in case its deinit
    /// calls back), `onEnd` runs, and whoever waits for the end wakes.
    @inlinable func ended(_ ending: consuming RunnerEnding) {
        ending.merchant?.release()
        ending.merchant = nil
        extras?.onEnd?()
        ending.wakeEndWaiters?()
    }
}

/// A flow's thread-safe shell: it owns a ``FlowRunner`` and performs the delegate calls its state
/// machine asks for on the merchant the runner holds.
/// (`@usableFromInline`, and so are a shell's witnesses: the engine's inlinable code calls them.)
@usableFromInline
package protocol FlowShell: AnyObject, Sendable {
    associatedtype Machine: FlowMachine

    var runner: FlowRunner<Machine> { get }

    /// Calls the merchant. Runs outside every lock, one call at a time per flow.
    func perform(_ call: Machine.Call, on merchant: MerchantHold)
}
