import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import Testing

/// Strict mode and the protocols' defaults under Swift Testing (spec E11): a near-miss fails the
/// running test with `Issue.record` at the caller of `testing()` (proved with `withKnownIssue`);
/// an expected default answer and PassKit's own spelling do not.
@Suite struct DefaultAnswerSwiftTestingTests {
    private typealias F = KitFixture
    private typealias M = NearMissMerchants

    private func selectExpress(_ merchant: some PaymentAuthorizationDelegate, _ options: FlowOptions) throws {
        let flow = try PaymentAuthorizationFlow(request: F.request(), delegate: merchant, options: options)
        flow.present()
        flow.selectShippingMethod("express")
        flow.cancel()
    }

    @Test func aNearMissFailsTheRunningTest() throws {
        let messages = LockedValue<[String]>([])
        let line = #line + 3
        try withKnownIssue {
            // The options are made on the line `line` names.
            let options = FlowOptions.testing()
            try selectExpress(M.NearMiss(), options)
        } matching: { issue in
            messages.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
            return issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileID == "CheckoutTestingTests/DefaultAnswerSwiftTestingTests.swift"
        }
        let recorded = messages.withLock { $0 }
        #expect(recorded.count == 1)
        #expect(recorded.first?.hasPrefix("the protocol's default answered didSelectShippingMethod") == true)
    }

    @Test func anExpectedDefaultAnswerDoesNotFail() throws {
        try selectExpress(M.NearMiss(), .testing(expectingDefaultAnswers: [.didSelectShippingMethod]))
    }

    @Test func passKitsOwnSpellingIsCalledAndDoesNotFail() throws {
        try selectExpress(M.PassKitSpelling(), .testing())
    }
}
