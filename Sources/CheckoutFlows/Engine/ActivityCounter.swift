/// Counts work in flight (backend calls, async delegate methods) so that a driver can wait until
/// a flow has nothing running in the background, without sleeping, and cancels that work when
/// the flow ends.
@usableFromInline
package final class ActivityCounter: Sendable {
    private struct State {
        var running = 0
        /// How many pieces of work have ever started.
        var started: UInt64 = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// The tasks still running, by the number they took when they started.
        var tasks: [UInt64: Task<Void, Never>] = [:]
        /// Tasks that finished before they could be registered.
        var finishedEarly: Set<UInt64> = []
        /// Set by ``cancelAll()``: a task started afterwards is cancelled at once.
        var isCancelled = false
    }

    private let state = LockedValue(State())

    package init() {}

    /// One more piece of work has started; returns its number.
    @discardableResult
    package func begin() -> UInt64 {
        state.withLock { state in
            state.running += 1
            state.started += 1
            return state.started
        }
    }

    /// A piece of work has finished.
    package func end() {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.running -= 1
            guard state.running == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// How many pieces of work have ever started, when none is running; nil while one is. Two looks
    /// that find it idle with the same mark saw no work start in between.
    package var idleMark: UInt64? {
        state.withLock { $0.running == 0 ? $0.started : nil }
    }

    /// Returns once nothing is running (at once, without suspending, when nothing is).
    @usableFromInline package func waitUntilIdle() async {
        if idleMark != nil { return }
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state in
                if state.running == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Runs `body` in a task counted as work in flight, cancelled by ``cancelAll()``.
    @usableFromInline package func task(_ body: @escaping @Sendable () async -> Void) {
        let number = begin()
        let task = Task {
            await body()
            self.finished(number)
        }
        let cancelNow = state.withLock { state -> Bool in
            if state.finishedEarly.remove(number) != nil { return false }
            state.tasks[number] = task
            return state.isCancelled
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels every task running now and every task started from now on (the flow has ended).
    @usableFromInline package func cancelAll() {
        let tasks: [Task<Void, Never>] = state.withLock { state in
            state.isCancelled = true
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
    }

    private func finished(_ number: UInt64) {
        state.withLock { state in
            if state.tasks.removeValue(forKey: number) == nil { state.finishedEarly.insert(number) }
        }
        end()
    }
}
