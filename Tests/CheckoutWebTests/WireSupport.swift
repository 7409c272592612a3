import CheckoutCore
import CheckoutWeb
import Foundation
import XCTest

/// Decodes `json` as `T`.
func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(json.utf8))
}

/// Encodes `value` as JSON.
func encode(_ value: some Encodable) throws -> Data {
    try JSONEncoder().encode(value)
}

/// `json` parsed as a JSON value, for comparisons that ignore key order and white space.
func jsonValue(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue {
    guard let value = JSONValue(jsonText: json) else {
        XCTFail("not JSON: \(json)", file: file, line: line)
        return .null
    }
    return value
}

/// Decodes `json` as `T`, encodes it again, and requires the same JSON: no documented member is
/// dropped or changed. Returns the decoded value.
@discardableResult
func assertWireRoundTrip<T: Codable & Equatable>(
    _ type: T.Type,
    _ json: String,
    file: StaticString = #filePath,
    line: UInt = #line
) throws -> T {
    let value = try decode(T.self, json)
    let reencoded = try encode(value)
    let again = try JSONDecoder().decode(JSONValue.self, from: reencoded)
    XCTAssertEqual(again, jsonValue(json), "\(T.self) did not round-trip", file: file, line: line)
    XCTAssertEqual(try JSONDecoder().decode(T.self, from: reencoded), value, file: file, line: line)
    return value
}

/// Requires `expression` to throw a `DecodingError` whose path (with the key, for a missing key)
/// is `path`, written as `a.b[2].c`.
func assertDecodingFails<T>(
    _ expression: @autoclosure () throws -> T,
    path: String? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    do {
        let value = try expression()
        XCTFail("expected a DecodingError, got \(value)", file: file, line: line)
    } catch let error as DecodingError {
        guard let path else { return }
        XCTAssertEqual(error.pathDescription, path, "\(error)", file: file, line: line)
    } catch {
        XCTFail("expected a DecodingError, got \(error)", file: file, line: line)
    }
}

/// Requires `expression` to throw a ``CheckoutError`` with `code` and `field`.
func assertCheckoutError<T>(
    _ expression: @autoclosure () throws -> T,
    code: CheckoutError.Code,
    field: String?,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    do {
        let value = try expression()
        XCTFail("expected \(code), got \(value)", file: file, line: line)
    } catch let error as CheckoutError {
        XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
        XCTAssertEqual(error.field, field, "\(error)", file: file, line: line)
    } catch {
        XCTFail("expected a CheckoutError, got \(error)", file: file, line: line)
    }
}

extension DecodingError {
    /// The coding path of the error as `a.b[2].c`, the missing key included.
    var pathDescription: String {
        var path: [any CodingKey]
        switch self {
        case .keyNotFound(let key, let context): path = context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        @unknown default: path = []
        }
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }
}
