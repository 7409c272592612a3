import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutPayContextTesting
import CheckoutTesting
import XCTest

/// Each assertion of the kit, under the recording reporter: one call that must fail fails, once,
/// at the caller's line, with what it saw; one that must pass records nothing.
final class AssertionTests: XCTestCase {
    private typealias F = KitFixture

    /// Checks that `failures` is one failure at `line` of this file whose message contains
    /// `text`.
    private func assertOneFailure(
        _ failures: [TestFailure],
        at line: UInt,
        containing text: String,
        file: StaticString = #filePath,
        testLine: UInt = #line
    ) {
        XCTAssertEqual(failures.count, 1, "\(failures)", file: file, line: testLine)
        guard let failure = failures.first else { return }
        XCTAssertEqual(failure.location.fileID, "CheckoutTestingTests/AssertionTests.swift", file: file, line: testLine)
        XCTAssertTrue(failure.location.filePath.hasSuffix("AssertionTests.swift"), file: file, line: testLine)
        XCTAssertEqual(failure.location.line, Int(line), file: file, line: testLine)
        XCTAssertGreaterThan(failure.location.column, 0, file: file, line: testLine)
        XCTAssertTrue(failure.message.contains(text), failure.message, file: file, line: testLine)
    }

    /// A finished shipping flow that recorded completionCalledTwice (not strict).
    private func flowAnsweredTwice() throws -> ShippingAddressFlow {
        let delegate = RecordingShippingAddressDelegate(didEnterAddress: .answerTwice(.valid))
        let flow = try ShippingAddressFlow(
            configuration: .init(), delegate: delegate, options: FlowOptions(clock: ManualClock()))
        flow.present()
        flow.enterAddress(F.jane())
        return flow
    }

    /// A pay context that completed without confirming: the merchant's calls and the sheet's.
    private func completedContext() async throws -> PayContext {
        let delegate = RecordingPayContextDelegate(didCreatePaymentMethod: .answer(.completeWithoutConfirming))
        let context = try PayContext(
            request: F.request(), backend: RecordingPaymentBackend(), delegate: delegate, options: .testing())
        context.present()
        _ = try await context.selectShippingContactAndWait(F.jane())
        _ = try await context.authorizeAndWait(F.card(.success))
        let outcome = await waitUntilEnded(context)
        XCTAssertEqual(outcome?.status, .success)
        return context
    }

