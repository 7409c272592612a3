import CheckoutCore
import Foundation
import XCTest

/// Evaluates `expression`, requires it to throw a ``CheckoutError`` with `code` (and, when given,
/// `field`), and returns the error for further checks.
@discardableResult
func assertCheckoutError<T>(
    _ expression: @autoclosure () throws -> T,
    code: CheckoutError.Code,
    field: String? = nil,
    _ context: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) -> CheckoutError? {
    do {
        let value = try expression()
        XCTFail("expected \(code), got the value \(value) \(context())", file: file, line: line)
        return nil
    } catch let error as CheckoutError {
        XCTAssertEqual(error.code, code, "\(context()): \(error)", file: file, line: line)
        if let field {
            XCTAssertEqual(error.field, field, "\(context()): \(error)", file: file, line: line)
        }
        return error
    } catch {
        XCTFail("expected a CheckoutError \(code), got \(error) \(context())", file: file, line: line)
        return nil
    }
}

/// Evaluates `expression`, requires it to throw a `DecodingError`, and returns it.
@discardableResult
func assertDecodingError<T>(
    _ expression: @autoclosure () throws -> T,
    _ context: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) -> DecodingError? {
    do {
        let value = try expression()
        XCTFail("expected a DecodingError, got the value \(value) \(context())", file: file, line: line)
        return nil
    } catch let error as DecodingError {
        return error
    } catch {
        XCTFail("expected a DecodingError, got \(error) \(context())", file: file, line: line)
        return nil
    }
}

extension DecodingError {
    /// The coding path of any kind of decoding error.
    var codingPath: [any CodingKey] {
        switch self {
        case .dataCorrupted(let context): context.codingPath
        case .keyNotFound(let key, let context): context.codingPath + [key]
        case .typeMismatch(_, let context): context.codingPath
        case .valueNotFound(_, let context): context.codingPath
        @unknown default: []
        }
    }

    /// The underlying error of a `dataCorrupted` error, or nil.
    var underlyingCheckoutError: CheckoutError? {
        if case .dataCorrupted(let context) = self {
            return context.underlyingError as? CheckoutError
        }
        return nil
    }

    /// Whether this is a type mismatch (a number where a string was expected, ...).
    var isTypeMismatch: Bool {
        if case .typeMismatch = self { return true }
        return false
    }
}

/// A coding path rendered for comparison: keys by name, array indices as `[n]`.
func pathDescription(_ path: [any CodingKey]) -> [String] {
    path.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
}

/// JSON helpers shared by the tests.
enum JSON {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// Encodes `value`, decodes it again, and returns the decoded value and the JSON text.
    static func roundTrip<T: Codable>(_ value: T) throws -> (decoded: T, json: String) {
        let json = try encode(value)
        return (try decode(T.self, json), json)
    }
}

/// Shorthand for a known currency in test tables.
func currency(_ code: String) -> CurrencyCode {
    // Test inputs only; a failure here is a broken table, reported by the test that uses it.
    try! CurrencyCode(code)
}

/// Shorthand for money in test tables.
func money(_ value: String, _ code: String = "USD") -> Money {
    try! Money(value, currency: currency(code))
}
