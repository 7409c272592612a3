import CheckoutCore
import XCTest

@testable import CheckoutFlows

/// A log's records packed between events (``FlowLog/compact()``, as the relay does with an idle
/// session's) read back as they were recorded: every part of every kind of record, entry for
/// entry, with the times, sequence numbers and actors they had (spec E8).
final class PackedRecordsTests: XCTestCase {
    private struct Answer: CustomStringConvertible, Sendable {
        var number: Int
        var description: String { "answer \(number)" }
    }

    /// Every value a record can hold: none, texts (empty, long, not ASCII), a contact, a payment,
    /// a secret, a model.
    private static let values: [TranscriptValue?] = {
        let contact = Contact(
            name: "Jane Appleseed", emailAddress: "jane@example.com",
            postalAddress: Address(line1: "1 Main St", city: "Springfield", postalCode: "12345", country: .us))
        let method = PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit)
        let token = PaymentToken(paymentMethod: method, transactionIdentifier: "tx", paymentData: "data")
        return [
            nil, .text(""), .text("express"), .text(String(repeating: "long text ", count: 40)),
            .text("Zürich 東京 🚚"), .contact(contact),
            .payment(Payment(token: token, shippingContact: contact)),
            .secret(try! IntentClientSecret("pi_1_secret_abc")),
            .model(description: "a model", json: #"{"a":1}"#),
        ]
    }()

    /// Records `count` entries of every kind, at times that go back and forth, some far apart.
    private func record(_ range: Range<Int>, into log: inout FlowLog) {
        for index in range {
            let value = Self.values[index % Self.values.count]
            let times: [Int64] = [0, 1, -5_000, 1 << 40, Int64.max, Int64.min, 999_999_999]
            let now = FlowInstant(nanoseconds: times[index % times.count] &+ Int64(index))
            switch index % 11 {
            case 0: log.record(action: "act \(index % 3)", value ?? .text("none"), at: now)
            case 1:
                log.record(call: "call", callbackID: index % 2 == 0 ? nil : UInt64(index), value ?? .text("x"), at: now)
            case 2:
                let contact = Contact(name: "Customer \(index)", postalAddress: Address(city: "Paris", country: .fr))
                log.record(
                    call: "didSelectShippingContact", callbackID: UInt64.max - UInt64(index),
                    redactingForShipping: contact, at: now)
            case 3:
                log.recordCompletion(
                    "call", callbackID: UInt64(index), answer: Answer(number: index),
                    byDefault: index % 2 == 0, at: now)
            case 4:
                log.recordCompletion(
                    "call", callbackID: UInt64(index), answer: "other \(index)", byDefault: true, at: now)
            case 5:
                let method = PaymentMethod(displayName: "card \(index)", network: .masterCard, type: .debit)
                log.record(action: "selectPaymentMethod", deferred: .paymentMethod(method), at: now)
            case 6:
                let method = PaymentMethod(network: .amex, type: .credit)
                log.record(
                    call: "didSelectPaymentMethod", callbackID: UInt64(index), deferred: .paymentMethod(method), at: now
                )
            case 7: log.record(.outcome(index % 2 == 0 ? "" : "outcome \(index)"), at: now)
            case 8:
                log.record(
                    .completion("done", callbackID: UInt64(index), value.map { [$0] } ?? [], byDefault: true), at: now)
            case 9:
                let refusal = Refusal(code: .notPresented, message: "no", fields: ["f"])
                log.record(.refused("refused \(index)", refusal), at: now)
            default:
                log.violation(.lateCompletion, "call", id: UInt64(index), at: now, "late")
            }
        }
    }

    func testPackedRecordsReadBackEntryForEntry() {
        var log = FlowLog(recordsTranscript: true)
        var packed = FlowLog(recordsTranscript: true)
        // The same records in both logs (the same sequence numbers: recorded once, copied).
        record(0..<40, into: &log)
        packed = log
        packed.compact()
        XCTAssertEqual(packed.transcript.entries, log.transcript.entries)
        XCTAssertEqual(packed.outline.entries, log.outline.entries)
        // Recorded on after packing, packed again (after 300 records: across a chunk), and once more
        // with nothing new.
        record(40..<340, into: &log)
        packed = log
        packed.compact()
        packed.compact()
        XCTAssertEqual(packed.transcript.entries, log.transcript.entries)
        XCTAssertEqual(packed.violations, log.violations)
        record(340..<350, into: &log)
        var partly = log
        partly.compact()
        record(350..<360, into: &log)
        record(350..<360, into: &partly)
        XCTAssertEqual(partly.transcript.entries.prefix(350), log.transcript.entries.prefix(350))
        XCTAssertEqual(partly.transcript.entries.count, 360)
    }

