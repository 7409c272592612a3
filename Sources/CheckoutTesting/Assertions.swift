import CheckoutFlows

/// Asserts that the transcript's delegate calls are exactly `expected`, in order; the failure
/// shows the transcript. For a pay context's transcript these are the calls of the context and
/// of its sheet; ``assertDelegateCalls(_:_:fileID:filePath:line:column:)-(CheckoutFlow,_,_,_,_,_)``
/// checks only the merchant's.
///
/// Fails the running test, XCTest or Swift Testing (``TestFailureReporter``).
public func assertDelegateCalls(
    _ transcript: Transcript,
    _ expected: [String],
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    if let failure = FlowChecks.delegateCallsFailure(transcript, expected) {
        reportTestFailure(failure, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// Asserts that the merchant's delegate received exactly `expected`, in order
/// (``/CheckoutFlows/CheckoutFlow/delegateCalls``: for a pay context only the
/// `PayContextDelegate` methods); the failure shows the flow's transcript.
public func assertDelegateCalls(
    _ flow: some CheckoutFlow,
    _ expected: [String],
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    if let failure = FlowChecks.delegateCallsFailure(flow, expected) {
        reportTestFailure(failure, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// Asserts that the transcript records no violation, `lateCompletion` included; the failure
/// shows the transcript.
public func assertNoViolations(
    _ transcript: Transcript,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    if let failure = FlowChecks.violationsFailure([transcript]) {
        reportTestFailure(failure, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// Asserts that the flow recorded no violation, `lateCompletion` included (for a pay context:
/// neither the context nor its sheet); the failure shows the flow's transcript.
public func assertNoViolations(
    _ flow: some CheckoutFlow,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    assertNoViolations(flow.transcript, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Asserts that the recording delegate's calls never nested nor overlapped, and that each has
/// returned (spec E6).
public func assertNoNesting(
    _ delegate: some RecordingDelegate,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    if let failure = FlowChecks.nestingFailure(delegate.trace) {
        reportTestFailure(failure, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
