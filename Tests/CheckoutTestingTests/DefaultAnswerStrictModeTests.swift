import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import CheckoutTesting
import Foundation
import XCTest

/// Strict mode and the protocols' defaults under XCTest (spec E11): an optional callback that a
/// protocol's default answers in the merchant's place (a near-miss spelling) fails the running
/// test at the caller of `testing()`, unless the test expects it; the platforms' own spellings
/// are requirements, so a merchant written in them is called and nothing fails.
final class DefaultAnswerStrictModeTests: XCTestCase {
    private typealias F = KitFixture
    private typealias M = NearMissMerchants
    private static let fileID = "CheckoutTestingTests/DefaultAnswerStrictModeTests.swift"

    /// Presents an authorization flow for `merchant` and selects the express method.
    private func selectExpress(_ merchant: some PaymentAuthorizationDelegate, _ options: FlowOptions) throws
        -> PaymentAuthorizationFlow
    {
        let flow = try PaymentAuthorizationFlow(request: F.request(), delegate: merchant, options: options)
        XCTAssertEqual(flow.present(), .accepted)
        XCTAssertEqual(flow.selectShippingMethod("express"), .accepted)
        return flow
    }

    // spec E11: the near-miss is answered by the default, and strict mode fails the test at the
    // line of `testing()`, naming the method and the likely cause.
    func testANearMissFailsTheTestAtTheCallerOfTesting() throws {
        var line: UInt = 0
        var flow: PaymentAuthorizationFlow?
        let failures = try withRecordedFailures {
            line = #line + 1
            let options = FlowOptions.testing()
            flow = try selectExpress(M.NearMiss(), options)
        }
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertEqual(failures.first?.location.line, Int(line))
        XCTAssertEqual(failures.first?.location.fileID, Self.fileID)
        XCTAssertTrue(
            failures.first?.message.hasPrefix(
                "the protocol's default answered didSelectShippingMethod in the merchant's place") ?? false,
            "\(failures)")
        XCTAssertTrue(failures.first?.message.contains("spelled nearly like the requirement") ?? false)
        // The transcript says so too (spec A9): a default answer, the summary unchanged.
        let lines = flow?.transcript.text().split(separator: "\n") ?? []
        XCTAssertTrue(
            lines.contains { $0.contains("completion flow     didSelectShippingMethod #1 [default answer]") },
            "\(lines)")
        XCTAssertEqual(flow?.sheet?.grandTotal, F.money("20.00"))
        flow?.cancel()
    }

    // spec E11: without a recorder the failure reaches XCTest itself, the running test.
    func testANearMissFailsTheRunningXCTest() throws {
        let failures = try capturingXCTestFailures {
            let flow = try selectExpress(M.NearMiss(), .testing())
            flow.cancel()
        }
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertTrue(failures.first?.contains("DefaultAnswerStrictModeTests.swift") ?? false, "\(failures)")
        XCTAssertTrue(failures.first?.contains("default answered didSelectShippingMethod") ?? false, "\(failures)")
    }

    // spec E11: a default answer the test declares expected is not a failure.
    func testAnExpectedDefaultAnswerIsNotAFailure() throws {
        let failures = try withRecordedFailures {
            let flow = try selectExpress(M.NearMiss(), .testing(expectingDefaultAnswers: [.didSelectShippingMethod]))
            flow.cancel()
        }
        XCTAssertEqual(failures, [])
    }

    // spec E11: an expected default answer that never came fails the test when the flow ends.
    func testAnExpectedDefaultAnswerThatNeverCameFailsAtTheEnd() throws {
        let failures = try withRecordedFailures {
            let flow = try selectExpress(
                M.PassKitSpelling(), .testing(expectingDefaultAnswers: [.didSelectShippingMethod]))
            XCTAssertEqual(TestFailureRecorder.current?.failures, [], "nothing fails before the end")
            flow.cancel()
        }
        XCTAssertEqual(
            failures.map(\.message),
            ["expected default answer to didSelectShippingMethod did not happen before the flow ended"])
    }

    // spec E11: PassKit's own spelling is a requirement: the flow calls it, its answer is the
    // merchant's (not a default), and strict mode is silent.
    func testPassKitsSpellingIsCalled() throws {
        var flow: PaymentAuthorizationFlow?
        let failures = try withRecordedFailures {
            flow = try selectExpress(M.PassKitSpelling(), .testing())
            XCTAssertEqual(flow?.sheet?.grandTotal, F.money("29.99"))
            flow?.cancel()
        }
        XCTAssertEqual(failures, [])
        XCTAssertFalse(flow?.transcript.text().contains("[default answer]") ?? true)
    }

    // spec E11, P2: the pay context alike: Stripe's spelling is called, the near-miss fails.
    func testThePayContextCallsStripesSpellingAndFailsOnTheNearMiss() throws {
        var stripe: PayContext?
        let stripeFailures = try withRecordedFailures {
            stripe = try PayContext(
                request: F.request(), backend: InMemoryStripeBackend(), delegate: M.StripeSpelling(),
                options: .testing())
            stripe?.present()
            stripe?.selectShippingMethod("express")
            XCTAssertEqual(stripe?.sheet.sheet?.grandTotal, F.money("29.99"))
            stripe?.cancel()
        }
        XCTAssertEqual(stripeFailures, [])

        var line: UInt = 0
        let nearMissFailures = try withRecordedFailures {
            line = #line + 1
            let options = FlowOptions.testing()
            let context = try PayContext(
                request: F.request(), backend: InMemoryStripeBackend(), delegate: M.PayContextNearMiss(),
                options: options)
            context.present()
            context.selectShippingMethod("express")
            context.cancel()
        }
        XCTAssertEqual(nearMissFailures.count, 1, "\(nearMissFailures)")
        XCTAssertEqual(nearMissFailures.first?.location.line, Int(line))
        XCTAssertTrue(nearMissFailures.first?.message.contains("default answered didSelectShippingMethod") ?? false)
    }

    // spec E11: the recording delegates' `.protocolDefault` is the test's own scripted answer,
    // not a default answering in the merchant's place: no failure.
    func testARecordingDelegatesProtocolDefaultIsNotAFailure() throws {
        let failures = try withRecordedFailures {
            let delegate = RecordingPaymentAuthorizationDelegate()
            let flow = try selectExpress(delegate, .testing())
            flow.cancel()
        }
        XCTAssertEqual(failures, [])
    }

    // MARK: XCTest's own failures

    /// The failures XCTest would record for this test while capturing, instead of recording them
    /// (swift-corelibs-xctest has no XCTExpectFailure).
    private let captured = LockedValue<[String]?>(nil)

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        let swallowed = captured.withLock { captured -> Bool in
            guard captured != nil else { return false }
            captured?.append("\(URL(fileURLWithPath: filePath).lastPathComponent):\(lineNumber): \(description)")
            return true
        }
        if !swallowed {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    private func capturingXCTestFailures(_ body: () throws -> Void) rethrows -> [String] {
        captured.withLock { $0 = [] }
        defer { captured.withLock { $0 = nil } }
        try body()
        return captured.withLock { $0 ?? [] }
    }
}
