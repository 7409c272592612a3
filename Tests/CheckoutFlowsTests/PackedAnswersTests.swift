import CheckoutCore
import Foundation
import XCTest

@testable import CheckoutFlows

/// The sheet's answers packed with an idle flow's transcript (``PackableAnswer``,
/// ``FlowLog/compact(packingAnswersOf:)``, as the relay packs an idle session's) read back as
/// they were answered, to the scalar, with the default's flag (spec A9, E8); an answer with a part
/// the packed form does not carry stays as it is.
final class PackedAnswersTests: XCTestCase {
    private static let usd = CurrencyCode.usd
    private static let eur = try! CurrencyCode("EUR")
    private static let decomposed = "Cafe\u{301}"
    private static let composed = "Caf\u{E9}"

    private static func items(_ label: String = "Tea", shipping: Int64 = 500) -> [SummaryItem] {
        [
            SummaryItem(label: label, amount: Money(minorUnits: 1_200, currency: usd)),
            SummaryItem(label: "Shipping", amount: Money(minorUnits: shipping, currency: usd), type: .pending),
            SummaryItem(label: "Tea Shop", amount: Money(minorUnits: 1_200 + shipping, currency: usd)),
        ]
    }

    private static let methods = [
        ShippingMethod(identifier: "ground", label: "Ground", amount: .zero(usd)),
        ShippingMethod(
            identifier: "express", label: "Express", detail: "Next day",
            amount: Money(minorUnits: 1_500, currency: usd)),
    ]

    /// Answers of every case the packed form carries, with and without methods, details, pending
    /// amounts, another currency, amounts far from zero, labels of different scalars that `==`
    /// calls equal, and empty labels.
    private static let packable: [PaymentAuthorizationAnswer] = {
        var answers: [PaymentAuthorizationAnswer] = [
            .shippingContact(ShippingContactUpdate(summaryItems: items())),
            .shippingContact(ShippingContactUpdate(summaryItems: items(), shippingMethods: methods)),
            .shippingContact(ShippingContactUpdate(summaryItems: items(), shippingMethods: [])),
            .shippingMethod(ShippingMethodUpdate(summaryItems: items(shipping: 1_500))),
            .paymentMethod(PaymentMethodUpdate(summaryItems: items(decomposed))),
            .paymentMethod(PaymentMethodUpdate(summaryItems: items(composed))),
            .couponCode(CouponCodeUpdate(summaryItems: items(""), shippingMethods: Array(methods.reversed()))),
            .couponCode(
                CouponCodeUpdate(summaryItems: [
                    SummaryItem(label: "Fee", amount: Money(minorUnits: -1, currency: eur)),
                    SummaryItem(label: "Huge", amount: Money(minorUnits: .max, currency: usd)),
                    SummaryItem(label: "Least", amount: Money(minorUnits: .min, currency: usd)),
                ])),
            .shippingMethod(ShippingMethodUpdate(summaryItems: [])),
        ]
        answers += answers.map { $0.givenByDefault(true) }
        return answers
    }()

    /// Answers with a part the packed form does not carry.
    private static let unpackable: [PaymentAuthorizationAnswer] = {
        var recurring = ShippingMethodUpdate(summaryItems: items())
        recurring.recurringPaymentRequest = RecurringPaymentRequest(
            paymentDescription: "Tea club",
            regularBilling: RecurringPaymentSummaryItem(
                label: "Monthly", amount: Money(minorUnits: 900, currency: usd), intervalUnit: .month),
            managementURL: URL(string: "https://example.com/manage")!)
        let dated = ShippingMethod(
            identifier: "dated", label: "Dated", amount: .zero(usd),
            deliveryDateRange: try! DeliveryDateRange(
                start: CalendarDay(year: 2026, month: 12, day: 24), end: CalendarDay(year: 2026, month: 12, day: 28)))
        return [
            .shippingContact(
                ShippingContactUpdate(
                    errors: [.shippingAddressUnserviceable("We do not ship there")], summaryItems: items())),
            .couponCode(CouponCodeUpdate(errors: [.couponCodeInvalid("no")], summaryItems: items())),
            .paymentMethod(PaymentMethodUpdate(errors: [.couponCodeExpired("old")], summaryItems: items())),
            .shippingMethod(recurring),
            .shippingContact(ShippingContactUpdate(summaryItems: items(), shippingMethods: [dated])),
            .authorization(.success),
            .merchantSession(MerchantSessionUpdate(status: .success)),
        ]
    }()

