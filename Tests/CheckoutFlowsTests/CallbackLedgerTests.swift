import CheckoutCore
import CheckoutFlows
import XCTest

/// The one bookkeeping value every machine keeps (issue 16): how an answer is taken, and what an
/// awaiting driver learns.
final class CallbackLedgerTests: XCTestCase {
    // spec E2, E4: the admission of an answer, in the order the machines rely on.
    func testAnAnswerIsTakenOnceInTimeAndOnlyForTheOutstandingCallback() {
        var ledger = CallbackLedger<String>(timeout: .seconds(10))
        let first = ledger.open("a", .didSelectShippingMethod)
        XCTAssertEqual(first.id, 1)
        XCTAssertEqual(ledger.lastOpenedID, 1)
        XCTAssertNil(ledger.deadline(of: 1), "no deadline before the delegate call")
        ledger.called(1, at: .seconds(5))
        XCTAssertEqual(ledger.deadline(of: 1), .seconds(15))
        ledger.called(1, at: .seconds(6))
        XCTAssertEqual(ledger.deadline(of: 1), .seconds(15), "the deadline starts once")

        XCTAssertEqual(ledger.admit(1, first: true, outstanding: 1, at: .seconds(14)), .inTime)
        XCTAssertEqual(ledger.admit(1, first: false, outstanding: 1, at: .seconds(14)), .repeated)
        XCTAssertEqual(ledger.admit(1, first: true, outstanding: nil, at: .seconds(14)), .late)
        XCTAssertEqual(ledger.admit(1, first: true, outstanding: 2, at: .seconds(14)), .late)
        XCTAssertEqual(
            ledger.admit(1, first: true, outstanding: 1, at: .seconds(15)), .pastDeadline,
            "an answer exactly at the deadline is late")
        XCTAssertEqual(
            ledger.admit(1, first: false, outstanding: nil, at: .seconds(99)), .repeated,
            "a repeat is a repeat, whenever it comes")

        let untimed = ledger.open("b", .willComplete, timed: false)
        ledger.called(untimed.id, at: .seconds(20))
        XCTAssertNil(ledger.deadline(of: untimed.id))
        XCTAssertEqual(ledger.admit(untimed.id, first: true, outstanding: untimed.id, at: .seconds(999)), .inTime)
        XCTAssertNil(ledger.deadline(of: 1), "only the callback opened last has a deadline")
    }

    // spec E2: what a driver that awaits an answer learns, once, and only when it asked.
    func testResolutionsAreKeptOnlyWhenAskedAndAnAnswerIsNotOverwrittenByTheEnd() {
        var ledger = CallbackLedger<String>(timeout: nil)
        let first = ledger.open("a", .didEnterAddress)
        ledger.resolve(first.id, .answered("valid"))
        XCTAssertNil(ledger.takeResolution(), "nothing kept until a driver awaits")

        ledger.keepsResolutions = true
        ledger.resolve(first.id, .answered("valid"))
        ledger.endUnanswered(first.id, "didEnterAddress", "finished")
        guard case (first.id, .answered("valid"))? = ledger.takeResolution() else {
            return XCTFail("the answer that ended the flow is the driver's")
        }
        XCTAssertNil(ledger.takeResolution(), "taken once")

        let second = ledger.open("b", .didEnterAddress)
        ledger.endUnanswered(second.id, "didEnterAddress", "cancelled")
        guard case (second.id, .ended(let ended))? = ledger.takeResolution() else {
            return XCTFail("an unanswered callback ends with why")
        }
        XCTAssertEqual(ended.callback, "didEnterAddress")
        XCTAssertEqual(ended.reason, "cancelled")
    }
}
