import CheckoutCore
import Foundation
import XCTest

/// `JSONValue.jsonText` writes its text itself; it must be the bytes `JSONEncoder` writes with
/// `.sortedKeys` and `.withoutEscapingSlashes`, which it was before (recordings and transcripts
/// keep a payment token's data in this form).
final class JSONValueTextTests: XCTestCase {
    private func encoderText(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private let awkwardStrings = [
        "", "plain", "a/b", "quote \" and \\ backslash", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}",
        "é, ü, 日本, 🇫🇷, \u{2028}\u{2029}", "e\u{301}", "</script>",
    ]

    private var values: [JSONValue] {
        var values: [JSONValue] = [
            .null, .bool(true), .bool(false), .integer(0), .integer(-1), .integer(.max), .integer(.min),
            .array([]), .object([:]), .number(Decimal(string: "1.5")!), .array([.integer(1), .number(Decimal(0.25))]),
        ]
        values += awkwardStrings.map { .string($0) }
        // Keys that sort differently by bytes, by case, by digits, by accents.
        let keys = ["b", "a", "B", "A", "a1", "a10", "a2", "_", "-", "é", "e\u{301}x", "z", "Z", "ä", "日", "🇫🇷", ""]
        var object: [String: JSONValue] = [:]
        for (index, key) in keys.enumerated() {
            object[key] =
                index % 2 == 0 ? .string(awkwardStrings[index % awkwardStrings.count]) : .integer(Int64(index))
        }
        values.append(.object(object))
        values.append(
            .object([
                "header": .object([
                    "ephemeralPublicKey": .string("MFkw/EwYH+KoZIzj0CAQYIKoZIzj0DAQcDQgAE"),
                    "publicKeyHash": .string("LbsUwAT6w1JV9tFXocU813TCHks+LSuFF0R/eBkrWnQ="),
                    "transactionId": .string("abc"),
                ]),
                "data": .string("ABCD+/=="), "signature": .string("MIAGCSqGSIb3DQEHAqCAMIACAQExDzAN"),
                "version": .string("EC_v1"), "nested": .array([.object(["x": .null, "w": .bool(true)]), .array([])]),
            ]))
        // A number deep inside: the whole value is left to JSONEncoder.
        values.append(.object(["a": .array([.object(["b": .number(Decimal(string: "-0.5")!)])]), "c": .string("/")]))
        return values
    }

    func testTheTextIsWhatJSONEncoderWrites() throws {
        for value in values {
            XCTAssertEqual(value.jsonText, try encoderText(value), "\(value)")
        }
    }

    func testTheTextReadsBackAsTheValue() {
        for value in values {
            XCTAssertEqual(JSONValue(jsonText: value.jsonText), value, value.jsonText)
        }
    }
}
