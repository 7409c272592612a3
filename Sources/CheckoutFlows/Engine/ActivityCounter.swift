/// Counts work in flight (backend calls, async delegate methods) so that a driver can wait until
/// a flow has nothing running in the background, without sleeping.
package final class ActivityCounter: Sendable {
    private struct State {
        var running = 0
        /// How many pieces of work have ever started.
        var started: UInt64 = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValue(State())

    package init() {}

    /// One more piece of work has started.
    package func begin() {
        state.withLock { state in
            state.running += 1
            state.started += 1
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
    package func waitUntilIdle() async {
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

    /// Runs `body` in a task counted as work in flight.
    package func task(_ body: @escaping @Sendable () async -> Void) {
        begin()
        Task {
            await body()
            end()
        }
    }
}
