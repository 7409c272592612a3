/// What the engine needs to know of a flow's state machine.
package protocol FlowMachine: Sendable {
    /// A delegate call the machine asks for.
    associatedtype Call: Sendable
    /// What a completion carries.
    associatedtype Answer: Sendable

    var log: FlowLog { get }
    /// The callback whose completion is outstanding, if any: its id and deadline.
    var pending: (id: UInt64, deadline: Duration?)? { get }
    /// Whether the flow has ended (its terminal call has been asked for).
    var isEnded: Bool { get }
    /// The outstanding callback `id` reached its deadline at `now`.
    mutating func deadlinePassed(_ id: UInt64, at now: Duration) -> Effect<Call>
    /// How the callback that ended during the last event ended, once.
    mutating func takeResolution() -> (id: UInt64, resolution: Resolution<Answer>)?
}

/// A flow's thread-safe shell: it owns a ``FlowRunner`` and performs the delegate calls its state
/// machine asks for.
package protocol FlowShell: AnyObject, Sendable {
    associatedtype Machine: FlowMachine
    associatedtype Delegate: Sendable

    var runner: FlowRunner<Machine, Delegate> { get }

    /// Calls the delegate. Runs outside every lock, one call at a time per flow.
    func perform(_ call: Machine.Call, on delegate: Delegate)
}

