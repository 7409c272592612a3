import CheckoutFlows

/// The ordered record shared by the methods of one recording double: every call, `>method` and
/// `<method` marks around each delegate call, and the waiters of `waitUntilCalled`.
final class CallLog: Sendable {
    private struct State {
        var calls: [RecordedCall] = []
        var trace: [String] = []
        /// How many calls of each method have been announced to waiters.
        var announced: [String: Int] = [:]
        var waiters: [(method: String, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = LockedValue(State())

    var calls: [RecordedCall] { state.withLock { $0.calls } }
    var trace: [String] { state.withLock { $0.trace } }

    /// Records that a delegate method was entered.
    func enter(_ method: String, _ arguments: [Any]) {
        let call = RecordedCall(method: method, arguments: arguments.map { String(describing: $0) })
        state.withLock { state in
            state.calls.append(call)
            state.trace.append(">" + method)
        }
    }

    /// Records that a delegate method returned, and wakes whoever waits for it.
    func exit(_ method: String) {
        state.withLock { $0.trace.append("<" + method) }
        announce(method)
    }

    /// Records a call that is not traced (a backend call), and wakes whoever waits for it.
    func record(_ method: String, _ arguments: [Any]) {
        let call = RecordedCall(method: method, arguments: arguments.map { String(describing: $0) })
        state.withLock { $0.calls.append(call) }
        announce(method)
    }

    /// Returns once `method` has been announced `count` times.
    func wait(for method: String, count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.announced[method, default: 0] >= count { return true }
                state.waiters.append((method, count, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func announce(_ method: String) {
        // Decide under the lock, resume after it.
        let ready: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.announced[method, default: 0] += 1
            let count = state.announced[method, default: 0]
            let isReady = { (waiter: (method: String, count: Int, continuation: CheckedContinuation<Void, Never>)) in
                waiter.method == method && waiter.count <= count
            }
            let ready = state.waiters.filter(isReady).map(\.continuation)
            state.waiters.removeAll(where: isReady)
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}
