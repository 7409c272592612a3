import Foundation
import XCTest

/// The package's root directory, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // CheckoutCoreTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

/// Runs `python3` with `arguments` from the package's root and returns its exit status and its
/// standard output and error together. The scripts it runs read local files only.
func runPython(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    process.currentDirectoryURL = repositoryRoot
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    // Read to the end before waiting, so that a large output cannot fill the pipe and stall both.
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The text of a file under the package's root.
func repositoryFile(_ path: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
}