/// The one-callback-at-a-time engine shared by every flow (spec E1-E6).
///
/// It holds a state machine and the delegate under a lock (``LockedValue``). Each event (a driver action, a
/// completion, a deadline) is decided under the lock; the delegate calls and violation reports it
/// produces go into a queue that exactly one thread at a time drains, outside the lock. So
/// delegate calls of one flow never overlap and never nest: a completion called synchronously
/// inside a callback, or a `cancel()` from inside one, only queues what follows, which runs after
/// the callback has returned (spec E6). Deadlines are armed on the flow's clock when a callback
/// opens and cancelled lazily when it closes.
package final class FlowRunner<Machine: FlowMachine, Delegate: Sendable>: Sendable {
    private enum Work: Sendable {
        case call(Machine.Call)
        case violation(Violation)
    }

    private struct Locked {
        var machine: Machine
        /// Held strongly until the terminal call has been made, then released (spec E5).
        var delegate: Delegate?
        var work: [Work] = []
        var draining = false
        var armed: (id: UInt64, ticket: DeadlineTicket)?
        var reportedViolations = 0
        var answerWaiters: [UInt64: CheckedContinuation<Machine.Answer?, any Error>] = [:]
        var endWaiters: [CheckedContinuation<Machine.Answer?, any Error>] = []
        var terminalDone = false
    }

    package let options: FlowOptions
    private let state: LockedValue<Locked>

    package init(machine: Machine, delegate: Delegate, options: FlowOptions) {
        self.options = options
        self.state = LockedValue(Locked(machine: machine, delegate: delegate))
    }

    /// Reads the machine under the lock.
    package func read<T>(_ body: (Machine) -> T) -> T {
        state.withLock { body($0.machine) }
    }

    /// The delegate, until the terminal call has been made.
    package var delegate: Delegate? { state.withLock { $0.delegate } }

    /// Whether the terminal delegate call has been made and the delegate released.
    package var hasDeliveredTerminal: Bool { state.withLock { $0.terminalDone } }

    /// Runs one event and then the work it produced.
    @discardableResult
    package func send<Shell: FlowShell>(
        _ shell: Shell,
        _ event: (inout Machine, Duration) -> Effect<Machine.Call>
    ) -> DriverResponse where Shell.Machine == Machine, Shell.Delegate == Delegate {
        let now = options.clock.now
        var after = AfterEvent()
        let response: DriverResponse = state.withLock { locked in
            let effect = event(&locked.machine, now)
            return settle(effect, &locked, &after, shell)
        }
        finish(after, shell)
        return response
    }

    /// Runs one event and waits until what it started is over: the answer to the callback it
    /// opened, or the terminal call when it ended the flow; nil when it did neither.
    ///
    /// - Throws: the ``Refusal`` when the action is refused, ``CallbackEnded`` when the callback
    ///   it opened ended without an answer.
    package func sendAndWait<Shell: FlowShell>(
        _ shell: Shell,
        _ event: (inout Machine, Duration) -> Effect<Machine.Call>
    ) async throws -> Machine.Answer? where Shell.Machine == Machine, Shell.Delegate == Delegate {
        try await withCheckedThrowingContinuation { continuation in
            let now = options.clock.now
            var after = AfterEvent()
            state.withLock { locked in
                register(continuation, for: event, at: now, &locked, &after, shell)
            }
            finish(after, shell)
        }
    }

    /// Under the lock: runs `event` and parks `continuation` until what the event started is over.
    /// Not optimized: Swift 6.3's CopyPropagation pass crashes on its generic specializations when
    /// the module is built with `-O -enable-testing` (as `swift test -c release` needs). It runs
    /// once per awaited driver action, so the cost is nil.
    @_optimize(none)
    private func register<Shell: FlowShell>(
        _ continuation: CheckedContinuation<Machine.Answer?, any Error>,
        for event: (inout Machine, Duration) -> Effect<Machine.Call>,
        at now: Duration,
        _ locked: inout Locked,
        _ after: inout AfterEvent,
        _ shell: Shell
    ) where Shell.Machine == Machine, Shell.Delegate == Delegate {
        let before = locked.machine.pending?.id
        let effect = event(&locked.machine, now)
        let response = settle(effect, &locked, &after, shell)
        if case .refused(let refusal) = response {
            after.resume.append((continuation, .failure(refusal)))
        } else if let opened = locked.machine.pending?.id, opened != before {
            locked.answerWaiters[opened] = continuation
        } else if locked.machine.isEnded {
            if locked.terminalDone {
                after.resume.append((continuation, .success(nil)))
            } else {
                locked.endWaiters.append(continuation)
            }
        } else {
            after.resume.append((continuation, .success(nil)))
        }
    }

    /// Waits until the flow has ended and its terminal call has been made.
    package func waitForEnd() async {
        _ = try? await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<Machine.Answer?, any Error>) in
            let done = state.withLock { locked in
                if locked.terminalDone { return true }
                locked.endWaiters.append(continuation)
                return false
            }
            if done { continuation.resume(returning: nil) }
        }
    }

    // MARK: - Internals

    private enum DrainStep {
        case work(Work, Delegate?)
        case done([CheckedContinuation<Machine.Answer?, any Error>], Delegate?)
    }

    private struct AfterEvent {
        var cancelTicket: DeadlineTicket?
        var drain = false
        var resume: [(CheckedContinuation<Machine.Answer?, any Error>, Result<Machine.Answer?, any Error>)] =
            []
    }

    /// Under the lock: queues the effect's call and new violations, re-arms the deadline, collects
    /// waiters to resume, and decides whether this thread drains.
    private func settle<Shell: FlowShell>(
        _ effect: Effect<Machine.Call>,
        _ locked: inout Locked,
        _ after: inout AfterEvent,
        _ shell: Shell
    ) -> DriverResponse where Shell.Machine == Machine, Shell.Delegate == Delegate {
        let violations = locked.machine.log.violations
        if locked.reportedViolations < violations.count {
            if options.onViolation != nil {
                for violation in violations[locked.reportedViolations...] {
                    locked.work.append(.violation(violation))
                }
            }
            locked.reportedViolations = violations.count
        }
        let response: DriverResponse
        switch effect {
        case .none:
            response = .accepted
        case .refused(let refusal):
            response = .refused(refusal)
        case .call(let call):
            locked.work.append(.call(call))
            response = .accepted
        }
        let pending = locked.machine.pending
        if locked.armed?.id != pending?.id {
            after.cancelTicket = locked.armed?.ticket
            locked.armed = nil
            if let pending, let deadline = pending.deadline {
                let id = pending.id
                let ticket = options.clock.schedule(at: deadline) { [shell] in
                    shell.runner.send(shell) { machine, now in machine.deadlinePassed(id, at: now) }
                }
                locked.armed = (id, ticket)
            }
        }
        if let (id, resolution) = locked.machine.takeResolution(),
            let waiter = locked.answerWaiters.removeValue(forKey: id)
        {
            switch resolution {
            case .answered(let answer): after.resume.append((waiter, .success(answer)))
            case .ended(let ended): after.resume.append((waiter, .failure(ended)))
            }
        }
        if !locked.draining, !locked.work.isEmpty || (locked.machine.isEnded && !locked.terminalDone) {
            locked.draining = true
            after.drain = true
        }
        return response
    }

    /// Outside the lock: cancels a stale deadline, resumes waiters, and drains if this thread
    /// won the drain.
    private func finish<Shell: FlowShell>(
        _ after: AfterEvent,
        _ shell: Shell
    ) where Shell.Machine == Machine, Shell.Delegate == Delegate {
        if let ticket = after.cancelTicket { options.clock.cancel(ticket) }
        for (continuation, result) in after.resume { continuation.resume(with: result) }
        if after.drain { drain(shell) }
    }

    private func drain<Shell: FlowShell>(_ shell: Shell)
    where Shell.Machine == Machine, Shell.Delegate == Delegate {
        while true {
            let next: DrainStep = state.withLock { locked in
                if !locked.work.isEmpty {
                    return .work(locked.work.removeFirst(), locked.delegate)
                }
                locked.draining = false
                guard locked.machine.isEnded, !locked.terminalDone else { return .done([], nil) }
                // The terminal call has been performed: release the delegate (spec E5) and
                // wake whoever waits for the end.
                locked.terminalDone = true
                let released = locked.delegate
                locked.delegate = nil
                let waiters = locked.endWaiters
                locked.endWaiters = []
                return .done(waiters, released)
            }
            switch next {
            case .work(.call(let call), let delegate):
                if let delegate { shell.perform(call, on: delegate) }
            case .work(.violation(let violation), _):
                options.onViolation?(violation)
            case .done(let waiters, let released):
                // The delegate is released here, outside the lock, in case its deinit calls back.
                _ = released
                for waiter in waiters { waiter.resume(returning: nil) }
                return
            }
        }
    }
}
