import Synchronization

/// What a ``FlowRunner`` keeps under its lock: the state machine, the delegate, the work queue,
/// the armed deadline, and what awaiting drivers wait for.
struct RunnerLocked<Machine: FlowMachine, Delegate: Sendable> {
    typealias Work = RunnerWork<Machine.Call>

    // Laid out tight (every flow keeps one): the flags and the two counts, 32 bits each, fill
    // what the machine leaves of its last word.
    var machine: Machine
    var terminalDone = false
    /// Whether a thread drains the flow's work: it is in, or about to make, a delegate call,
    /// and comes back under the lock when the call returns (swift-nio's `inDelegateOutcall`).
    /// Only the drainer clears it, in `nextStep`, when it finds nothing left to do.
    var draining = false
    /// Where the work queue starts: `work[workHead...]` is still to run.
    var workHead: Int32 = 0
    /// How many of the machine's violations have been queued for ``FlowOptions/onViolation``.
    var reportedViolations: Int32 = 0
    /// Held until the terminal call has been made, then released (spec E5). Kept inline, at the
    /// fixed address of the runner's state: the draining thread reads it from there
    /// (``FlowRunner``'s `delegatePointer`). Each flow's delegate enum is a ``FlowDelegates``: a
    /// ``DelegateHold`` of the merchant's box, which the runner keeps with a retain of its own (given
    /// back by ``FlowRunner``'s `ended`, or its `deinit` for a flow freed before its end), so
    /// reading it costs no reference count.
    var delegate: Delegate?
    /// The work queue. The thread that wins the drain takes an event's call straight from the
    /// event, without queueing it, when nothing is queued before it.
    var work: [Work] = []
    /// The drivers awaiting an answer or the end, in a box made when the first one waits (most
    /// flows never have one).
    var waiters: RunnerWaiters<Machine.Answer>?
    /// The flow's armed deadline, due `at`. On a clock other than the system clock, the
    /// deadline of callback `id`; on the system clock, the flow's one timer, which may be
    /// earlier than the outstanding callback's deadline (it then re-arms for it when it fires).
    var armed: (ticket: DeadlineTicket, id: UInt64, at: FlowInstant)?

    init(machine: Machine, delegate: Delegate) {
        self.machine = machine
        self.delegate = delegate
    }

    var hasWork: Bool { Int(workHead) < work.count }

    /// Whether a drainer is needed: work is queued, or the flow has ended and its delegate is
    /// still to be released.
    var needsDrainer: Bool { hasWork || (machine.isEnded && !terminalDone) }

    /// Takes the next queued work item; the queue's storage is released once it is empty.
    mutating func popWork() -> Work {
        guard Int(workHead) < work.count else { return .idle }
        let next = work[Int(workHead)]
        workHead += 1
        if Int(workHead) == work.count {
            work = []
            workHead = 0
        }
        return next
    }
}

/// The drivers awaiting a flow: the answer to a callback their action opened, or the flow's end.
final class RunnerWaiters<Answer: Sendable> {
    var answers: [UInt64: CheckedContinuation<Answer?, any Error>] = [:]
    var ends: [CheckedContinuation<Answer?, any Error>] = []
}

extension RunnerLocked {
    /// The waiters' box, made now if the flow had none.
    var madeWaiters: RunnerWaiters<Machine.Answer> {
        mutating get {
            if let waiters { return waiters }
            let made = RunnerWaiters<Machine.Answer>()
            waiters = made
            return made
        }
    }
}
