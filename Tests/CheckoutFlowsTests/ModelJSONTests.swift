import CheckoutCore
import CheckoutFlows
import Foundation
import XCTest

/// A transcript's model JSON is written from a tree of its own (``ModelJSON``): it must stay byte
/// for byte what `JSONEncoder` and `JSONSerialization` wrote together (spec E8), and leave to them
/// the values they could write otherwise.
final class ModelJSONTests: XCTestCase {
    private typealias F = FlowsFixture

    /// Strings with every escape `JSONSerialization` writes, and text it leaves as it is.
    private static let hostile = [
        "", "plain", "a/b", "q\"x\\y", "line\r\nbreak\ttab\u{8}\u{c}\u{1}\u{1f}", "é e\u{301} 🇺🇸 \u{2028}\u{10FFFF}",
    ]

    private func assertSame<T: Encodable>(_ value: T, file: StaticString = #filePath, line: UInt = #line) {
        let reference = ModelJSON.foundationText(value)
        XCTAssertNotNil(reference, "Foundation encodes \(value)", file: file, line: line)
        XCTAssertEqual(ModelJSON.text(value), reference, file: file, line: line)
    }

    // spec E8
    func testTheModelsAJSONTranscriptRecordsAreWrittenAsFoundationWroteThem() throws {
        let error = PaymentError(
            code: PaymentError.Code(rawValue: "shippingContactInvalid"), field: .postalCode, message: "no")
        for text in Self.hostile {
            let method = ShippingMethod(identifier: text, label: text, amount: F.money("-1.05"))
            let summary = F.summary("12.34") + [SummaryItem(label: text, amount: F.money("0.01"))]
            let errors = [error, PaymentError(code: PaymentError.Code(rawValue: text), message: text)]
            assertSame(
                ShippingContactUpdate(errors: errors, summaryItems: summary, shippingMethods: [method, F.express]))
            assertSame(ShippingContactUpdate(summaryItems: summary))
            assertSame(ShippingMethodUpdate(summaryItems: summary))
            assertSame(PaymentMethodUpdate(errors: errors, summaryItems: []))
            assertSame(CouponCodeUpdate(errors: errors, summaryItems: summary, shippingMethods: []))
            assertSame(PaymentAuthorizationResult(status: .pinRequired, errors: errors))
            var contact = F.jane()
            contact.name = text
            contact.postalAddress?.line2 = text
            let token = PaymentToken(
                paymentMethod: PaymentMethod(displayName: text, network: PaymentNetwork(rawValue: text), type: .eMoney),
                transactionIdentifier: text, paymentData: text)
            assertSame(contact)
            assertSame(
                Payment(token: token, billingContact: F.john(), shippingContact: contact, shippingMethod: method))
            assertSame(Payment(token: F.token()))
            assertSame(text)
        }
        assertSame(PaymentAuthorizationResult(status: .success))
        assertSame(Contact())
        assertSame(try XCTUnwrap(F.jane().postalAddress))
    }

    private struct Keyed: Encodable {
        var fields: [String: String]
        var numbers: [Int64]
        var unsigned: [UInt8]
        var nothing: String?
        var nested: [[String: [Bool?]]]

