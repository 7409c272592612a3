import CheckoutCore
import CheckoutWeb
import Foundation
import XCTest

@testable import CheckoutWebRelay

/// The relay reads the Apple Pay and W3C events straight from its parsed tree
/// (``RelayEvent/init(node:)`` and a reader a wire type); that reading must be the `Decodable`
/// path's value wherever it answers, and it must not answer where the `Decodable` path refuses.
final class EventDirectReadingTests: XCTestCase {
    /// An event of every kind the direct reader answers for, with every member of every wire type
    /// it reads at least once.
    private static let events = [
        #"{"session": "s1", "type": "validatemerchant", "validationURL": "https:\/\/apple-pay-gateway.apple.com/x"}"#,
        #"{"session": "s1", "type": "shippingcontactselected", "shippingContact": {"locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US", "subLocality": "Downtown", "subAdministrativeArea": "Travis", "country": "United States"}}"#,
        #"{"session": "s1", "type": "shippingmethodselected", "shippingMethod": {"label": "Express", "detail": "", "amount": "5.00", "identifier": "express", "dateComponentsRange": {"startDateComponents": {"years": 2026, "months": 12, "days": 5, "hours": 0}, "endDateComponents": {"years": 2026, "months": 12, "days": 7}}}}"#,
        #"{"session": "s1", "type": "paymentmethodselected", "paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "debit", "paymentPass": {"primaryAccountIdentifier": "p1", "primaryAccountNumberSuffix": "1234", "deviceAccountIdentifier": "d1", "deviceAccountNumberSuffix": "5678", "activationState": "activated"}, "billingContact": {"givenName": "Ravi", "familyName": "Patel", "phoneticGivenName": "ラヴィ", "phoneticFamilyName": "パテル", "postalCode": "78701", "countryCode": "US"}, "bindToken": "b-1"}}"#,
        #"{"session": "s1", "type": "couponcodechanged", "couponCode": "T\"E\\N\/\b\f\r\t\u00e9\ud83d\ude00"}"#,
        #"{"session": "s1", "type": "paymentauthorized", "payment": {"token": {"paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "credit"}, "transactionIdentifier": "ok-1", "paymentData": {"version": "EC_v1", "data": "abc", "n": -12, "list": [true, false, null, "x", {}], "nested": {"k": []}}}, "billingContact": {"emailAddress": "ravi@example.com", "phoneNumber": "+1 555"}, "shippingContact": {"givenName": "Ravi", "familyName": "Patel", "addressLines": ["1 Main St", ""], "locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US"}, "installmentAuthorizationToken": "i-1"}}"#,
        #"  {"type": "cancel", "session": "s1"}  "#,
        #"{"session": "s1", "type": "shippingaddresschange", "shippingAddress": {"country": "US", "addressLine": ["1 Main St"], "region": "TX", "city": "Austin", "dependentLocality": "", "postalCode": "78701", "sortingCode": "", "organization": "", "recipient": "", "phone": ""}}"#,
        #"{"session": "s1", "type": "shippingoptionchange", "shippingOption": "express"}"#,
        #"{"session": "s1", "type": "paymentmethodchange", "methodName": "https://apple.com/apple-pay", "methodDetails": {"displayName": "Visa 1234", "network": "Visa", "type": "debit"}}"#,
        #"{"session": "s1", "type": "paymentmethodchange", "methodName": "https://apple.com/apple-pay", "methodDetails": null}"#,
        #"{"session": "s1", "type": "paymentresponse", "response": {"requestId": "r-1", "methodName": "https://apple.com/apple-pay", "details": {"token": {"a": [1, "2"]}}, "shippingAddress": {"country": "US", "addressLine": ["1 Main St"], "city": "Austin"}, "shippingOption": "express", "payerName": "Ravi Patel", "payerEmail": "ravi@example.com", "payerPhone": "+1 555"}}"#,
        #"{"session": "s1", "type": "paymentresponse", "response": {"requestId": "r-1", "methodName": "basic-card", "details": null, "shippingAddress": null, "shippingOption": null, "payerName": null, "payerEmail": null, "payerPhone": null}}"#,
        #"{"session": "s1", "type": "payerdetailchange", "payerName": "", "payerEmail": null, "payerPhone": "+1 555"}"#,
    ]

    /// The direct reading of `bytes`: parsed by the relay's parser, read by ``RelayEvent/init(node:)``.
    private func direct(_ bytes: Data) -> RelayEvent? {
        let root: EventJSONDecoder.Node? = bytes.withUnsafeBytes { buffer in
            var parser = EventJSONDecoder.Parser(bytes: buffer)
            return parser.document()
        }
        return root.flatMap { try? RelayEvent(node: $0) }
    }