    // A value recorded twice in a row (the contact of an action and of its call; the card of
    // selectPaymentMethod and of its call) is kept once and reads back in both places, packed or
    // not, across packings.
    func testAValueRecordedTwiceInARowReadsBackInBothPlaces() {
        let contact = Contact(name: "Jane", postalAddress: Address(city: "Cupertino", country: .us))
        let card = PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit)
        let other = PaymentMethod(network: .amex, type: .credit)
        var log = FlowLog(recordsTranscript: true)
        log.record(action: "selectShippingContact", .contact(contact), at: .milliseconds(1))
        log.record(call: "didSelectShippingContact", callbackID: 1, .contact(contact), at: .milliseconds(2))
        log.record(action: "selectPaymentMethod", deferred: .paymentMethod(card), at: .milliseconds(3))
        log.record(call: "didSelectPaymentMethod", callbackID: 2, deferred: .paymentMethod(card), at: .milliseconds(4))
        log.record(call: "didSelectPaymentMethod", callbackID: 3, deferred: .paymentMethod(other), at: .milliseconds(5))
        log.record(call: "didSelectPaymentMethod", callbackID: 4, deferred: .paymentMethod(card), at: .milliseconds(6))
        log.record(call: "didSelectPaymentMethod", callbackID: 5, deferred: .paymentMethod(card), at: .milliseconds(7))
        let visa = TranscriptValue.model(card, description: "Visa 4242")
        let amex = TranscriptValue.model(other, description: "amex")
        var expected: [TranscriptEvent] = [
            .action("selectShippingContact", [.contact(contact)]),
            .call("didSelectShippingContact", callbackID: 1, [.contact(contact)]),
            .action("selectPaymentMethod", [visa]),
            .call("didSelectPaymentMethod", callbackID: 2, [visa]),
            .call("didSelectPaymentMethod", callbackID: 3, [amex]),
            .call("didSelectPaymentMethod", callbackID: 4, [visa]),
            .call("didSelectPaymentMethod", callbackID: 5, [visa]),
        ]
        XCTAssertEqual(log.transcript.entries.map(\.event), expected)
        XCTAssertEqual(log.outline.entries.map(\.event)[3], .call("didSelectPaymentMethod", callbackID: 2, []))
        let unpacked = log.transcript.entries
        log.compact()
        XCTAssertEqual(log.transcript.entries, unpacked)
        // The last value packed, recorded again after the packing.
        log.record(call: "didSelectShippingContact", callbackID: 6, .contact(contact), at: .milliseconds(8))
        log.compact()
        expected.append(.call("didSelectShippingContact", callbackID: 6, [.contact(contact)]))
        XCTAssertEqual(log.transcript.entries.map(\.event), expected)
    }

    // A packed call is amended as one kept as it is (spec A9), and its copy is not.
    func testAPackedCallIsAmended() {
        var log = FlowLog(recordsTranscript: true)
        log.record(call: "didSelectShippingMethod", callbackID: 1, .text("ground"), at: .milliseconds(1))
        log.record(action: "later", .text("x"), at: .milliseconds(2))
        let copy = log
        log.compact()
        XCTAssertTrue(log.amendLastCall("didSelectShippingMethod", to: .outcome("amended")))
        let entries = log.transcript.entries
        XCTAssertEqual(entries.map(\.event), [.outcome("amended"), .action("later", [.text("x")])])
        XCTAssertEqual(entries.map(\.sequence), copy.transcript.entries.map(\.sequence))
        XCTAssertEqual(entries.map(\.time), copy.transcript.entries.map(\.time))
        XCTAssertEqual(
            copy.transcript.entries.first?.event, .call("didSelectShippingMethod", callbackID: 1, [.text("ground")]))
        XCTAssertFalse(log.amendLastCall("none", to: .outcome("x")))
    }

    // Names past the numbered ones are packed as their text. (This fills the process's table of
    // names: every later test packs new names as text, which must read back the same too.)
    func testNamesPastTheTableArePackedAsText() {
        var filler = 0
        while RecordNames.number(of: "filler name \(filler)") != nil { filler += 1 }
        XCTAssertEqual(RecordNames.names.count, RecordNames.limit)
        XCTAssertNil(RecordNames.number(of: "a name never numbered"))
        var log = FlowLog(recordsTranscript: true)
        record(0..<30, into: &log)
        log.record(action: "a name never numbered", .text("v"), at: .zero)
        log.record(call: "", callbackID: 3, .text("an empty name"), at: .zero)
        let expected = log.transcript.entries
        log.compact()
        XCTAssertEqual(log.transcript.entries, expected)
    }
}
