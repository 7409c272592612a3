import CheckoutCore
import CheckoutWeb
import Foundation
import XCTest

@testable import CheckoutWebRelay

/// The relay reads events with its own decoder; it must read what JSONDecoder reads, the same
/// value, and leave to JSONDecoder whatever JSONDecoder refuses or reads its own way.
final class EventJSONDecoderTests: XCTestCase {
    private static let events = [
        #"{"session": "s1", "type": "validatemerchant", "validationURL": "https:\/\/apple-pay-gateway.apple.com/x"}"#,
        #"{"session": "s1", "type": "shippingcontactselected", "shippingContact": {"locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US", "addressLines": []}}"#,
        #"{"session": "s1", "type": "shippingmethodselected", "shippingMethod": {"label": "x", "detail": "", "amount": "5.00", "identifier": "express", "unknown": [1, 2.5, -0, 1e3, null, true, {"a": "\u00e9\ud83d\ude00\n"}]}}"#,
        #"{"session": "s1", "type": "paymentmethodselected", "paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "debit", "paymentPass": null}}"#,
        #"{"session": "s1", "type": "couponcodechanged", "couponCode": "T\"E\\N\/\b\f\r\t"}"#,
        #"{"session": "s1", "type": "paymentauthorized", "payment": {"token": {"paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "credit"}, "transactionIdentifier": "ok-1", "paymentData": {"version": "EC_v1", "data": "abc", "n": 12, "list": [true, false, null, "x", {}], "nested": {"k": []}}}, "shippingContact": {"givenName": "Ravi", "familyName": "Patel", "addressLines": ["1 Main St", ""], "locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US"}}}"#,
        #"  {"type": "cancel", "session": "s1"}  "#,
        #"{"session": "s1", "type": "shippingaddresschange", "shippingAddress": {"country": "US", "addressLine": [], "region": "TX", "city": "Austin", "postalCode": "78701"}}"#,
        #"{"session": "s1", "type": "shippingoptionchange", "shippingOption": "express"}"#,
        #"{"session": "s1", "type": "paymentmethodchange", "methodName": "https://apple.com/apple-pay", "methodDetails": {"displayName": "Visa 1234", "network": "Visa", "type": "debit"}}"#,
        #"{"session": "s1", "type": "payerdetailchange", "payerName": "", "payerEmail": null, "payerPhone": "+1 555"}"#,
    ]

    // spec W2: the same value as JSONDecoder for every kind of event.
    func testEveryEventIsReadAsJSONDecoderReadsIt() throws {
        for text in Self.events {
            let bytes = Data(text.utf8)
            let ours = try XCTUnwrap(EventJSONDecoder.decode(RelayEvent.self, from: bytes), text)
            XCTAssertEqual(ours, try JSONDecoder().decode(RelayEvent.self, from: bytes), text)
        }
    }

