import CheckoutCore
import CheckoutWeb
import Foundation
import XCTest

final class JSONValueTests: XCTestCase {
    func testEveryKindOfValueRoundTripsExactly() throws {
        let text = """
            {"null": null, "true": true, "false": false, "zero": 0, "one": 1, "negative": -42,
             "big": 9223372036854775807, "decimal": 0.1, "precise": 12345678901234567890.123456789,
             "exponent": 1.5e-7, "string": "1", "empty": "", "unicode": "Zürich ✓",
             "array": [1, "two", [3], {"four": 4}], "object": {"nested": {"deeper": []}}}
            """
        let value = try decode(JSONValue.self, text)
        guard case .object(let members) = value else { return XCTFail("\(value)") }
        XCTAssertEqual(members["null"], .null)
        XCTAssertEqual(members["true"], .bool(true))
        XCTAssertEqual(members["false"], .bool(false))
        XCTAssertEqual(members["zero"], .integer(0))
        XCTAssertEqual(members["one"], .integer(1), "1 is a number, not true")
        XCTAssertEqual(members["negative"], .integer(-42))
        XCTAssertEqual(members["big"], .integer(.max))
        XCTAssertEqual(members["decimal"], .number(Decimal(string: "0.1")!))
        XCTAssertEqual(members["precise"], .number(Decimal(string: "12345678901234567890.123456789")!))
        XCTAssertEqual(members["exponent"], .number(Decimal(string: "0.00000015")!))
        XCTAssertEqual(members["string"], .string("1"))
        XCTAssertEqual(members["unicode"], .string("Zürich ✓"))
        XCTAssertEqual(
            members["array"],
            .array([.integer(1), .string("two"), .array([.integer(3)]), .object(["four": .integer(4)])]))
        XCTAssertEqual(try decode(JSONValue.self, value.jsonText), value)
        XCTAssertEqual(JSONValue(jsonText: value.jsonText), value)
    }

    func testJSONTextIsCompactWithSortedKeys() {
        let value = JSONValue.object(["b": .integer(1), "a": .array([.string("x/y"), .null])])
        XCTAssertEqual(value.jsonText, #"{"a":["x/y",null],"b":1}"#)
        XCTAssertNil(JSONValue(jsonText: "{not json"))
        XCTAssertEqual(JSONValue(jsonText: #""text""#), .string("text"))
    }
}
