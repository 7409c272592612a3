#if canImport(XCTest)
    import XCTest
#endif
#if canImport(Testing)
    import Testing
#endif

/// Where the kit's failures go: the one way every assertion, wait and strict-mode report of
/// this library fails a test.
///
/// ``current`` decides, on the calling task: an installed ``TestFailureRecorder`` first, then
/// Swift Testing when a Swift Testing test is running (`Test.current` is set; the failure is
/// recorded with `Issue.record`), else XCTest (`XCTFail`). XCTest's `XCTFail` is not seen by Swift
/// Testing, and Swift Testing's `Test.current` is lost on other threads, so code that reports
/// later from another thread (a flow's violation handler) captures a reporter first, as
/// `FlowOptions.testing()` does.
///
/// Each framework is imported only where it exists (`#if canImport`): with Swift Testing alone,
/// as under macOS's Command Line Tools, the kit still builds, and a failure outside a Swift
/// Testing test, where XCTest is missing, is printed as `file:line:column: error: message`.
public struct TestFailureReporter: Sendable {
    /// Where a reporter sends failures.
    public enum Destination: Sendable {
        /// Into this recorder, failing nothing.
        case recorder(TestFailureRecorder)
        /// To Swift Testing, through `Issue.record`.
        case swiftTesting
        /// To XCTest, through `XCTFail` (printed where XCTest is missing).
        case xcTest
    }

    /// Where this reporter sends failures.
    public let destination: Destination

    /// A reporter that sends failures to `destination`.
    public init(destination: Destination) {
        self.destination = destination
    }

    /// The reporter for the current task: its ``TestFailureRecorder`` if one is installed, else
    /// Swift Testing inside a Swift Testing test, else XCTest.
    public static var current: TestFailureReporter {
        if let recorder = TestFailureRecorder.current { return TestFailureReporter(destination: .recorder(recorder)) }
        #if canImport(Testing)
            if Test.current != nil { return TestFailureReporter(destination: .swiftTesting) }
        #endif
        return TestFailureReporter(destination: .xcTest)
    }

    /// Fails the test (or records the failure) with `message`, pointing at `location`.
    public func report(_ message: String, at location: TestFailure.Location) {
        switch destination {
        case .recorder(let recorder):
            recorder.record(TestFailure(message: message, location: location))
        case .swiftTesting:
            #if canImport(Testing)
                Issue.record(
                    Comment(rawValue: message),
                    sourceLocation: SourceLocation(
                        fileID: location.fileID,
                        filePath: location.filePath,
                        line: location.line,
                        column: location.column
                    )
                )
            #else
                Self.xcTestFail(message, at: location)
            #endif
        case .xcTest:
            Self.xcTestFail(message, at: location)
        }
    }

    /// `XCTFail` at `location`; where XCTest is missing, the failure printed, never lost.
    private static func xcTestFail(_ message: String, at location: TestFailure.Location) {
        #if canImport(XCTest)
            XCTFail(message, file: location.staticFilePath, line: UInt(location.line))
        #else
            print("\(location.filePath):\(location.line):\(location.column): error: \(message)")
        #endif
    }
}

/// Fails the running test with `message` at the caller's location, through
/// ``TestFailureReporter/current``: into an installed ``TestFailureRecorder``, else Swift
/// Testing or XCTest, whichever runs the test. For assertions of your own.
public func reportTestFailure(
    _ message: String,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    TestFailureReporter.current.report(
        message, at: TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column))
}
