import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import Dispatch
import Testing

/// The kit under Swift Testing: its failures are recorded with `Issue.record` at the caller
/// (proved with `withKnownIssue`), never lost as `XCTFail` would be, and it is silent when it
/// must be.
@Suite struct SwiftTestingKitTests {
    private typealias F = KitFixture

    /// The issues recorded by `body`, which must record at least one; each must be at `line` of
    /// this file.
    private func knownIssues(at line: UInt, _ body: () throws -> Void) rethrows -> [String] {
        let messages = LockedValue<[String]>([])
        try withKnownIssue {
            try body()
        } matching: { issue in
            messages.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
            return issue.sourceLocation?.line == Int(line)
                && issue.sourceLocation?.fileID == "CheckoutTestingTests/SwiftTestingKitTests.swift"
        }
        return messages.withLock { $0 }
    }

    private func flowAnsweredTwice(_ options: FlowOptions) throws -> ShippingAddressFlow {
        let delegate = RecordingShippingAddressDelegate(didEnterAddress: .answerTwice(.valid))
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate, options: options)
        flow.present()
        flow.enterAddress(F.jane())
        return flow
    }

    @Test func theReporterInsideATestIsSwiftTestings() {
        guard case .swiftTesting = TestFailureReporter.current.destination else {
            Issue.record("expected the Swift Testing reporter, got \(TestFailureReporter.current.destination)")
            return
        }
        let elsewhere = DispatchQueue.global().sync { TestFailureReporter.current.destination }
        if case .recorder = elsewhere { Issue.record("no recorder is installed") }
    }

    // The issue's false pass: a merchant that answers twice, `.testing()`, assertNoViolations and
    // a wrong assertDelegateCalls now give three issues.
    @Test func aMerchantThatAnswersTwiceFailsTheTest() throws {
        let issues = LockedValue<[String]>([])
        try withKnownIssue {
            let flow = try flowAnsweredTwice(.testing())
            assertNoViolations(flow)
            assertDelegateCalls(flow, ["nope"])
        } matching: { issue in
            issues.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
            return true
        }
        let messages = issues.withLock { $0 }
        #expect(messages.count == 3)
        #expect(messages.first?.hasPrefix("contract violation: completionCalledTwice") == true)
        #expect(messages.dropFirst().first?.hasPrefix("1 violation(s): completionCalledTwice") == true)
        #expect(messages.last?.hasPrefix(#"delegate calls ["didEnterAddress", "didFinish"] are not ["nope"]"#) == true)
    }

    @Test func eachAssertionFailsAtTheCaller() throws {
        let flow = try flowAnsweredTwice(FlowOptions(clock: ManualClock()))
        var line: UInt = #line + 1
        var messages = knownIssues(at: line) { assertDelegateCalls(flow.transcript, ["nope"]) }
        #expect(messages.count == 1)
        line = #line + 1
        messages = knownIssues(at: line) { assertDelegateCalls(flow, ["nope"]) }
        #expect(messages.count == 1)
        line = #line + 1
        messages = knownIssues(at: line) { assertNoViolations(flow) }
        #expect(messages.first?.contains("completionCalledTwice in didEnterAddress #1") == true)
        line = #line + 1
        messages = knownIssues(at: line) { assertNoViolations(flow.transcript) }
        #expect(messages.count == 1)
        let held = RecordingShippingAddressDelegate()
        line = #line + 1
        messages = knownIssues(at: line) { held.didEnterAddress.complete(.valid) }
        #expect(messages == ["didEnterAddress has no call to complete (0 calls)"])
        line = #line + 1
        messages = knownIssues(at: line) { reportTestFailure("mine") }
        #expect(messages == ["mine"])
    }

    @Test func eachAssertionPassesWhenItMust() throws {
        let delegate = RecordingShippingAddressDelegate(didEnterAddress: .answer(.valid))
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate, options: .testing())
        flow.present()
        flow.enterAddress(F.jane())
        assertDelegateCalls(flow, ["didEnterAddress", "didFinish"])
        assertDelegateCalls(flow.transcript, ["didEnterAddress", "didFinish"])
        assertNoViolations(flow)
        assertNoViolations(flow.transcript)
        assertNoNesting(delegate)
    }

    @Test func theWaitsFailAfterTheirTimeout() async throws {
        let delegate = RecordingShippingAddressDelegate(didEnterAddress: .hold)
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate, options: .testing())
        flow.present()
        flow.enterAddress(F.jane())
        await withKnownIssue {
            let called = await delegate.waitUntilCalled("didFinish", timeout: .milliseconds(20), flow: flow)
            #expect(!called)
            let ended = await waitUntilEnded(flow, timeout: .milliseconds(20))
            #expect(ended == nil)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().hasPrefix("timed out after 0.02 seconds waiting for")
        }
        delegate.didEnterAddress.complete(.valid)
        let outcome = await waitUntilEnded(flow)
        #expect(outcome == .finished(address: F.jane(), shippingMethod: nil))
        #expect(await delegate.waitUntilCalled("didFinish"))
    }

    @Test func theRecorderWorksUnderSwiftTestingToo() throws {
        let flow = try flowAnsweredTwice(FlowOptions(clock: ManualClock()))
        let failures = withRecordedFailures {
            assertNoViolations(flow)
            assertDelegateCalls(flow, ["didEnterAddress", "didFinish"])
        }
        #expect(failures.count == 1)
    }

    // MARK: Strict mode

    @Test func strictModeReportsCompletionCalledTwice() throws {
        let line: UInt = #line + 1
        let messages = try knownIssues(at: line) { _ = try flowAnsweredTwice(.testing()) }
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("contract violation: completionCalledTwice in didEnterAddress #1") == true)
    }

    @Test func strictModeDoesNotReportALateCompletionAfterCancel() throws {
        let delegate = RecordingShippingAddressDelegate(didEnterAddress: .hold)
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate, options: .testing())
        flow.present()
        flow.enterAddress(F.jane())
        flow.cancel()
        delegate.didEnterAddress.complete(.valid)
        #expect(flow.violations.map(\.kind) == [.lateCompletion])
    }

    @Test func strictModeDoesNotReportAnExpectedTimeout() throws {
        let clock = ManualClock()
        let delegate = RecordingPaymentAuthorizationDelegate()
        delegate.didSelectShippingContact.script(.hold)
        let flow = try PaymentAuthorizationFlow(
            request: F.request(), delegate: delegate, options: .testing(clock: clock, expecting: [.completionTimedOut]))
        flow.present()
        flow.selectShippingContact(F.jane())
        clock.advance(by: .seconds(30))
        #expect(flow.outcome == .timedOut)
        #expect(flow.violations.map(\.kind) == [.completionTimedOut])
    }

    @Test func strictModeReportsAnExpectedViolationThatNeverHappenedAtTheEnd() throws {
        let line: UInt = #line + 1
        let options = FlowOptions.testing(expecting: [.completionTimedOut])
        let delegate = RecordingShippingAddressDelegate(didEnterAddress: .answer(.invalid(message: "no")))
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate, options: options)
        flow.present()
        flow.enterAddress(F.jane())
        let messages = knownIssues(at: line) { flow.cancel() }
        #expect(messages == ["expected violation completionTimedOut did not happen before the flow ended"])
    }

    // MARK: The spec's scenario

    // Present, select a shipping contact, the merchant answers after 5 s of virtual time, the
    // customer cancels at 2 s, then the late answer arrives: recorded, not a failure.
    @Test func anAnswerAfterTheCustomersCancelIsLateNotAFailure() throws {
        let clock = ManualClock()
        let merchant = RecordingPaymentAuthorizationDelegate()
        merchant.didSelectShippingContact.script(
            .answer(ShippingContactUpdate(summaryItems: F.summary("25.00")), after: .seconds(5), on: clock))
        let flow = try PaymentAuthorizationFlow(
            request: F.request(), delegate: merchant, options: .testing(clock: clock))
        flow.present()
        flow.selectShippingContact(F.jane())
        clock.advance(by: .seconds(2))
        flow.cancel()
        clock.advance(by: .seconds(3))  // the merchant's answer arrives, late

        #expect(flow.outcome == .cancelled)
        #expect(flow.violations.map(\.kind) == [.lateCompletion])
        assertDelegateCalls(flow, ["didSelectShippingContact", "didFinish"])
    }

    @Test func thePayContextsLateAnswerIsNotAFailure() async throws {
        let clock = ManualClock()
        let merchant = RecordingPayContextDelegate()
        merchant.didSelectShippingContact.script(
            .answer(ShippingContactUpdate(summaryItems: F.summary("25.00")), after: .seconds(5), on: clock))
        let context = try PayContext(
            request: F.request(), backend: RecordingPaymentBackend(), delegate: merchant,
            options: .testing(clock: clock))
        context.present()
        context.selectShippingContact(F.jane())
        clock.advance(by: .seconds(2))
        let outcome = try await context.cancelAndWait()
        clock.advance(by: .seconds(3))  // the merchant's answer arrives, late

        #expect(outcome.status == .userCancellation)
        #expect(context.violations.map(\.kind) == [.lateCompletion])
        assertDelegateCalls(context, ["didSelectShippingContact", "didComplete"])
    }
}
