import CheckoutFlows
import Dispatch
import Foundation
import XCTest

/// The engine's lock (``EngineLock``, under ``LockedValue`` and every flow's runner): mutual
/// exclusion under contention, sleepers woken when the holder lets go, locks that share a parking
/// slot kept apart. (CI runs these under ThreadSanitizer too, which checks that the lock orders
/// what it guards.)
final class EngineLockTests: XCTestCase {
    /// Runs `body(thread)` on `threads` threads at once and waits for all of them (at most
    /// `timeout` seconds: a lost wake-up fails here instead of hanging).
    private func onThreads(
        _ threads: Int, timeout: Double = 60, file: StaticString = #filePath, line: UInt = #line,
        _ body: @escaping @Sendable (Int) -> Void
    ) {
        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                body(thread)
                group.leave()
            }
        }
        XCTAssertEqual(
            group.wait(timeout: .now() + timeout), .success, "a thread never got the lock", file: file, line: line)
    }

    func testIncrementsFromManyThreadsAreNotLost() {
        let counter = LockedValue((count: 0, inside: 0, overlaps: 0))
        let threads = 4
        let perThread = 50_000
        onThreads(threads) { _ in
            for _ in 0..<perThread {
                counter.withLock { state in
                    if state.inside != 0 { state.overlaps += 1 }
                    state.inside += 1
                    state.count += 1
                    state.inside -= 1
                }
            }
        }
        let state = counter.withLock { $0 }
        XCTAssertEqual(state.count, threads * perThread)
        XCTAssertEqual(state.overlaps, 0)
    }

    /// A holder that keeps the lock far longer than the waiters spin: they sleep, and its release
    /// wakes every one of them.
    func testSleepersWakeWhenTheHolderReleases() {
        let lock = LockedValue([Int]())
        let held = DispatchSemaphore(value: 0)
        let waiters = 3
        let holdFor = 0.2
        let started = Date()
        onThreads(waiters + 1) { thread in
            if thread == 0 {
                lock.withLock { order in
                    held.signal()
                    Thread.sleep(forTimeInterval: holdFor)
                    order.append(0)
                }
            } else {
                held.wait()
                held.signal()
                lock.withLock { $0.append(thread) }
            }
        }
        let order = lock.withLock { $0 }
        XCTAssertEqual(order.first, 0, "a waiter got the lock while it was held")
        XCTAssertEqual(order.sorted(), Array(0...waiters))
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), holdFor)
    }

    /// Many locks, far more than the parking slots, so that slots are shared: each lock's count is
    /// exact, and a waiter woken for another lock of its slot does not take its own while held.
    func testLocksSharingParkingSlotsStayApart() {
        let locks = (0..<300).map { _ in LockedValue((count: 0, inside: false, overlaps: 0)) }
        let threads = 4
        let rounds = 20_000
        onThreads(threads) { thread in
            var index = thread
            for round in 0..<rounds {
                index = (index &* 31 &+ round) % locks.count
                locks[index].withLock { state in
                    if state.inside { state.overlaps += 1 }
                    state.inside = true
                    if round % 1_000 == 0 { Thread.sleep(forTimeInterval: 0.001) }  // make sleepers
                    state.count += 1
                    state.inside = false
                }
            }
        }
        let counts = locks.map { $0.withLock { $0 } }
        XCTAssertEqual(counts.reduce(0) { $0 + $1.count }, threads * rounds)
        XCTAssertEqual(counts.reduce(0) { $0 + $1.overlaps }, 0)
    }
}