    /// The answer's description and JSON, to the scalar.
    private func scalars(_ answer: PaymentAuthorizationAnswer) -> [UInt32] {
        let value = TranscriptValue.answer(answer)
        return (value.rendered(showingPersonalData: true) + value.json(showingPersonalData: true)).unicodeScalars.map(
            \.value)
    }

    func testEachUpdateReadsBackAsAnswered() {
        // Half of them as the default gives them.
        XCTAssertEqual(Self.packable.filter(\.isDefaultAnswer).count * 2, Self.packable.count)
        var bytes: [UInt8] = []
        for answer in Self.packable {
            let start = bytes.count
            XCTAssertTrue(answer.pack(appendingTo: &bytes, byDefault: answer.isDefaultAnswer), "\(answer)")
            var reader = PackedAnswerReader(bytes: bytes, at: start)
            let again = PaymentAuthorizationAnswer.unpack(from: &reader, byDefault: answer.isDefaultAnswer)
            XCTAssertEqual(again, answer)
            XCTAssertEqual(again?.isDefaultAnswer, answer.isDefaultAnswer)
            XCTAssertEqual(again.map(scalars), scalars(answer), "\(answer)")
            XCTAssertTrue(reader.isAtEnd)
        }
    }

    func testAnUpdateWithAPartThePackedFormDoesNotCarryIsNotPacked() {
        var bytes: [UInt8] = [1, 2, 3]
        for answer in Self.unpackable {
            XCTAssertFalse(answer.pack(appendingTo: &bytes, byDefault: false), "\(answer)")
            XCTAssertEqual(bytes, [1, 2, 3])
        }
        // Read back with another flag than the answer's own, it would differ: not packed.
        let answer = Self.packable[0]
        XCTAssertFalse(answer.pack(appendingTo: &bytes, byDefault: !answer.isDefaultAnswer))
        XCTAssertEqual(bytes, [1, 2, 3])
    }

    func testAStringWrittenBeforeIsWrittenAsItsPlace() {
        var bytes: [UInt8] = []
        let answer = PaymentAuthorizationAnswer.shippingMethod(ShippingMethodUpdate(summaryItems: Self.items()))
        XCTAssertTrue(answer.pack(appendingTo: &bytes, byDefault: false))
        let first = bytes.count
        XCTAssertTrue(answer.pack(appendingTo: &bytes, byDefault: false))
        // "USD", "Tea", "Shipping" and "Tea Shop" again: a byte each, not their text.
        XCTAssertLessThan(bytes.count - first, first - 16)
        var reader = PackedAnswerReader(bytes: bytes, at: first)
        XCTAssertEqual(PaymentAuthorizationAnswer.unpack(from: &reader, byDefault: false), answer)
        // A label of other scalars is not taken for the one before.
        let other = PaymentAuthorizationAnswer.paymentMethod(
            PaymentMethodUpdate(summaryItems: Self.items(Self.composed)))
        let decomposed = PaymentAuthorizationAnswer.paymentMethod(
            PaymentMethodUpdate(summaryItems: Self.items(Self.decomposed)))
        XCTAssertTrue(decomposed.pack(appendingTo: &bytes, byDefault: false))
        let start = bytes.count
        XCTAssertTrue(other.pack(appendingTo: &bytes, byDefault: false))
        reader = PackedAnswerReader(bytes: bytes, at: start)
        XCTAssertEqual(PaymentAuthorizationAnswer.unpack(from: &reader, byDefault: false).map(scalars), scalars(other))
    }