        enum CodingKeys: CodingKey { case fields, numbers, unsigned, nothing, nested }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(fields, forKey: .fields)
            try container.encode(numbers, forKey: .numbers)
            try container.encode(unsigned, forKey: .unsigned)
            try container.encodeNil(forKey: .nothing)
            try container.encode(nested, forKey: .nested)
        }
    }

    // spec E8: keys in `JSONSerialization`'s sorted order (case-insensitive, numeric), not bytes'.
    func testKeysAreSortedAsJSONSerializationSortsThem() {
        let keys = [
            "b", "B", "a", "A", "ab", "aB", "Ab", "a10", "a9", "a09", "line1", "line10", "line2", "_x", "x_", "Zeta",
            "alpha", "é", "e", "E", "ß", "ss", "", " ", "~", "[", "1", "10", "2", "summaryItems", "shippingMethods",
            "shippingmethods", "errors", "status",
        ]
        let fields = Dictionary(uniqueKeysWithValues: keys.map { ($0, $0) })
        let value = Keyed(
            fields: fields, numbers: [0, -1, .max, .min], unsigned: [0, 255], nothing: nil,
            nested: [["k": [true, nil, false]], [:]])
        assertSame(value)
        // The fast path for ASCII letters agrees with Foundation's comparison on every pair.
        let letters = keys.filter { !$0.isEmpty && $0.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A } }
        for a in keys + letters {
            for b in keys + letters where a != b {
                let options: String.CompareOptions = [.numeric, .caseInsensitive, .forcedOrdering]
                let foundation = a.compare(
                    b, options: options, range: a.startIndex..<a.endIndex, locale: NSLocale.system)
                XCTAssertEqual(ModelJSON.precedes(a, b), foundation == .orderedAscending, "\(a) before \(b)")
            }
        }
    }

    /// Foundation's order of `keys`: their indices sorted by its comparison.
    private func foundationOrder(_ keys: [String]) -> [Int] {
        let options: String.CompareOptions = [.numeric, .caseInsensitive, .forcedOrdering]
        return keys.indices.sorted { a, b in
            keys[a].compare(
                keys[b], options: options, range: keys[a].startIndex..<keys[a].endIndex, locale: NSLocale.system)
                == .orderedAscending
        }
    }

    // spec E8: an object's key order is worked out once for its list of keys and kept; the order
    // kept is Foundation's, for lists whose byte order, lower-cased byte order and Foundation's
    // order differ, and each list is told apart from another spelled otherwise.
    func testAKeptKeyOrderIsFoundationsOrder() {
        let lists: [[String]] = [
            ["line10", "line2", "line1"],  // numeric: line1, line2, line10
            ["a_b", "ab", "a-b", "aB", "A"],  // punctuation and case
            ["postal_code", "postalCode", "postal", "Postal_Code", "postal code"],
            ["x9", "x10", "X9", "x09"],
            ["\u{e9}", "e", "f"],
            ["e\u{301}", "e", "f"],  // the same as the list before, spelled otherwise
            ["b", "a", "B", "A"],  // letters alone, equal but for case: not the fast path
            ["f", "e", "e\u{301}"],  // a list before, in another order
        ]
        for keys in lists {
            let expected = foundationOrder(keys)
            XCTAssertEqual(ModelJSON.order(of: keys), expected, "\(keys)")
            XCTAssertEqual(ModelJSON.order(of: keys), expected, "\(keys), kept")
        }
        // Written as objects, the second time with the order kept: as Foundation writes them.
        for keys in lists {
            let fields = Dictionary(keys.map { ($0, $0) }, uniquingKeysWith: { first, _ in first })
            let value = Keyed(fields: fields, numbers: [], unsigned: [], nothing: nil, nested: [])
            assertSame(value)
            assertSame(value)
        }
    }

    private struct Floating: Encodable {
        var amount: Double
        var date = Date(timeIntervalSince1970: 0)
    }

    private struct Large: Encodable { var id: UInt64 }

    private class Base: Encodable {
        var base = "base"
    }

    private final class Derived: Base {
        var own = "own"
        enum CodingKeys: CodingKey { case own }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(own, forKey: .own)
            try super.encode(to: container.superEncoder())
        }
    }

    // Values the two Foundation coders could write otherwise are left to them, whole.
    func testValuesLeftToFoundationAreWrittenByFoundation() {
        for value in [Floating(amount: 0.1), Floating(amount: 1e300)] {
            XCTAssertNil(ModelJSON.text(value))
            XCTAssertEqual(TranscriptValue.modelJSON(value), ModelJSON.foundationText(value))
        }
        XCTAssertNil(ModelJSON.text(Large(id: .max)))
        XCTAssertEqual(ModelJSON.text(Large(id: 7)), #"{"id":7}"#)
        XCTAssertNil(ModelJSON.text(Derived()), "a super encoder is not modelled: the value is not cut")
        XCTAssertEqual(TranscriptValue.modelJSON(Derived()), #"{"own":"own","super":{"base":"base"}}"#)
    }

    /// Encodes in the ways a review found the tree could differ from Foundation.
    private struct Unusual: Encodable {
        enum Way { case keyedTwice, unkeyedTwice, valueThenNested, swallowedDouble, respelledKey }
        let way: Way

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            switch way {
            case .keyedTwice:
                var first = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("x"))
                try first.encode(1, forKey: AnyKey("p"))
                var again = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("x"))
                try again.encode(2, forKey: AnyKey("q"))
            case .unkeyedTwice:
                var first = container.nestedUnkeyedContainer(forKey: AnyKey("x"))
                try first.encode(1)
                var again = container.nestedUnkeyedContainer(forKey: AnyKey("x"))
                try again.encode(2)
            case .valueThenNested:
                try container.encode(["p": 1], forKey: AnyKey("x"))
                var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("x"))
                try nested.encode(2, forKey: AnyKey("q"))
            case .swallowedDouble:
                try container.encode("a", forKey: AnyKey("a"))
                try? container.encode(1.5, forKey: AnyKey("d"))
            case .respelledKey:
                try container.encode(1, forKey: AnyKey("\u{e9}"))
                try container.encode(2, forKey: AnyKey("e\u{301}"))
            }
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.init(stringValue) }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    private indirect enum Deep: Encodable {
        case leaf
        case inside(Deep)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if case .inside(let deeper) = self { try container.encode(deeper) }
        }
    }

    // A review's findings: what the tree would have written otherwise is Foundation's.
    func testUnusualEncodingsAreWrittenAsFoundationWritesThem() {
        for way in [Unusual.Way.keyedTwice, .unkeyedTwice, .valueThenNested, .swallowedDouble] {
            XCTAssertNil(ModelJSON.text(Unusual(way: way)), "\(way) is left to Foundation")
            XCTAssertEqual(TranscriptValue.modelJSON(Unusual(way: way)), ModelJSON.foundationText(Unusual(way: way)))
        }
        XCTAssertEqual(ModelJSON.foundationText(Unusual(way: .keyedTwice)), #"{"x":{"p":1,"q":2}}"#)
        assertSame(Unusual(way: .respelledKey))
        var deep = Deep.leaf
        for _ in 0..<600 { deep = .inside(deep) }
        XCTAssertNil(ModelJSON.text(deep), "past 500 levels the tree does not write")
        XCTAssertEqual(TranscriptValue.modelJSON(deep), ModelJSON.foundationText(deep))
        var shallow = Deep.leaf
        for _ in 0..<100 { shallow = .inside(shallow) }
        assertSame(shallow)
    }
}
