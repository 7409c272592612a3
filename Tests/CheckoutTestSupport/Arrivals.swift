import CheckoutFlows

/// Reports that reach a test from other threads (a violation delivered by another thread's drain,
/// a session's end decided on the clock, a store's save begun), and a wait until enough have
/// arrived.
///
/// The wait is woken by the arrival itself, never by polling: the timeout is only the failure
/// path, so a test that passes spends no time in it, and a test that fails says what arrived
/// instead of hanging.
package final class Arrivals<Element: Sendable>: Sendable {
    private struct Waiter {
        var count: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var items: [Element] = []
        var waiters: [UInt64: Waiter] = [:]
        var lastWaiter: UInt64 = 0
        /// Waiters whose wait ended (timed out) before they were registered.
        var expired: Set<UInt64> = []
    }

    private let state = LockedValue(State())

    package init() {}

    /// Everything that has arrived, in order.
    package var items: [Element] { state.withLock { $0.items } }

    /// Records an arrival and wakes the waits it completes.
    package func append(_ item: Element) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.items.append(item)
            let due = state.waiters.filter { $0.value.count <= state.items.count }
            for id in due.keys { state.waiters[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Waits until `count` items have arrived, or `timeout` has passed; returns what arrived.
    @discardableResult
    package func waitFor(_ count: Int, timeout: Duration = .seconds(10)) async -> [Element] {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.arrival(of: count) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return items
    }

    private func arrival(of count: Int) async {
        let id = state.withLock { state -> UInt64 in
            state.lastWaiter += 1
            return state.lastWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.items.count >= count || state.expired.remove(id) != nil { return true }
                    state.waiters[id] = Waiter(count: count, continuation: continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            expire(id)
        }
    }

    private func expire(_ id: UInt64) {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                state.expired.insert(id)
                return nil
            }
            return waiter.continuation
        }
        waiting?.resume()
    }
}
