import Foundation

/// What `checkout-sim test` found, file by file: as text, as one JSON document, and as JUnit XML
/// (the report CI systems read: one `testcase` a file, a `failure` with the differences for a
/// scenario that failed or a file that could not be loaded).
struct TestReport {
    /// One scenario file's result.
    struct Entry {
        var file: String
        /// The scenario's name, or the file's name when it could not be loaded.
        var name: String
        /// What differs from the expectation; empty when it passed.
        var differences: [String]
        /// Why the file could not be loaded, when it could not.
        var malformed: String?
        var duration: Duration

        var passed: Bool { malformed == nil && differences.isEmpty }

        /// `PASS name (file)`, or `FAIL name (file)` and a line a difference.
        var text: String {
            if let malformed {
                return "FAIL \(name) (\(file))\n  - cannot be loaded: "
                    + malformed.replacingOccurrences(of: "\n", with: "\n    ")
            }
            if differences.isEmpty { return "PASS \(name) (\(file))" }
            return (["FAIL \(name) (\(file))"] + differences.map { "  - \($0)" }).joined(separator: "\n")
        }

        /// The failure's one-line message: the first difference, or why the file is malformed.
        var message: String {
            if let malformed { return malformed.split(separator: "\n").first.map(String.init) ?? malformed }
            return differences.first?.split(separator: "\n").first.map(String.init) ?? ""
        }
    }

    var entries: [Entry] = []

    var passed: Int { entries.count { $0.passed } }
    var failed: Int { entries.count - passed }

    /// The closing line: `N passed, M failed`.
    var summary: String { "\(passed) passed, \(failed) failed" }

    /// `{"passed", "failed", "results": [{"file", "name", "status", "differences", "error"?}]}`.
    func json() -> String {
        let results: [[String: Any]] = entries.map { entry in
            var object: [String: Any] = [
                "file": entry.file, "name": entry.name,
                "status": entry.malformed != nil ? "malformed" : entry.passed ? "passed" : "failed",
                "differences": entry.differences,
            ]
            if let malformed = entry.malformed { object["error"] = malformed }
            return object
        }
        let object: [String: Any] = ["passed": passed, "failed": failed, "results": results]
        let data =
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// JUnit XML: one `testsuite` named `checkout-sim`, a `testcase` per file (`classname` the
    /// file's path, `name` the scenario's), a `failure` whose `message` is the first difference and
    /// whose text lists them all; a file that cannot be loaded fails with `type="malformed"`.
    func junit() -> String {
        func seconds(_ duration: Duration) -> String {
            let (whole, atto) = duration.components
            return String(format: "%.3f", Double(whole) + Double(atto) / 1e18)
        }
        let total = entries.reduce(Duration.zero) { $0 + $1.duration }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="checkout-sim" tests="\#(entries.count)" failures="\#(failed)" errors="0" time="\#(seconds(total))">"#,
            #"  <testsuite name="checkout-sim test" tests="\#(entries.count)" failures="\#(failed)" errors="0" skipped="0" time="\#(seconds(total))">"#,
        ]
        for entry in entries {
            let open =
                #"    <testcase classname="\#(Self.escape(entry.file))" name="\#(Self.escape(entry.name))" "#
                + #"file="\#(Self.escape(entry.file))" time="\#(seconds(entry.duration))""#
            if entry.passed {
                lines.append(open + "/>")
                continue
            }
            let type = entry.malformed != nil ? "malformed" : "expectation"
            let body = entry.malformed ?? entry.differences.joined(separator: "\n")
            lines.append(open + ">")
            lines.append(
                #"      <failure type="\#(type)" message="\#(Self.escape(entry.message))">\#(Self.escape(body))</failure>"#
            )
            lines.append("    </testcase>")
        }
        lines += ["  </testsuite>", "</testsuites>", ""]
        return lines.joined(separator: "\n")
    }

    /// Text for XML content and attribute values: markup characters escaped, characters XML 1.0
    /// cannot hold (most control characters) written as `?`.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\t": result += "&#9;"
            case "\r": result += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += "?"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
