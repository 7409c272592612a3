import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import Dispatch
import XCTest

/// The kit never lies, under XCTest: every assertion, wait and strict-mode report fails when it
/// must (proved with the recording reporter) and is silent when it must not; failures point at
/// the caller; XCTest receives them through `XCTFail` when no recorder is installed.
final class FailureReportingTests: XCTestCase {
    private typealias F = KitFixture
    private typealias ShippingRecorder = RecordingShippingAddressDelegate
    private typealias AuthorizationRecorder = RecordingPaymentAuthorizationDelegate

    private static let fileID = "CheckoutTestingTests/FailureReportingTests.swift"

    private func shippingFlow(_ delegate: ShippingRecorder, options: FlowOptions) throws -> ShippingAddressFlow {
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate, options: options)
        XCTAssertEqual(flow.present(), .accepted)
        return flow
    }

    private func authorizationFlow(_ delegate: AuthorizationRecorder, options: FlowOptions) throws
        -> PaymentAuthorizationFlow
    {
        let flow = try PaymentAuthorizationFlow(request: F.request(), delegate: delegate, options: options)
        XCTAssertEqual(flow.present(), .accepted)
        return flow
    }

    /// A finished shipping flow: didEnterAddress answered valid, then didFinish.
    private func finishedShippingFlow() throws -> ShippingAddressFlow {
        let flow = try shippingFlow(ShippingRecorder(didEnterAddress: .answer(.valid)), options: .testing())
        flow.enterAddress(F.jane())
        return flow
    }

    // MARK: XCTest receives the failures

    /// The failures XCTest would record for this test while `capturing`, instead of recording
    /// them (swift-corelibs-xctest has no XCTExpectFailure).
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

    // Without a recorder, under XCTest, the reporter is XCTest's, and its failures reach XCTFail
    // with the caller's file and line; from another thread too.
    func testWithoutARecorderFailuresGoToXCTest() throws {
        guard case .xcTest = TestFailureReporter.current.destination else {
            return XCTFail("expected the XCTest reporter, got \(TestFailureReporter.current.destination)")
        }
        let transcript = try finishedShippingFlow().transcript
        var line = 0
        let failures = capturingXCTestFailures {
            line = #line + 1
            assertDelegateCalls(transcript, ["nope"])
            assertDelegateCalls(transcript, ["didEnterAddress", "didFinish"])
        }
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertTrue(
            failures.first?.hasPrefix("FailureReportingTests.swift:\(line): failed - ") ?? false, "\(failures)")
        XCTAssertTrue(
            failures.first?.contains(#"delegate calls ["didEnterAddress", "didFinish"] are not ["nope"]"#) ?? false)

        // A strict-mode report from another thread reaches the test too.
        let delegate = ShippingRecorder(didEnterAddress: .hold)
        var optionsLine = 0
        let fromAnotherThread = try capturingXCTestFailures {
            optionsLine = #line + 1
            let flow = try shippingFlow(delegate, options: .testing())
            flow.enterAddress(F.jane())
            let completion = try XCTUnwrap(delegate.didEnterAddress.completion())
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                completion(.valid)
                completion(.valid)
                done.signal()
            }
            done.wait()
        }
        XCTAssertEqual(fromAnotherThread.count, 1, "\(fromAnotherThread)")
        XCTAssertTrue(
            fromAnotherThread.first?.hasPrefix(
                "FailureReportingTests.swift:\(optionsLine): failed - contract violation: completionCalledTwice")
                ?? false,
            "\(fromAnotherThread)")
    }
}
