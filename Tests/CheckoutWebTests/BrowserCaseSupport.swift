import CheckoutCore
import CheckoutWeb
import Foundation
import XCTest

/// What a browser does with a dictionary, and what the package does with it.
enum Verdict: CustomStringConvertible {
    /// The browser accepts it and so does the package.
    case accepted
    /// The browser throws; the package refuses it when decoding (a member of the wrong JSON type
    /// or a value outside a closed set).
    case undecodable
    /// The browser throws; the package refuses it with a ``CheckoutError`` naming `field`.
    case refused(CheckoutError.Code, field: String)

    var description: String {
        switch self {
        case .accepted: "accepted"
        case .undecodable: "undecodable"
        case .refused(let code, let field): "refused \(code) at \(field)"
        }
    }
}

/// One data case ported from a browser's test: the dictionary as JSON text, and the verdict.
struct BrowserCase {
    var name: String
    var json: String
    var verdict: Verdict
}

/// `base` with the top-level member `key` set to `value` (JSON text), or removed when nil.
func setting(_ base: String, _ key: String, _ value: String?) -> String {
    guard case .object(var members)? = JSONValue(jsonText: base) else { preconditionFailure("base is an object") }
    if let value {
        guard let parsed = JSONValue(jsonText: value) else { preconditionFailure("not JSON: \(value)") }
        members[key] = parsed
    } else {
        members[key] = nil
    }
    return JSONValue.object(members).jsonText
}

/// Decodes each case as `T`, runs `validate`, and requires the case's verdict.
func assertCases<T: Decodable>(
    _ type: T.Type,
    _ cases: [BrowserCase],
    file: StaticString = #filePath,
    line: UInt = #line,
    validate: (T) throws -> Void
) {
    for item in cases {
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: Data(item.json.utf8))
        } catch {
            if case .undecodable = item.verdict { continue }
            XCTFail("\(item.name): expected \(item.verdict), not decodable: \(error)", file: file, line: line)
            continue
        }
        do {
            try validate(value)
            if case .accepted = item.verdict { continue }
            XCTFail("\(item.name): expected \(item.verdict), accepted", file: file, line: line)
        } catch let error as CheckoutError {
            guard case .refused(let code, let field) = item.verdict else {
                XCTFail("\(item.name): expected \(item.verdict), got \(error)", file: file, line: line)
                continue
            }
            XCTAssertEqual(error.code, code, "\(item.name): \(error)", file: file, line: line)
            XCTAssertEqual(error.field, field, "\(item.name): \(error)", file: file, line: line)
        } catch {
            XCTFail("\(item.name): expected \(item.verdict), got \(error)", file: file, line: line)
        }
    }
}
