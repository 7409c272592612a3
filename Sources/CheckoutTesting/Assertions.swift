import CheckoutFlows
import XCTest

/// Asserts that the transcript's delegate calls are exactly `expected`, in order; the failure
/// shows the transcript.
///
/// ```swift
/// assertDelegateCalls(flow.transcript, ["didEnterAddress", "didFinish"])
/// ```
public func assertDelegateCalls(
    _ transcript: Transcript,
    _ expected: [String],
    file: StaticString = #filePath,
    line: UInt = #line
) {
    if let failure = FlowChecks.delegateCallsFailure(transcript, expected) {
        XCTFail(failure, file: file, line: line)
    }
}

/// Asserts that the transcript records no violation; the failure shows the transcript.
public func assertNoViolations(_ transcript: Transcript, file: StaticString = #filePath, line: UInt = #line) {
    if let failure = FlowChecks.violationsFailure([transcript]) {
        XCTFail(failure, file: file, line: line)
    }
}

/// Asserts that the shipping-address flow recorded no violation; the failure shows its
/// transcript.
public func assertNoViolations(_ flow: ShippingAddressFlow, file: StaticString = #filePath, line: UInt = #line) {
    assertNoViolations(flow.transcript, file: file, line: line)
}

/// Asserts that the authorization flow recorded no violation; the failure shows its transcript.
public func assertNoViolations(_ flow: PaymentAuthorizationFlow, file: StaticString = #filePath, line: UInt = #line) {
    assertNoViolations(flow.transcript, file: file, line: line)
}

/// Asserts that neither the pay context nor its authorization sheet recorded a violation; the
/// failure shows both transcripts.
public func assertNoViolations(_ context: PayContext, file: StaticString = #filePath, line: UInt = #line) {
    if let failure = FlowChecks.violationsFailure([context.transcript, context.sheet.transcript]) {
        XCTFail(failure, file: file, line: line)
    }
}

/// Asserts that the recording delegate's calls never nested nor overlapped, and that each has
/// returned (spec E6).
public func assertNoNesting(_ delegate: some RecordingDelegate, file: StaticString = #filePath, line: UInt = #line) {
    if let failure = FlowChecks.nestingFailure(delegate.trace) {
        XCTFail(failure, file: file, line: line)
    }
}
