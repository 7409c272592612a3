import CheckoutCore
import CheckoutTestSupport
import CheckoutWeb
import Foundation
import XCTest

@testable import CheckoutWebRelay

/// The relay writes its replies with its own encoder; the page must get the bytes JSONEncoder
/// (`.sortedKeys`, `.withoutEscapingSlashes`) writes, byte for byte, or JSONEncoder's own.
final class SortedJSONEncoderTests: XCTestCase {
    private func foundation(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    private func assertSameBytes(
        _ value: some Encodable, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let ours = try XCTUnwrap(SortedJSONEncoder.encode(value), "left to JSONEncoder", file: file, line: line)
        XCTAssertEqual(
            String(decoding: ours, as: UTF8.self), String(decoding: try foundation(value), as: UTF8.self),
            file: file, line: line)
    }

    private static let awkwardText =
        "a/b \"quoted\" back\\slash \u{8}\u{c}\n\r\t \u{1}\u{1f}\u{7f} \u{2028} é 😀 e\u{301}"

    func testEveryCompletionIsWrittenAsJSONEncoderWritesIt() throws {
        let lines = [
            ApplePayLineItem(label: Self.awkwardText, amount: "12.00"),
            ApplePayLineItem(type: .pending, label: "Shipping", amount: ""),
        ]
        let errors = [
            ApplePayError(code: .shippingContactInvalid, contactField: .postalCode, message: "no </script> here"),
            ApplePayError(code: .unknown, message: ""),
        ]
        let methods = [ApplePayShippingMethod(label: "Express", detail: "1 day", amount: "5.00", identifier: "express")]
        let completions: [RelayCompletion] = [
            .shippingContactSelection(
                ApplePayShippingContactUpdate(
                    newTotal: lines[0], newLineItems: lines, errors: errors, newShippingMethods: methods)),
            .shippingMethodSelection(ApplePayShippingMethodUpdate(newTotal: lines[0], newLineItems: [])),
            .paymentMethodSelection(ApplePayPaymentMethodUpdate(newTotal: lines[0], errors: errors)),
            .couponCodeChange(ApplePayCouponCodeUpdate(newTotal: lines[0], errors: [])),
            .payment(ApplePayPaymentAuthorizationResult(status: 3, errors: errors)),
            .merchantValidation(
                .object([
                    "nonce": .string("n/1"), "epochTimestamp": .integer(1_764_547_200_000), "signed": .bool(true),
                    "Z": .null, "a10": .array([.integer(-1), .string("")]), "a9": .object([:]), "é": .string("x"),
                ])),
            .paymentComplete(.fail),
            .retry(PaymentValidationErrors(error: Self.awkwardText)),
        ]
        for completion in completions {
            try assertSameBytes(RelayReply(session: "s/1", type: "t", .complete(completion)))
        }
        try assertSameBytes(
            RelayReply(
                session: "", type: "", .refused(RelayRefusal(reason: "r", message: Self.awkwardText, fields: ["a"]))))
        try assertSameBytes(
            RelayReply(session: "s", type: "cancel", .ended(RelayEnd(outcome: "x", message: "m", abort: true))))
    }

    // Today's Apple Pay terms on every update (their URLs and dates as the wire's strings).
    func testUpdatesWithTodaysTermsAreWrittenAsJSONEncoderWritesThem() throws {
        let items = [
            SummaryItem(label: "Tea", amount: Money(minorUnits: 2_000, currency: .usd)),
            SummaryItem(label: "Tea Shop", amount: Money(minorUnits: 2_500, currency: .usd)),
        ]
        let contact = TodaysApplePay.with(ShippingContactUpdate(summaryItems: items)) {
            $0.recurringPaymentRequest = TodaysApplePay.recurring
            $0.multiTokenContexts = TodaysApplePay.contexts
        }
        let method = TodaysApplePay.with(ShippingMethodUpdate(summaryItems: items)) {
            $0.deferredPaymentRequest = TodaysApplePay.deferred
        }
        let coupon = TodaysApplePay.with(CouponCodeUpdate(summaryItems: items)) {
            $0.automaticReloadPaymentRequest = TodaysApplePay.automaticReload
        }
        let completions: [RelayCompletion] = [
            .shippingContactSelection(try ApplePayShippingContactUpdate(contact)),
            .shippingMethodSelection(try ApplePayShippingMethodUpdate(method)),
            .couponCodeChange(try ApplePayCouponCodeUpdate(coupon)),
        ]
        for completion in completions {
            try assertSameBytes(RelayReply(session: "s", type: "t", .complete(completion)))
        }
    }

    func testKeysAreSortedAsJSONEncoderSortsThem() throws {
        let keys = [
            "b", "B", "a10", "a9", "_x", "Z", "é", "a", "aB", "ab", "Ab", "ä", "1", "10", "9", "~", "a-b", "ǅ",
            // Not in `String` order: a decomposed accent, a character past the surrogates' range.
            "e\u{301}x", "\u{FF01}", "🇫🇷",
        ]
        try assertSameBytes(Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }))
        try assertSameBytes([[String: Int]]())
        try assertSameBytes([Int8.min: UInt64.max])
        try assertSameBytes([Int32.max, 0, -7] as [Int32])
    }

    /// Optional members, present and absent, through the encoder's own `encodeIfPresent`s.
    func testOptionalMembersAreWrittenAsJSONEncoderWritesThem() throws {
        struct Optionals: Encodable {
            var text: String?
            var number: Int?
            var flag: Bool?
            var list: [Int8]?
            var nested: [String: String?]?
        }
        try assertSameBytes(Optionals())
        try assertSameBytes(
            Optionals(text: "a/b", number: -3, flag: false, list: [1, -1], nested: ["k": nil, "j": "v"]))
        try assertSameBytes([Optionals(text: ""), Optionals(number: 0), Optionals(flag: true), Optionals(list: [])])
    }

    func testWhatJSONEncoderWritesItsOwnWayIsLeftToIt() throws {
        XCTAssertNil(SortedJSONEncoder.encode([1.5]))
        XCTAssertNil(SortedJSONEncoder.encode(["a": Decimal(1)]))
        XCTAssertNil(SortedJSONEncoder.encode([URL(string: "https://example.com/a")!]))
        XCTAssertNil(SortedJSONEncoder.encode(JSONValue.object(["amount": .number(Decimal(string: "0.1")!)])))
        XCTAssertNil(SortedJSONEncoder.encode(Twice()))
        // The same key as a `String` in two forms, which a sort by bytes puts apart (`z` between).
        XCTAssertNil(SortedJSONEncoder.encode(Twice(first: "\u{E9}", second: "e\u{301}", between: "z")))
        XCTAssertNil(SortedJSONEncoder.encode(Nothing()))
        // The relay then writes JSONEncoder's bytes.
        let reply = RelayReply(
            session: "s", type: "validatemerchant",
            .complete(.merchantValidation(.object(["expiresAt": .number(Decimal(string: "1.5")!)]))))
        XCTAssertEqual(WebRelay.encoded(reply), try foundation(reply))
    }

    /// Writes one key twice (`first` and `second`, equal as `String`s), and `between` once.
    private struct Twice: Encodable {
        var first = "a"
        var second = "a"
        var between: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(1, forKey: JSONKey(first))
            if let between { try container.encode(3, forKey: JSONKey(between)) }
            try container.encode(2, forKey: JSONKey(second))
        }
    }

    /// Writes nothing at all.
    private struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }
}