    // spec W2: every event of the relay recordings under Examples/relay (real browsers' among
    // them) is read by the relay's own decoder, as JSONDecoder reads it; every reply there is
    // written by the relay's own encoder as JSONEncoder writes it.
    func testTheRecordingsAreReadAndWrittenAsFoundationDoes() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/relay")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }
        XCTAssertFalse(files.isEmpty)
        var events = 0
        var replies = 0
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.isEmpty {
                let bytes = Data(line.utf8)
                if let event = try? JSONDecoder().decode(RelayEvent.self, from: bytes) {
                    XCTAssertEqual(EventJSONDecoder.decode(RelayEvent.self, from: bytes), event, "\(file): \(line)")
                    events += 1
                } else if let reply = try? JSONDecoder().decode(RelayReply.self, from: bytes) {
                    XCTAssertEqual(
                        SortedJSONEncoder.encode(reply).map { String(decoding: $0, as: UTF8.self) },
                        String(decoding: try encoder.encode(reply), as: UTF8.self), "\(file): \(line)")
                    replies += 1
                }
            }
        }
        XCTAssertGreaterThan(events, 20)
        XCTAssertGreaterThan(replies, 20)
    }

    // spec W2: what JSONDecoder refuses, or reads its own way, is left to it (nil here).
    func testWhatJSONDecoderRefusesOrReadsItsOwnWayIsLeftToIt() throws {
        let leftToJSONDecoder = [
            #"{"session": "s1", "type": "couponcodechanged", "couponCode": "TEN",}"#,
            #"{"session": "s1", "type": "couponcodechanged", "couponCode": "TEN"} x"#,
            #"{"session": "s1", "type": "couponcodechanged", "couponCode": 10}"#,
            #"{"session": "s1", "type": "couponcodechanged"}"#,
            #"{"session": "s1", "type": "nosuchevent"}"#,
            #"{"session": "s1", "session": "s2", "type": "cancel"}"#,
            #"{"session": "s1", "type": "couponcodechanged", "couponCode": "\ud800"}"#,
            #"{"session": "s1", "type": "couponcodechanged", "couponCode": "a\u{01}b"}"#,
            #"{"session": "s1", "type": "cancel", "x": 01}"#,
            #"{"session": "s1", "type": "cancel", "x": 1.}"#,
            #"{"session": "s1", "type": "cancel", "x": tru}"#,
            #"{'session': 's1'}"#,
            "",
            "[]",
            // Numbers JSONDecoder reads its own way where an integer is asked for.
            #"{"session": "s1", "type": "paymentauthorized", "payment": {"token": {"paymentMethod": {}, "paymentData": {"n": 1.0}}}}"#,
        ]
        for text in leftToJSONDecoder {
            XCTAssertNil(EventJSONDecoder.decode(RelayEvent.self, from: Data(text.utf8)), text)
        }
        XCTAssertNil(EventJSONDecoder.decode(RelayEvent.self, from: Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])))
        // Bytes that are not UTF-8 inside a string of the event (ASCII is read without the
        // generic validation; anything else is validated).
        for invalid: [UInt8] in [[0xFF], [0xC3], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0x41, 0x80]] {
            let bytes = Data(
                #"{"session": "s1", "type": "couponcodechanged", "couponCode": ""#.utf8 + invalid + #""}"#.utf8)
            XCTAssertNil(EventJSONDecoder.decode(RelayEvent.self, from: bytes), "\(invalid)")
            XCTAssertThrowsError(try JSONDecoder().decode(RelayEvent.self, from: bytes), "\(invalid)")
        }
    }

    // spec W2: text that is UTF-8 beyond ASCII, unescaped, is read as JSONDecoder reads it.
    func testUnescapedUnicodeIsReadAsJSONDecoderReadsIt() throws {
        for code in ["Zürich", "東京", "€5 😀", "ASCII only"] {
            let bytes = Data(#"{"session": "s1", "type": "couponcodechanged", "couponCode": "\#(code)"}"#.utf8)
            let ours = try XCTUnwrap(EventJSONDecoder.decode(RelayEvent.self, from: bytes), code)
            XCTAssertEqual(ours, try JSONDecoder().decode(RelayEvent.self, from: bytes), code)
            XCTAssertEqual(ours.payload, .couponCodeChanged(code))
        }
    }

    func testScalarsAreReadAsJSONDecoderReadsThem() throws {
        let text =
            #"{"a": [0, -7, 9223372036854775807], "b": [1.5, -0.25, 1e-3], "c": [true, false], "d": [null, "x"]}"#
        struct Scalars: Decodable, Equatable {
            var a: [Int64]
            var b: [Double]
            var c: [Bool]
            var d: [String?]
        }
        let bytes = Data(text.utf8)
        XCTAssertEqual(
            EventJSONDecoder.decode(Scalars.self, from: bytes), try JSONDecoder().decode(Scalars.self, from: bytes))
        XCTAssertNil(EventJSONDecoder.decode([Int8].self, from: Data("[300]".utf8)))
        XCTAssertNil(EventJSONDecoder.decode([UInt].self, from: Data("[-1]".utf8)))
        XCTAssertNil(EventJSONDecoder.decode([Float].self, from: Data("[1.5]".utf8)))
        XCTAssertNil(EventJSONDecoder.decode([Double].self, from: Data("[1e400]".utf8)))
        XCTAssertNil(EventJSONDecoder.decode([Double].self, from: Data("[1e-400]".utf8)))
        XCTAssertEqual(EventJSONDecoder.decode([Double].self, from: Data("[0e5, -0.0]".utf8)), [0, 0])
    }

    /// `allKeys`, in the two forms the decoder makes it: every key (`JSONKey`, for `JSONValue` and
    /// the wire types' check for a foreign payload) and a type's own keys.
    func testAnObjectsKeysAreReadAsJSONDecoderReadsThem() throws {
        struct Known: Decodable, Equatable {
            var keys: [String]
            enum CodingKeys: String, CodingKey { case a, b }
            init(from decoder: any Decoder) throws {
                keys = try decoder.container(keyedBy: CodingKeys.self).allKeys.map(\.stringValue).sorted()
            }
        }
        let bytes = Data(#"{"b": 1, "x": {"y": [1, "2"]}, "a": null, "é": true}"#.utf8)
        XCTAssertEqual(
            EventJSONDecoder.decode(Known.self, from: bytes), try JSONDecoder().decode(Known.self, from: bytes))
        XCTAssertEqual(EventJSONDecoder.decode(Known.self, from: bytes)?.keys, ["a", "b"])
        XCTAssertEqual(
            EventJSONDecoder.decode(JSONValue.self, from: bytes), try JSONDecoder().decode(JSONValue.self, from: bytes))
        // A payment whose token is not a token (none of its members): refused as JSONDecoder refuses it.
        let foreign = Data(
            #"{"session": "s1", "type": "paymentauthorized", "payment": {"token": {"x": 1}}}"#.utf8)
        XCTAssertThrowsError(try JSONDecoder().decode(RelayEvent.self, from: foreign))
        XCTAssertNil(EventJSONDecoder.decode(RelayEvent.self, from: foreign))
    }
}
