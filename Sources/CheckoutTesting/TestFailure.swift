/// A failure the kit reported (or, under ``withRecordedFailures(_:)``, recorded
/// instead): its message and the source location of the caller it names.
public struct TestFailure: Hashable, Sendable, CustomStringConvertible {
    /// Where a failure points: the caller of an assertion, of a wait, or of
    /// `FlowOptions.testing()`.
    public struct Location: Hashable, Sendable, CustomStringConvertible {
        /// `Module/File.swift`, as `#fileID` writes it.
        public var fileID: String
        /// The file's full path, as `#filePath` writes it.
        public var filePath: String
        /// The line, from 1.
        public var line: Int
        /// The column, from 1.
        public var column: Int
        /// The path again, for XCTest's `XCTFail`, which takes a `StaticString`.
        let staticFilePath: StaticString

        /// The location these literals name; give it `#fileID`, `#filePath`, `#line` and
        /// `#column` of the caller.
        public init(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
            self.fileID = fileID
            self.filePath = "\(filePath)"
            self.line = Int(line)
            self.column = Int(column)
            self.staticFilePath = filePath
        }

        /// `Module/File.swift:12:5`.
        public var description: String { "\(fileID):\(line):\(column)" }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            (lhs.fileID, lhs.filePath, lhs.line, lhs.column) == (rhs.fileID, rhs.filePath, rhs.line, rhs.column)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(fileID)
            hasher.combine(filePath)
            hasher.combine(line)
            hasher.combine(column)
        }
    }

    /// What failed, with what the kit saw (calls, transcripts).
    public var message: String
    /// The caller the failure points to.
    public var location: Location

    /// A failure with this message at this location.
    public init(message: String, location: Location) {
        self.message = message
        self.location = location
    }

    /// `Module/File.swift:12:5: message`.
    public var description: String { "\(location): \(message)" }
}