    /// Checks the direct reading of `bytes` against the `Decodable` path (`JSONDecoder`, and the
    /// tree decoder's containers where they answer); whether the direct reader answered.
    @discardableResult
    private func assertAgrees(_ bytes: Data, _ message: @autoclosure () -> String) -> Bool {
        let ours = direct(bytes)
        let foundations = Result { try JSONDecoder().decode(RelayEvent.self, from: bytes) }
        guard let ours else { return false }
        switch foundations {
        case .success(let event):
            XCTAssertEqual(ours, event, message())
            if let containers = EventJSONDecoder.decode(RelayEvent.self, from: bytes) {
                XCTAssertEqual(ours, containers, message())
            }
        case .failure(let error):
            XCTFail("read \(ours) where JSONDecoder refuses (\(error)): \(message())")
        }
        return true
    }

    // spec W2: every kind of Apple Pay and W3C event, every member of its wire types, is read
    // directly, and as the Decodable path reads it.
    func testEveryKindOfEventIsReadAsTheDecodablePathReadsIt() throws {
        for text in Self.events {
            XCTAssertTrue(assertAgrees(Data(text.utf8), text), "not read directly: \(text)")
        }
        let kinds = Set(Self.events.compactMap { direct(Data($0.utf8))?.type })
        XCTAssertEqual(kinds.count, 12)
    }

    // spec W2: the events above give every member of every wire type they hold a value at least
    // once, so that a member added to a wire type, which its reader would pass over while
    // `init(from:)` reads it, fails here until an event carries it (and the reading above then
    // compares it).
    func testTheEventsSetEveryMemberOfTheirWireTypes() throws {
        var members: [String: Set<String>] = [:]
        var present: [String: Set<String>] = [:]
        for text in Self.events {
            let event = try JSONDecoder().decode(RelayEvent.self, from: Data(text.utf8))
            Self.collectMembers(of: event.payload, members: &members, present: &present)
        }
        XCTAssertGreaterThanOrEqual(members.count, 8, "wire types seen: \(members.keys.sorted())")
        for (type, all) in members {
            XCTAssertEqual(all.subtracting(present[type] ?? []), [], "members of \(type) no event sets")
        }
    }

    /// The stored members of every CheckoutWeb wire type within `value` (`members`), and those
    /// that hold a value there (`present`), by the type's name.
    private static func collectMembers(
        of value: Any, members: inout [String: Set<String>], present: inout [String: Set<String>]
    ) {
        let mirror = Mirror(reflecting: value)
        let type = String(reflecting: Swift.type(of: value))
        let isWireType = mirror.displayStyle == .struct && type.hasPrefix("CheckoutWeb.")
        for child in mirror.children {
            if isWireType, let label = child.label {
                members[type, default: []].insert(label)
                let inner = Mirror(reflecting: child.value)
                if inner.displayStyle != .optional || !inner.children.isEmpty {
                    present[type, default: []].insert(label)
                }
            }
            collectMembers(of: child.value, members: &members, present: &present)
        }
    }

