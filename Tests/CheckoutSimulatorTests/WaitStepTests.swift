import CheckoutFlows
import CheckoutSimulator
import Foundation
import XCTest

/// A `wait` step crosses deadlines one at a time (spec E4: virtual time): what one starts on
/// other threads (the pay context's backend requests after a late answer) is over before the next
/// fires, so a run, a `test` and an `explore` replay end the same on every run.
final class WaitStepTests: XCTestCase {
    let cli = SimHarness()

    // spec E4: the deadlines fire in deadline order (the first scheduled first among equal ones),
    // each with the time at its deadline, the runner settling after each; one scheduled by a fired
    // action fires too when it is due, and a cancelled one never.
    func testTheClockFiresOneDeadlineAtATimeAndSettlesBetween() async {
        let clock = ManualClock()
        let log = LockedValue([String]())
        @Sendable func record(_ text: String) { log.withLock { $0.append(text) } }
        _ = clock.schedule(at: .seconds(20)) { record("b at \(clock.now)") }
        _ = clock.schedule(at: .seconds(10)) {
            record("a at \(clock.now)")
            _ = clock.schedule(at: .seconds(15)) { record("a's follower at \(clock.now)") }
        }
        _ = clock.schedule(at: .seconds(20)) { record("c at \(clock.now)") }
        let cancelled = clock.schedule(at: .seconds(5)) { record("cancelled") }
        _ = clock.schedule(at: .seconds(40)) { record("too late") }
        clock.cancel(cancelled)
        await clock.advance(by: .seconds(30)) { record("settle") }
        XCTAssertEqual(
            log.withLock { $0 },
            [
                "a at 10.0 seconds", "settle", "a's follower at 15.0 seconds", "settle", "b at 20.0 seconds", "settle",
                "c at 20.0 seconds", "settle",
            ])
        XCTAssertEqual(clock.now, .seconds(30))
        XCTAssertEqual(clock.pendingDeadlines, 1)
        clock.discardPendingDeadlines()
        XCTAssertEqual(clock.pendingDeadlines, 0)
    }

    // spec E4: the intent comes 10 s late, within its deadline, while the customer waits 35 s: the
    // pay context's requests after it take no virtual time, so the sheet's deadline (30 s) never
    // comes first. Before the clock settled between deadlines, this ended at random (most runs
    // timed out and ended in userCancellation).
    func testWhatALateAnswerStartsIsOverBeforeTheNextDeadline() async throws {
        let scenario = try Scenario.load(
            contentsOfFile: "\(CommandLineTests.examples)/pay-context/late-intent-in-time.json")
        for _ in 0..<20 {
            let (result, differences) = await scenario.check()
            XCTAssertEqual(differences, [], result.transcript.text())
            XCTAssertEqual(result.outcome, "error(insufficient_funds)")
        }
    }

    // The replay printed by explore runs the session it names, the same on every run; and a
    // well-behaved pay-context merchant, late within its deadlines only as explore makes it, keeps
    // the contract (the sheet's deadline is not crossed by requests that take no virtual time).
    func testAnExploreReplayIsTheSameOnEveryRun() async {
        let file = "\(CommandLineTests.examples)/pay-context/decline.json"
        // The session that, before, timed out on some runs and not on others.
        let replay = ["explore", file, "--sessions", "1", "--seed", "10372713005361028296"]
        let first = await cli.sim(replay)
        for _ in 0..<5 {
            let again = await cli.sim(replay)
            XCTAssertEqual(again.out, first.out)
        }
        XCTAssertEqual(first.code, 0, first.out)
        let explored = await cli.sim("explore", file, "-n", "300", "-s", "11")
        XCTAssertEqual(explored.code, 0, explored.out)
        XCTAssertTrue(explored.out.hasSuffix("no invariant broke and the merchant kept the contract in every session"))
    }
}
