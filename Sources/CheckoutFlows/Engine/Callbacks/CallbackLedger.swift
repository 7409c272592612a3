import Synchronization

/// The bookkeeping of a flow's delegate callbacks, one value that every state machine keeps:
/// it hands out callback ids, keeps the deadline of the callback opened last, decides
/// how an answer is taken (in time, repeated, late, past its deadline: spec E2, E4), and keeps how
/// each callback ended for a driver that awaits its answer.
///
/// A callback's deadline starts when its delegate method is called (``called(_:at:)``), not when
/// the state machine opens it: the call may wait behind the delegate call the flow is making, and
/// each callback gets its own full deadline (spec E4).
@usableFromInline
package struct CallbackLedger<Answer: Sendable>: Sendable {
    // Every flow keeps a ledger, so it is laid out tight: the two times in a word each (as
    // `Duration`s they took two) and without optionals, their presence in flags beside the others.
    @usableFromInline var lastID: UInt64 = 0
    /// Every callback's timeout in nanoseconds, rounded up (``FlowInstant``), when `hasTimeout`.
    @usableFromInline let timeoutNanoseconds: Int64
    /// The deadline of the callback opened last, when `lastHasDeadline`: once its delegate call
    /// has started.
    @usableFromInline var lastDeadlineValue = FlowInstant.zero
    @usableFromInline let hasTimeout: Bool
    /// Whether the callback opened last has a deadline of its own.
    @usableFromInline var lastIsTimed = false
    @usableFromInline var lastHasDeadline = false
    /// Whether the ledger keeps how each callback ended, for ``takeResolution()``: off until a
    /// driver first awaits an answer (keeping it costs a copy of every answer).
    @usableFromInline package var keepsResolutions = false
    @usableFromInline var resolution: (id: UInt64, resolution: Resolution<Answer>)?

    @inlinable package init(timeout: Duration?) {
        self.timeoutNanoseconds = timeout.map { FlowInstant(roundingUp: $0).nanoseconds } ?? 0
        self.hasTimeout = timeout != nil
    }

    /// Every callback's timeout (``FlowOptions/callbackTimeout``), rounded up to the nanosecond.
    @inlinable package var timeout: Duration? {
        hasTimeout ? FlowInstant(nanoseconds: timeoutNanoseconds).duration : nil
    }

    /// The id of the callback opened last: the outstanding one, while a machine waits for an answer
    /// (a machine reads it rather than copying its state's payload to read the id).
    @inlinable package var lastOpenedID: UInt64 { lastID }

    /// Opens a callback; `timed: false` opens it without a deadline of its own (one that runs
    /// under an enclosing deadline, as the pay context's callbacks run under the sheet's).
    @inlinable package mutating func open<Callback>(_ callback: Callback, _ method: DelegateMethod, timed: Bool = true)
        -> Outstanding<Callback>
    {
        lastID += 1
        lastIsTimed = timed && hasTimeout
        lastHasDeadline = false
        return Outstanding(id: lastID, callback: callback, method: method.name)
    }

    /// The delegate method of callback `id` is being called at `now`: its deadline starts, once.
    @inlinable @inline(__always)
    package mutating func called(_ id: UInt64, at now: FlowInstant) {
        guard id == lastID, lastIsTimed, !lastHasDeadline else { return }
        lastDeadlineValue = now.plus(nanoseconds: timeoutNanoseconds)
        lastHasDeadline = true
    }

    /// When callback `id` times out: nil before its delegate call, without a deadline, or when it
    /// is not the callback opened last.
    @inlinable package func deadline(of id: UInt64) -> FlowInstant? {
        id == lastID && lastHasDeadline ? lastDeadlineValue : nil
    }

    /// How an answer to callback `id` is to be taken at time `now`, once it is known to answer
    /// the callback outstanding.
    @inlinable package func arrival(of id: UInt64, at now: FlowInstant) -> Arrival {
        if let deadline = deadline(of: id), deadline <= now { return .pastDeadline }
        return .inTime
    }

    /// How an answer to callback `id` is taken (spec E2, E4): `first` is false for a repeated
    /// call of its completion, `outstanding` the id of the callback the machine waits for (nil
    /// when it waits for none).
    @inlinable package func admit(_ id: UInt64, first: Bool, outstanding: UInt64?, at now: FlowInstant) -> Admission {
        guard first else { return .repeated }
        guard let outstanding, outstanding == id else { return .late }
        return arrival(of: id, at: now) == .pastDeadline ? .pastDeadline : .inTime
    }

    @usableFromInline package enum Arrival {
        /// Apply it.
        case inTime
        /// The deadline has passed, even if its timer has not fired yet: an answer arriving
        /// exactly at the deadline is late (spec E4).
        case pastDeadline
    }

    /// What a machine does with an answer.
    @usableFromInline package enum Admission {
        /// Apply it.
        case inTime
        /// A second call of the same completion (`completionCalledTwice`): nothing changes.
        case repeated
        /// The callback is no longer outstanding (`lateCompletion`): nothing changes.
        case late
        /// The callback's deadline has passed, even if its timer has not fired yet: the deadline's
        /// own effect, then a `lateCompletion`.
        case pastDeadline
    }

    // MARK: Resolutions, for drivers that await an answer

    /// Keeps how callback `id` ended, for an awaiting driver.
    @inlinable package mutating func resolve(_ id: UInt64, _ how: @autoclosure () -> Resolution<Answer>) {
        if keepsResolutions { resolution = (id, how()) }
    }

    /// Callback `id`, outstanding, ends without taking effect (the flow ends, or it timed out): an
    /// awaiting driver learns why, unless its answer was kept already (an answer that ends the
    /// flow is the driver's to get).
    @inlinable package mutating func endUnanswered(_ id: UInt64, _ method: String, _ reason: @autoclosure () -> String)
    {
        guard keepsResolutions, resolution?.id != id else { return }
        resolution = (id, .ended(CallbackEnded(callback: method, reason: reason())))
    }

    /// How the callback that ended during the last event ended, once.
    @inlinable package mutating func takeResolution() -> (id: UInt64, resolution: Resolution<Answer>)? {
        defer { resolution = nil }
        return resolution
    }
}
