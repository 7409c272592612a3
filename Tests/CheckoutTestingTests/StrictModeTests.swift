import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutPayContextTesting
import CheckoutTesting
import Dispatch
import XCTest

/// Strict mode (spec E2) under the recording reporter: `FlowOptions.testing()` fails the test for
/// the delegate's faults only, at the caller of `testing()`, changes nothing in the flow, and
/// checks the expected violations when the flow ends.
final class StrictModeTests: XCTestCase {
    private typealias F = KitFixture
    private typealias ShippingRecorder = RecordingShippingAddressDelegate
    private typealias AuthorizationRecorder = RecordingPaymentAuthorizationDelegate

    private func presented(_ delegate: ShippingRecorder, _ options: FlowOptions) throws -> ShippingAddressFlow {
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate, options: options)
        XCTAssertEqual(flow.present(), .accepted)
        return flow
    }

    private func presented(_ delegate: AuthorizationRecorder, _ options: FlowOptions) throws
        -> PaymentAuthorizationFlow
    {
        let flow = try PaymentAuthorizationFlow(request: F.request(), delegate: delegate, options: options)
        XCTAssertEqual(flow.present(), .accepted)
        return flow
    }

    // spec E2: completionCalledTwice fails the test at the line of `testing()`; the flow does
    // what it does without strict mode.
    func testCompletionCalledTwiceIsReported() throws {
        var line: UInt = 0
        var strictFlow: ShippingAddressFlow?
        let failures = try withRecordedFailures {
            line = #line + 1
            let options = FlowOptions.testing()
            strictFlow = try presented(ShippingRecorder(didEnterAddress: .answerTwice(.valid)), options)
            strictFlow?.enterAddress(F.jane())
        }
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertEqual(failures.first?.location.line, Int(line))
        XCTAssertEqual(failures.first?.location.fileID, "CheckoutTestingTests/StrictModeTests.swift")
        XCTAssertTrue(
            failures.first?.message.hasPrefix("contract violation: completionCalledTwice in didEnterAddress #1")
                ?? false,
            "\(failures)")

        let plain = try presented(
            ShippingRecorder(didEnterAddress: .answerTwice(.valid)), FlowOptions(clock: ManualClock()))
        plain.enterAddress(F.jane())
        XCTAssertEqual(strictFlow?.outcome, plain.outcome, "strict mode changes nothing")
        XCTAssertEqual(strictFlow?.violations.map(\.kind), plain.violations.map(\.kind))
    }

    // spec E4: an unexpected completionTimedOut fails the test.
    func testCompletionTimedOutIsReported() throws {
        let clock = ManualClock()
        let failures = try withRecordedFailures {
            let flow = try presented(ShippingRecorder(didEnterAddress: .hold), .testing(clock: clock))
            flow.enterAddress(F.jane())
            clock.advance(by: .seconds(30))
            XCTAssertNotNil(flow.step.addressError, "back on the address step with the timeout error")
            flow.cancel()
        }
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertTrue(failures.first?.message.contains("completionTimedOut in didEnterAddress #1 at 30s") ?? false)
    }

    // spec E7: an invalid update fails the test; the flow ends as without strict mode.
    func testInvalidUpdateIsReported() throws {
        let delegate = AuthorizationRecorder()
        delegate.didSelectShippingContact.script(.answer(ShippingContactUpdate(summaryItems: [])))
        var flow: PaymentAuthorizationFlow?
        let failures = try withRecordedFailures {
            flow = try presented(delegate, .testing())
            flow?.selectShippingContact(F.jane())
        }
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertTrue(failures.first?.message.contains("invalidUpdate in didSelectShippingContact") ?? false)
        guard case .failed = flow?.outcome else { return XCTFail("\(String(describing: flow?.outcome))") }
    }

    // spec E2, E3: an answer that crosses the customer's cancel is recorded as lateCompletion and
    // is not a failure.
    func testLateCompletionAfterCancelIsNotReported() throws {
        let delegate = ShippingRecorder(didEnterAddress: .hold)
        var flow: ShippingAddressFlow?
        let failures = try withRecordedFailures {
            flow = try presented(delegate, .testing())
            flow?.enterAddress(F.jane())
            flow?.cancel()
            delegate.didEnterAddress.complete(.valid)
        }
        XCTAssertEqual(failures, [])
        XCTAssertEqual(flow?.violations.map(\.kind), [.lateCompletion])
        XCTAssertEqual(flow?.outcome, .cancelled)
    }

    // spec E2: a test of the merchant's timeout handling expects completionTimedOut: not a
    // failure, and the late answer after it neither.
    func testAnExpectedTimeoutIsNotReported() throws {
        let clock = ManualClock()
        let delegate = AuthorizationRecorder()
        delegate.didSelectShippingContact.script(.hold)
        var flow: PaymentAuthorizationFlow?
        let failures = try withRecordedFailures {
            flow = try presented(delegate, .testing(clock: clock, expecting: [.completionTimedOut]))
            flow?.selectShippingContact(F.jane())
            clock.advance(by: .seconds(30))
            delegate.didSelectShippingContact.complete(flow!.defaultShippingContactUpdate())
        }
        XCTAssertEqual(failures, [])
        XCTAssertEqual(flow?.outcome, .timedOut)
        XCTAssertEqual(flow?.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
    }

    // spec E2: an expected violation that never happened fails the test when the flow ends, not
    // before, once, at the line of `testing()`.
    func testAnExpectedViolationThatNeverHappenedIsReportedAtTheEnd() throws {
        let recorder = TestFailureRecorder()
        let line: UInt = #line + 2
        let options = TestFailureRecorder.$current.withValue(recorder) {
            FlowOptions.testing(expecting: [.completionTimedOut, .completionCalledTwice])
        }
        let flow = try presented(ShippingRecorder(didEnterAddress: .answerTwice(.invalid(message: "no"))), options)
        flow.enterAddress(F.jane())
        XCTAssertEqual(recorder.failures, [], "completionCalledTwice was expected; nothing is checked before the end")
        flow.cancel()
        XCTAssertEqual(
            recorder.failures.map(\.message),
            ["expected violation completionTimedOut did not happen before the flow ended"])
        XCTAssertEqual(recorder.failures.first?.location.line, Int(line))
    }

    // The options shared by two flows: their violations count together, and a missing kind is
    // reported once, though both flows end.
    func testSharedOptionsReportAMissingKindOnce() throws {
        let failures = try withRecordedFailures {
            let options = FlowOptions.testing(expecting: [.completionTimedOut])
            for _ in 0..<2 {
                let flow = try presented(ShippingRecorder(didEnterAddress: .answer(.valid)), options)
                flow.enterAddress(F.jane())
                XCTAssertNotNil(flow.outcome)
            }
        }
        XCTAssertEqual(
            failures.map(\.message), ["expected violation completionTimedOut did not happen before the flow ended"])

        let clock = ManualClock()
        let seen = try withRecordedFailures {
            let options = FlowOptions.testing(clock: clock, expecting: [.completionTimedOut])
            let first = try presented(ShippingRecorder(didEnterAddress: .hold), options)
            first.enterAddress(F.jane())
            clock.advance(by: .seconds(30))
            first.cancel()
            let second = try presented(ShippingRecorder(didEnterAddress: .answer(.valid)), options)
            second.enterAddress(F.jane())
            XCTAssertNotNil(second.outcome)
        }
        XCTAssertEqual(seen, [], "the first flow's timeout counts for the second")
    }

    // spec P6: the pay context checks its expectations once, at its own end (its sheet's end
    // checks nothing).
    func testAPayContextChecksItsExpectationsOnceAtItsEnd() async throws {
        let recorder = TestFailureRecorder()
        let options = TestFailureRecorder.$current.withValue(recorder) {
            FlowOptions.testing(expecting: [.invalidUpdate])
        }
        let context = try PayContext(
            request: F.request(), backend: RecordingPaymentBackend(), delegate: RecordingPayContextDelegate(),
            options: options)
        context.present()
        _ = try await context.selectShippingContactAndWait(F.jane())
        XCTAssertEqual(recorder.failures, [])
        let outcome = try await context.cancelAndWait()
        XCTAssertEqual(outcome.status, .userCancellation)
        XCTAssertEqual(
            recorder.failures.map(\.message), ["expected violation invalidUpdate did not happen before the flow ended"])
    }

    // The options keep the reporter of the task that made them: a violation reported later,
    // from another thread, outside the recorder's scope, still goes to that recorder.
    func testTheReporterIsCapturedWhenTheOptionsAreMade() throws {
        let recorder = TestFailureRecorder()
        let options = TestFailureRecorder.$current.withValue(recorder) { FlowOptions.testing() }
        guard case .xcTest = TestFailureReporter.current.destination else {
            return XCTFail("outside the scope, the current reporter is XCTest's")
        }
        let delegate = ShippingRecorder(didEnterAddress: .hold)
        let flow = try presented(delegate, options)
        flow.enterAddress(F.jane())
        let completion = try XCTUnwrap(delegate.didEnterAddress.completion())
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            completion(.valid)
            completion(.valid)
            done.signal()
        }
        done.wait()
        XCTAssertEqual(recorder.failures.count, 1, "\(recorder.failures)")
        XCTAssertTrue(recorder.failures.first?.message.contains("completionCalledTwice") ?? false)
    }
}

extension ShippingAddressStep {
    /// The error of the address step, or nil on another step.
    fileprivate var addressError: String? {
        if case .address(let error) = self { return error }
        return nil
    }
}