    // spec W2: the events the relay's tests build, as JSONEncoder writes them, are read directly
    // to the same value.
    func testTheTestsEventsAreReadDirectly() throws {
        let built = [
            try Page.contact("s1"), try Page.contact("s2", country: "GB", postalCode: "SW1A 1AA"),
            try Page.method("s1", "express"), try Page.card("s1", type: "debit"), try Page.card("s1"),
            try Page.coupon("s1", "TEN"), try Page.authorize("s1"), try Page.validate("s1"), try Page.cancel("s1"),
            try Page.address("s1"), try Page.option("s1", "ground"), try Page.methodChange("s1"),
        ]
        let encoder = JSONEncoder()
        for event in built {
            for formatting in [JSONEncoder.OutputFormatting(), [.sortedKeys, .prettyPrinted]] {
                encoder.outputFormatting = formatting
                let bytes = try encoder.encode(event)
                XCTAssertEqual(direct(bytes), event, String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    // spec W2, W10: every event of the relay recordings under Examples/relay (Chromium's among
    // them, with the `caller` member the recordings add) is read as the Decodable path reads it;
    // every Apple Pay and W3C event there is read directly.
    func testTheRecordingsAreReadDirectly() throws {
        var read = 0
        var kinds: Set<RelayEventType> = []
        for line in try Self.recordedLines() {
            let bytes = Data(line.drop { $0 != "{" }.utf8)
            guard let event = try? JSONDecoder().decode(RelayEvent.self, from: bytes) else {
                XCTAssertNil(direct(bytes), line)
                continue
            }
            if assertAgrees(bytes, line) {
                read += 1
                kinds.insert(event.type)
            } else {
                XCTAssertFalse(Self.directKinds.contains(event.type), "not read directly: \(line)")
            }
        }
        XCTAssertGreaterThan(read, 30)
        XCTAssertTrue(
            kinds.isSuperset(of: [.shippingContactSelected, .paymentAuthorized, .paymentResponse]), "\(kinds)")
    }

    /// Every line of the relay recordings under Examples/relay (events, answers and the
    /// simulator's own lines), each named by its file.
    private static func recordedLines() throws -> [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/relay")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }
        XCTAssertFalse(files.isEmpty)
        return try files.sorted().flatMap { file in
            try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
                .filter { !$0.isEmpty }.map { "\(file): \($0)" }
        }
    }

    /// The event types the direct reader answers for.
    private static let directKinds: Set<RelayEventType> = [
        .validateMerchant, .shippingContactSelected, .shippingMethodSelected, .paymentMethodSelected,
        .couponCodeChanged, .paymentAuthorized, .cancel, .shippingAddressChange, .shippingOptionChange,
        .paymentMethodChange, .paymentResponse, .payerDetailChange,
    ]

    // spec W2: what the Decodable path refuses is not read directly, and what it reads is read
    // to the same value: each event above, and the recordings' events, varied at random (members
    // dropped, unknown ones added, values of other kinds, numbers of every form, escapes, nulls).
    func testSeededVariationsAreReadAsTheDecodablePathReadsThem() throws {
        var generator = SplitMix(seed: 0x5EED_0033_0006)
        var answered = 0
        var refusedByBoth = 0
        var variations = 0
        let recorded = try Self.recordedLines().map { String($0.drop { $0 != "{" }) }.filter {
            (try? JSONDecoder().decode(RelayEvent.self, from: Data($0.utf8))) != nil
        }
        for text in Self.events + recorded {
            let root = try XCTUnwrap(Self.parse(Data(text.utf8)), text)
            for _ in 0..<(Self.events.contains(text) ? 300 : 40) {
                var varied = root
                for _ in 0...generator.below(3) { varied = Self.vary(varied, &generator) }
                let bytes = Data(Self.write(varied, &generator).utf8)
                let message = String(decoding: bytes, as: UTF8.self)
                variations += 1
                if assertAgrees(bytes, message) {
                    answered += 1
                } else if (try? JSONDecoder().decode(RelayEvent.self, from: bytes)) == nil {
                    refusedByBoth += 1
                }
            }
        }
        // Both sides of the comparison were exercised, many times.
        XCTAssertGreaterThan(answered, variations / 8, "\(answered) of \(variations) read directly")
        XCTAssertGreaterThan(refusedByBoth, variations / 10, "\(refusedByBoth) of \(variations) refused by both")
    }

    // spec W2: every single change to each event above, at every node (each value of every kind
    // put in its place; each member of an object dropped, renamed to a near miss of its name, or
    // joined by another member), is read as the Decodable path reads it, or not at all.
    func testEverySingleChangeIsReadAsTheDecodablePathReadsIt() throws {
        var generator = SplitMix(seed: 0x5EED_0033_0106)
        var answered = 0
        var variations = 0
        for text in Self.events {
            let root = try XCTUnwrap(Self.parse(Data(text.utf8)), text)
            for index in 0..<Self.count(root) {
                var target = index
                for changed in Self.changes(at: &target, in: root) {
                    let bytes = Data(Self.write(changed, &generator).utf8)
                    variations += 1
                    if assertAgrees(bytes, String(decoding: bytes, as: UTF8.self)) { answered += 1 }
                }
            }
        }
        XCTAssertGreaterThan(answered, variations / 4, "\(answered) of \(variations) read directly")
    }

    // spec W2: the direct reader keeps the wire types' own refusals: an object of none of a
    // type's members (a foreign payload), a missing required member, a value outside an enum.
    func testTheWireTypesRefusalsAreKept() throws {
        let refused = [
            #"{"session": "s1", "type": "shippingcontactselected", "shippingContact": {"city": "Austin"}}"#,
            #"{"session": "s1", "type": "shippingaddresschange", "shippingAddress": {"locality": "Austin"}}"#,
            #"{"session": "s1", "type": "paymentmethodselected", "paymentMethod": {"kind": "card"}}"#,
            #"{"session": "s1", "type": "paymentmethodselected", "paymentMethod": {"type": "charge"}}"#,
            #"{"session": "s1", "type": "paymentmethodselected", "paymentMethod": {"paymentPass": {"primaryAccountIdentifier": "p", "primaryAccountNumberSuffix": "1", "activationState": null}}}"#,
            #"{"session": "s1", "type": "shippingmethodselected", "shippingMethod": {"label": "x", "detail": null, "amount": "5.00", "identifier": "e"}}"#,
            #"{"session": "s1", "type": "shippingmethodselected", "shippingMethod": {"label": "x", "detail": "", "amount": "5.00", "identifier": "e", "dateComponentsRange": {"startDateComponents": {"day": 1}, "endDateComponents": {}}}}"#,
            #"{"session": "s1", "type": "shippingmethodselected", "shippingMethod": {"label": "x", "detail": "", "amount": "5.00", "identifier": "e", "dateComponentsRange": {"startDateComponents": {"days": 1.0}, "endDateComponents": {}}}}"#,
            #"{"session": "s1", "type": "paymentauthorized", "payment": {"token": {"x": 1}}}"#,
            #"{"session": "s1", "type": "paymentauthorized", "payment": {"token": {"paymentMethod": {}, "paymentData": {"n": 1.5}}}}"#,
            #"{"session": "s1", "type": "paymentresponse", "response": {"requestId": "r", "methodName": "m"}}"#,
            #"{"session": "s1", "type": "payerdetailchange", "payerName": null}"#,
            #"{"session": "s1", "type": "nosuchevent"}"#,
            #"{"session": "s1", "type": "couponcodechanged", "couponCode": null}"#,
            #"{"session": 1, "type": "cancel"}"#,
            #"{"session": "s1", "type": "googlepay.paymentauthorized", "paymentData": {}}"#,
        ]
        for text in refused {
            XCTAssertNil(direct(Data(text.utf8)), text)
        }
        // Beside them, what the Decodable path accepts: an empty object, unknown members beside a
        // known one, `null` for an optional member.
        let accepted = [
            #"{"session": "s1", "type": "shippingcontactselected", "shippingContact": {}}"#,
            #"{"session": "s1", "type": "shippingcontactselected", "shippingContact": {"city": "Austin", "locality": null}}"#,
            #"{"session": "s1", "type": "paymentmethodselected", "paymentMethod": {"kind": "card", "paymentPass": null}}"#,
            #"{"session": "s1", "type": "cancel", "couponCode": 5, "caller": null}"#,
        ]
        for text in accepted {
            XCTAssertTrue(assertAgrees(Data(text.utf8), text), "not read directly: \(text)")
        }
    }

    // MARK: Variations

    private typealias Node = EventJSONDecoder.Node

    private static func parse(_ bytes: Data) -> Node? {
        bytes.withUnsafeBytes { buffer in
            var parser = EventJSONDecoder.Parser(bytes: buffer)
            return parser.document()
        }
    }

    /// Values put in place of another: every kind, numbers in the forms `JSONDecoder` reads its own
    /// way, strings that are members' enum values and event types.
    private static let replacements: [Node] = [
        .null, .bool(true), .bool(false), .number("0"), .number("-0"), .number("12"), .number("-7"), .number("1.0"),
        .number("1e2"), .number("0.5"), .number("9223372036854775808"), .number("-9223372036854775809"),
        .string(""), .string("x"), .string("é\u{1F600}"), .string("credit"), .string("activated"), .string("cancel"),
        .string("paymentauthorized"), .string("shippingcontactselected"), .string("payerdetailchange"),
        .string("googlepay.paymentauthorized"), .array([]), .array([.string("a"), .string("b")]), .array([.null]),
        .array([.number("1")]), .object([]), .object([.init(key: "years", value: .number("2026"))]),
        .object([.init(key: "x", value: .number("1"))]),
        .object([
            .init(key: "primaryAccountIdentifier", value: .string("p")),
            .init(key: "primaryAccountNumberSuffix", value: .string("1")),
            .init(key: "activationState", value: .string("suspended")),
        ]),
    ]

    /// Member names added to objects: unknown ones, near misses and other types' members.
    private static let names = [
        "x", "caller", "Locality", "countrycode", "Country", "type", "session", "token", "paymentMethod", "details",
        "years",
        "label", "givenName", "country", "addressLine", "addressLines", "methodDetails", "payerName", "é",
    ]

    /// `node` with one change at a node chosen at random.
    private static func vary(_ node: Node, _ generator: inout SplitMix) -> Node {
        var target = generator.below(count(node))
        return vary(node, &target, &generator)
    }

    private static func count(_ node: Node) -> Int {
        switch node {
        case .array(let elements): 1 + elements.map(count).reduce(0, +)
        case .object(let members): 1 + members.map { count($0.value) }.reduce(0, +)
        default: 1
        }
    }

    private static func vary(_ node: Node, _ target: inout Int, _ generator: inout SplitMix) -> Node {
        if target == 0 {
            target = -1
            return change(node, &generator)
        }
        target -= 1
        switch node {
        case .array(let elements):
            return .array(elements.map { target < 0 ? $0 : vary($0, &target, &generator) })
        case .object(let members):
            return .object(
                members.map { target < 0 ? $0 : .init(key: $0.key, value: vary($0.value, &target, &generator)) })
        default:
            return node
        }
    }

    private static func change(_ node: Node, _ generator: inout SplitMix) -> Node {
        if case .object(var members) = node, generator.below(3) > 0 {
            if !members.isEmpty, generator.below(2) == 0 {
                members.remove(at: generator.below(members.count))
            } else {
                let name = names[generator.below(names.count)]
                guard !members.contains(where: { $0.key == name }) else { return node }
                let value = replacements[generator.below(replacements.count)]
                members.insert(.init(key: name, value: value), at: generator.below(members.count + 1))
            }
            return .object(members)
        }
        if case .array(var elements) = node, !elements.isEmpty, generator.below(2) == 0 {
            elements[generator.below(elements.count)] = replacements[generator.below(replacements.count)]
            return .array(elements)
        }
        return replacements[generator.below(replacements.count)]
    }

    /// `root` with every single change made at its `target`th node, each in a copy of its own.
    private static func changes(at target: inout Int, in root: Node) -> [Node] {
        if target == 0 {
            target = -1
            var changed = replacements
            if case .object(let members) = root {
                for index in members.indices {
                    var dropped = members
                    dropped.remove(at: index)
                    changed.append(.object(dropped))
                    let key = members[index].key
                    let nearMisses = [
                        key.prefix(1).uppercased() + key.dropFirst(), key.lowercased(), key + "s",
                        String(key.dropLast()),
                    ]
                    for name in nearMisses where !members.contains(where: { $0.key == name }) {
                        var renamed = members
                        renamed[index].key = name
                        changed.append(.object(renamed))
                    }
                }
                for (offset, name) in names.enumerated() where !members.contains(where: { $0.key == name }) {
                    changed.append(
                        .object(members + [.init(key: name, value: replacements[offset % replacements.count])]))
                }
            }
            return changed
        }
        target -= 1
        switch root {
        case .array(let elements):
            for index in elements.indices {
                let changed = changes(at: &target, in: elements[index])
                if target < 0 {
                    return changed.map {
                        var copy = elements
                        copy[index] = $0
                        return .array(copy)
                    }
                }
            }
        case .object(let members):
            for index in members.indices {
                let changed = changes(at: &target, in: members[index].value)
                if target < 0 {
                    return changed.map {
                        var copy = members
                        copy[index].value = $0
                        return .object(copy)
                    }
                }
            }
        default: break
        }
        return []
    }

    /// `node` as JSON text, each string's characters escaped at random (`\u` escapes, surrogate
    /// pairs, the short escapes, or as they are), white space at random.
    private static func write(_ node: Node, _ generator: inout SplitMix) -> String {
        let space = generator.below(4) == 0 ? " " : ""
        switch node {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return quote(text, &generator)
        case .array(let elements):
            return "[" + elements.map { write($0, &generator) }.joined(separator: "," + space) + "]"
        case .object(let members):
            return "{" + space
                + members.map { quote($0.key, &generator) + ":" + space + write($0.value, &generator) }
                .joined(separator: "," + space) + "}"
        }
    }

    private static func quote(_ text: String, _ generator: inout SplitMix) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            let escape = generator.below(5) == 0
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "/" where escape: quoted += "\\/"
            case "\n": quoted += "\\n"
            case "\t": quoted += escape ? "\\u0009" : "\\t"
            case _ where scalar.value < 0x20 || escape:
                if scalar.value > 0xFFFF {
                    let offset = scalar.value - 0x10000
                    quoted += hex(0xD800 + (offset >> 10)) + hex(0xDC00 + (offset & 0x3FF))
                } else {
                    quoted += hex(scalar.value)
                }
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}

/// A seeded generator (SplitMix64), so that every run varies the events the same way.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number from 0 to `bound` less one.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
