import CheckoutCore
import CheckoutStripe
import Foundation
import XCTest

/// Spec P10, beyond the fixtures: Stripe adds fields anywhere, at any depth. Each fixture of
/// stripe/openapi `openapi/fixtures3.json` gets fields it has never had, of every JSON kind, in
/// its own hash and in every hash inside it (seeded, so a failure repeats), and still comes back
/// from a round trip as the same JSON.
final class StripeAddedFieldsTests: XCTestCase {
    /// A small deterministic generator (a linear congruential one).
    private struct Seeded {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private func value(_ random: inout Seeded, depth: Int) -> JSONValue {
        switch random.next(depth > 1 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.next(2) == 0)
        case 2: return .integer(Int64(random.next(1_000_000)) - 500_000)
        case 3: return .string("new \(random.next(1_000))")
        case 4: return .number(Decimal(string: "0.\(random.next(1_000) + 1)")!)
        case 5: return .array([value(&random, depth: depth + 1), value(&random, depth: depth + 1)])
        default: return .object(["nested_\(random.next(100))": value(&random, depth: depth + 1)])
        }
    }

    /// The JSON with a new field added to every hash in it but the empty ones (Stripe's empty
    /// `shipping: {}` stands for none; a shipping hash has an address); `metadata` gets strings,
    /// the only values Stripe's metadata holds.
    private func addingFields(to json: JSONValue, _ random: inout Seeded, metadata: Bool = false) -> JSONValue {
        switch json {
        case .object(let members) where !members.isEmpty || metadata:
            var grown: [String: JSONValue] = [:]
            for (key, member) in members { grown[key] = addingFields(to: member, &random, metadata: key == "metadata") }
            grown["added_\(random.next(10_000))"] =
                metadata ? .string("v\(random.next(100))") : value(&random, depth: 0)
            return .object(grown)
        case .array(let elements):
            return .array(elements.map { addingFields(to: $0, &random) })
        default:
            return json
        }
    }

    private func assertKeepsAddedFields<T: Codable & Equatable>(
        _ type: T.Type, _ fixture: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let url = try XCTUnwrap(
            Bundle.module.url(forResource: fixture, withExtension: "json", subdirectory: "Fixtures"))
        let original = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
        for seed in 1...20 {
            var random = Seeded(state: UInt64(seed))
            let grown = addingFields(to: original, &random)
            let decoded = try JSONDecoder().decode(T.self, from: Data(grown.jsonText.utf8))
            let back = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(decoded))
            XCTAssertEqual(back.jsonText, grown.jsonText, "\(fixture), seed \(seed)", file: file, line: line)
        }
    }

    func testEveryFixtureKeepsFieldsAddedAtAnyDepth() throws {
        try assertKeepsAddedFields(StripeIntent.self, "payment_intent")
        try assertKeepsAddedFields(StripeIntent.self, "setup_intent")
        try assertKeepsAddedFields(StripePaymentMethod.self, "payment_method")
        try assertKeepsAddedFields(StripeCharge.self, "charge")
        try assertKeepsAddedFields(StripeEvent.self, "event")
        try assertKeepsAddedFields(StripeConfirmationToken.self, "confirmation_token")
        try assertKeepsAddedFields(StripeErrorResponse.self, "error_card_declined")
    }
}
