import Foundation
import XCTest

/// The delegate code generated from Scripts/callbacks.json is what the declarations give: a
/// callback is declared once, and CI fails when the Swift and the declarations disagree.
final class CallbackDeclarationsTests: XCTestCase {
    func testTheGeneratedDelegateCodeMatchesTheDeclarations() throws {
        let run = try runPython(["Scripts/callbacks.py", "--check"])
        XCTAssertEqual(run.status, 0, run.output)
    }

    // The check can fail: declarations that differ from the generated Swift (one documentation
    // line changed) are reported with a diff naming the file.
    func testTheCheckFailsWhenTheDeclarationsChange() throws {
        let declarations = try repositoryFile("Scripts/callbacks.json")
        let changed = declarations.replacingOccurrences(
            of: "The customer entered a coupon code.", with: "The customer typed a coupon code.")
        XCTAssertNotEqual(changed, declarations)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("callbacks.json")
        try changed.write(to: path, atomically: true, encoding: .utf8)
        let run = try runPython(["Scripts/callbacks.py", "--declarations", path.path, "--check"])
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(run.output.contains("PaymentAuthorizationDelegate.swift"), run.output)
        XCTAssertTrue(run.output.contains("+    /// The customer typed a coupon code."), run.output)
    }
}