    /// Bytes that are not an answer read as nil or as some answer, never a trap: every prefix of
    /// packed answers, and each byte of them changed.
    func testBytesThatAreNotAnAnswerDoNotTrap() {
        var bytes: [UInt8] = []
        for answer in Self.packable { _ = answer.pack(appendingTo: &bytes, byDefault: answer.isDefaultAnswer) }
        for end in 0..<min(bytes.count, 200) {
            var reader = PackedAnswerReader(bytes: Array(bytes[..<end]), at: 0)
            _ = PaymentAuthorizationAnswer.unpack(from: &reader, byDefault: false)
        }
        for index in 0..<min(bytes.count, 200) {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                var changed = bytes
                changed[index] = value
                var reader = PackedAnswerReader(bytes: changed, at: 0)
                while !reader.isAtEnd, PaymentAuthorizationAnswer.unpack(from: &reader, byDefault: false) != nil {}
            }
        }
    }

    /// A log whose answers are packed by `compact(packingAnswersOf:)` between events (some of the
    /// answers not packable, some given by the default, answers of another type among them, over
    /// several compactions and past a chunk) reads the transcript of the same log not packed, to
    /// the scalar; a copy taken before a compaction reads on as it was; a call packed with them is
    /// amended (spec A9).
    func testALogWithItsAnswersPackedReadsTheSameTranscript() {
        let answers = Self.packable + Self.unpackable
        var plain = FlowLog(recordsTranscript: true)
        var packed = FlowLog(recordsTranscript: true)
        var copies: [(log: FlowLog, entries: [TranscriptEntry])] = []
        for round in 0..<8 {
            for (index, answer) in answers.enumerated() {
                let now = FlowInstant(nanoseconds: Int64(round * 1_000 + index))
                let id = UInt64(round * 100 + index + 1)
                let method = answer.method.rawValue
                plain.record(call: method, callbackID: id, .text("call"), at: now)
                packed.record(call: method, callbackID: id, .text("call"), at: now)
                plain.recordCompletion(
                    method, callbackID: id, answer: answer, byDefault: answer.isDefaultAnswer, at: now)
                packed.recordCompletion(
                    method, callbackID: id, answer: answer, byDefault: answer.isDefaultAnswer, at: now)
                if index % 3 == 0 {
                    plain.recordCompletion("other", callbackID: id, answer: "text \(index)", byDefault: false, at: now)
                    packed.recordCompletion("other", callbackID: id, answer: "text \(index)", byDefault: false, at: now)
                }
                if index % 4 == round % 4 {
                    copies.append((packed, packed.transcript.entries))
                    packed.compact(packingAnswersOf: PaymentAuthorizationAnswer.self)
                }
            }
        }
        XCTAssertGreaterThan(plain.transcript.entries.count, 192)
        XCTAssertEqual(Self.unsequenced(packed.transcript), Self.unsequenced(plain.transcript))
        XCTAssertEqual(Self.scalars(packed.transcript), Self.scalars(plain.transcript))
        XCTAssertEqual(Self.unsequenced(packed.outline), Self.unsequenced(plain.outline))
        for (copy, entries) in copies { XCTAssertEqual(copy.transcript.entries, entries) }

        let amended = TranscriptEvent.call("didSelectShippingMethod", callbackID: 5, [.text("amended")])
        XCTAssertTrue(plain.amendLastCall("didSelectShippingMethod", to: amended))
        XCTAssertTrue(packed.amendLastCall("didSelectShippingMethod", to: amended))
        XCTAssertEqual(Self.unsequenced(packed.transcript), Self.unsequenced(plain.transcript))
        packed.compact(packingAnswersOf: PaymentAuthorizationAnswer.self)
        XCTAssertEqual(Self.unsequenced(packed.transcript), Self.unsequenced(plain.transcript))
    }

    /// The entries without their sequence numbers (the two logs record the same at other times of
    /// the process-wide counter).
    private static func unsequenced(_ transcript: Transcript) -> [TranscriptEntry] {
        transcript.entries.map { entry in
            var entry = entry
            entry.sequence = 0
            return entry
        }
    }

    /// Every completion's value, described and as JSON, to the scalar.
    private static func scalars(_ transcript: Transcript) -> [[UInt32]] {
        transcript.entries.compactMap { entry in
            guard case .completion(_, _, let values, _) = entry.event, let value = values.first else { return nil }
            return (value.rendered(showingPersonalData: true) + value.json(showingPersonalData: true)).unicodeScalars
                .map(\.value)
        }
    }
}