    func testAssertDelegateCallsOnATranscript() throws {
        let flow = try flowAnsweredTwice()
        var line: UInt = 0
        let failures = withRecordedFailures {
            line = #line + 1
            assertDelegateCalls(flow.transcript, ["didFinish"])
        }
        assertOneFailure(failures, at: line, containing: #"delegate calls ["didEnterAddress", "didFinish"] are not"#)
        XCTAssertTrue(failures.first?.message.contains(flow.transcript.text()) ?? false, "with the transcript")
        XCTAssertEqual(
            withRecordedFailures { assertDelegateCalls(flow.transcript, ["didEnterAddress", "didFinish"]) }, [])
    }

    func testAssertDelegateCallsOnAFlow() throws {
        let flow = try flowAnsweredTwice()
        var line: UInt = 0
        let failures = withRecordedFailures {
            line = #line + 1
            assertDelegateCalls(flow, ["nope"])
        }
        assertOneFailure(failures, at: line, containing: #"are not ["nope"]"#)
        XCTAssertEqual(withRecordedFailures { assertDelegateCalls(flow, ["didEnterAddress", "didFinish"]) }, [])
    }

    // spec P2, P6: for a pay context, the merchant's calls only (not the sheet's nor the
    // backend's); the transcript form sees the context's and the sheet's.
    func testAssertDelegateCallsOnAPayContext() async throws {
        let context = try await completedContext()
        let merchant = ["didSelectShippingContact", "didCreatePaymentMethod", "willComplete", "didComplete"]
        XCTAssertEqual(context.delegateCalls, merchant)
        var line: UInt = 0
        let failures = withRecordedFailures {
            line = #line + 1
            assertDelegateCalls(context, context.transcript.delegateCalls)
        }
        assertOneFailure(failures, at: line, containing: "are not")
        XCTAssertEqual(withRecordedFailures { assertDelegateCalls(context, merchant) }, [])
        XCTAssertNotEqual(context.transcript.delegateCalls, merchant, "the merged transcript has the sheet's calls too")
        XCTAssertEqual(
            withRecordedFailures { assertDelegateCalls(context.transcript, context.transcript.delegateCalls) }, [])
    }

    func testAssertNoViolations() async throws {
        let flow = try flowAnsweredTwice()
        var lines: [UInt] = []
        let onFlow = withRecordedFailures {
            lines.append(#line + 1)
            assertNoViolations(flow)
        }
        assertOneFailure(
            onFlow, at: lines[0], containing: "1 violation(s): completionCalledTwice in didEnterAddress #1")
        let onTranscript = withRecordedFailures {
            lines.append(#line + 1)
            assertNoViolations(flow.transcript)
        }
        assertOneFailure(onTranscript, at: lines[1], containing: "completionCalledTwice")

        let clean = try ShippingAddressFlow(
            configuration: .init(), delegate: RecordingShippingAddressDelegate(didEnterAddress: .answer(.valid)))
        clean.present()
        clean.enterAddress(F.jane())
        XCTAssertEqual(withRecordedFailures { assertNoViolations(clean) }, [])
        XCTAssertEqual(withRecordedFailures { assertNoViolations(clean.transcript) }, [])
        let context = try await completedContext()
        XCTAssertEqual(withRecordedFailures { assertNoViolations(context) }, [])
    }

    // spec E2: a violation on the pay context's sheet (the merchant answered a forwarded
    // callback twice) fails assertNoViolations on the context.
    func testAssertNoViolationsOnAPayContextSeesTheSheet() throws {
        let delegate = RecordingPayContextDelegate()
        delegate.didSelectShippingContact.script(.answerTwice(ShippingContactUpdate(summaryItems: F.summary("20.00"))))
        let context = try PayContext(
            request: F.request(), backend: RecordingPaymentBackend(), delegate: delegate,
            options: FlowOptions(clock: ManualClock()))
        context.present()
        context.selectShippingContact(F.jane())
        var line: UInt = 0
        let failures = withRecordedFailures {
            line = #line + 1
            assertNoViolations(context)
        }
        assertOneFailure(failures, at: line, containing: "completionCalledTwice in didSelectShippingContact")
        context.cancel()
    }

    // spec E6.
    func testAssertNoNesting() throws {
        let delegate = RecordingShippingAddressDelegate(didEnterAddress: .answer(.valid))
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate)
        flow.present()
        flow.enterAddress(F.jane())
        XCTAssertEqual(withRecordedFailures { assertNoNesting(delegate) }, [])

        // A delegate whose trace shows an unfinished call: the check fails.
        let unfinished = F.UnfinishedTrace()
        var line: UInt = 0
        let failures = withRecordedFailures {
            line = #line + 1
            assertNoNesting(unfinished)
        }
        assertOneFailure(failures, at: line, containing: "didEnterAddress has not returned")
    }

    func testCompletingACallThatDoesNotExist() throws {
        let delegate = RecordingShippingAddressDelegate(didEnterAddress: .hold)
        var line: UInt = 0
        let failures = withRecordedFailures {
            line = #line + 1
            delegate.didEnterAddress.complete(.valid)
        }
        assertOneFailure(failures, at: line, containing: "didEnterAddress has no call to complete (0 calls)")

        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate)
        flow.present()
        flow.enterAddress(F.jane())
        XCTAssertEqual(withRecordedFailures { delegate.didEnterAddress.complete(.valid) }, [])
        XCTAssertEqual(flow.outcome, .finished(address: F.jane(), shippingMethod: nil))
        let second = withRecordedFailures { delegate.didEnterAddress.complete(.valid, call: 1) }
        XCTAssertEqual(second.map(\.message), ["didEnterAddress has no call number 1 to complete (1 calls)"])
    }

    func testReportTestFailureAndNestedRecorders() {
        var line: UInt = 0
        var inner: [TestFailure] = []
        let outer = withRecordedFailures {
            reportTestFailure("outer")
            inner = withRecordedFailures {
                line = #line + 1
                reportTestFailure("inner")
            }
        }
        XCTAssertEqual(outer.map(\.message), ["outer"])
        assertOneFailure(inner, at: line, containing: "inner")
        XCTAssertEqual(
            inner.first?.description,
            "CheckoutTestingTests/AssertionTests.swift:\(line):\(inner.first?.location.column ?? 0): inner")
    }

    func testARecorderIsSeenByChildTasks() async {
        let failures = await withRecordedFailures {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { reportTestFailure("from a child task") }
            }
        }
        XCTAssertEqual(failures.map(\.message), ["from a child task"])
    }
}
