import CheckoutFlows
import Dispatch

/// The ordered record shared by the methods of one recording double: every call, `>method` and
/// `<method` marks around each delegate call, and the waiters of `waitUntilCalled`.
package final class CallLog: Sendable {
    private struct Waiter {
        var id: UInt64
        var method: String
        var count: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var calls: [RecordedCall] = []
        var trace: [String] = []
        /// How many calls of each method have been announced to waiters.
        var announced: [String: Int] = [:]
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
    }

    private let state = LockedValue(State())

    package init() {}

    package var calls: [RecordedCall] { state.withLock { $0.calls } }
    package var trace: [String] { state.withLock { $0.trace } }

    /// How many calls of `method` have been announced.
    func announcedCount(_ method: String) -> Int { state.withLock { $0.announced[method, default: 0] } }

    /// Records that a delegate method was entered.
    package func enter(_ method: String, _ arguments: [Any]) {
        let call = RecordedCall(method: method, arguments: arguments.map { String(describing: $0) })
        state.withLock { state in
            state.calls.append(call)
            state.trace.append(">" + method)
        }
    }

    /// Records that a delegate method returned, and wakes whoever waits for it.
    package func exit(_ method: String) {
        state.withLock { $0.trace.append("<" + method) }
        announce(method)
    }

    /// Records a call that is not traced (a backend call), and wakes whoever waits for it.
    package func record(_ method: String, _ arguments: [Any]) {
        let call = RecordedCall(method: method, arguments: arguments.map { String(describing: $0) })
        state.withLock { $0.calls.append(call) }
        announce(method)
    }

    /// Returns true once `method` has been announced `count` times, or false when `timeout`
    /// (real time) passes first.
    package func wait(for method: String, count: Int, timeout: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id: UInt64? = state.withLock { state in
                if state.announced[method, default: 0] >= count { return nil }
                state.nextWaiterID += 1
                state.waiters.append(
                    Waiter(id: state.nextWaiterID, method: method, count: count, continuation: continuation))
                return state.nextWaiterID
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval) { [self] in
                let expired: CheckedContinuation<Bool, Never>? = state.withLock { state in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index).continuation
                }
                expired?.resume(returning: false)
            }
        }
    }

    private func announce(_ method: String) {
        // Decide under the lock, resume after it.
        let ready: [CheckedContinuation<Bool, Never>] = state.withLock { state in
            state.announced[method, default: 0] += 1
            let count = state.announced[method, default: 0]
            let isReady = { (waiter: Waiter) in waiter.method == method && waiter.count <= count }
            let ready = state.waiters.filter(isReady).map(\.continuation)
            state.waiters.removeAll(where: isReady)
            return ready
        }
        for continuation in ready { continuation.resume(returning: true) }
    }
}

extension Duration {
    /// The duration for Dispatch, in nanoseconds: none when negative, `.never` beyond about 292
    /// years (a caller's huge timeout waits forever rather than trap on an overflow).
    var dispatchInterval: DispatchTimeInterval {
        guard self > .zero else { return .nanoseconds(0) }
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (nanos, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflow, !carry, let interval = Int(exactly: nanos) else { return .never }
        return .nanoseconds(interval)
    }
}
