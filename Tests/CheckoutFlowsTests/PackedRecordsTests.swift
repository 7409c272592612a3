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

    // Names past a table's limit are packed as their text, and read back with the numbered ones
    // (a table of its own: the flows' shared one is left as it is).
    func testNamesPastTheTableArePackedAsText() {
        let names = RecordNames(limit: 2)
        let records = ["first", "second", "third", "", "first", "a name never numbered", "second"].enumerated().map {
            FlowLog.Record(
                .action, time: FlowInstant(nanoseconds: Int64($0.offset)), sequence: UInt64($0.offset),
                name: $0.element,
                value: .text($0.element))
        }
        var packed = PackedRecords()
        packed.append(Array(records.prefix(3)), names: names)
        packed.append(Array(records.dropFirst(3)), names: names)
        XCTAssertEqual(names.names, ["first", "second"])
        XCTAssertNil(names.number(of: "third"))
        var reader = packed.records(names: names)
        var read: [FlowLog.Record] = []
        while let record = reader.next() { read.append(record) }
        XCTAssertEqual(read.map(\.name), records.map(\.name))
        XCTAssertEqual(read.map(\.value), records.map(\.value))
        XCTAssertEqual(read.map(\.time), records.map(\.time))
        XCTAssertEqual(read.map(\.sequence), records.map(\.sequence))
    }

    // A copy of a packed log is a value: an amendment of one, or what one records and packs, the
    // other does not see.
    func testACopyOfAPackedLogIsAValue() {
        var log = FlowLog(recordsTranscript: true)
        log.record(call: "didSelectShippingMethod", callbackID: 1, .text("ground"), at: .milliseconds(1))
        log.recordCompletion(
            "didSelectShippingMethod", callbackID: 1, answer: Answer(number: 1), byDefault: false, at: .milliseconds(2))
        log.compact()
        let copy = log
        let before = copy.transcript.entries
        XCTAssertTrue(
            log.amendLastCall("didSelectShippingMethod", to: .call("m", callbackID: nil, [.text("a"), .text("b")])))
        log.record(action: "later", .text("x"), at: .milliseconds(3))
        log.compact()
        XCTAssertEqual(copy.transcript.entries, before)
        XCTAssertEqual(log.transcript.entries.first?.event, .call("m", callbackID: nil, [.text("a"), .text("b")]))
        XCTAssertEqual(log.transcript.entries.count, 3)
    }

    // Values that `==` calls equal but whose text differs in its scalars (a composed and a
    // decomposed "é"), recorded in a row, each read back as recorded: a contact, and a card.
    func testEqualValuesOfDifferentScalarsReadBackAsRecorded() {
        let composed = "Jos\u{E9}"
        let decomposed = "Jose\u{301}"
        XCTAssertEqual(composed, decomposed)
        var log = FlowLog(recordsTranscript: true)
        for (index, name) in [decomposed, composed, composed].enumerated() {
            let contact = Contact(name: name, postalAddress: Address(city: "Lyon", country: .fr))
            log.record(action: "selectShippingContact", .contact(contact), at: .milliseconds(index))
            let card = PaymentMethod(displayName: name, network: .visa, type: .credit)
            // Calls in a row: each compared with the card the one before kept.
            log.record(
                call: "didSelectPaymentMethod", callbackID: UInt64(index + 1), deferred: .paymentMethod(card),
                at: .milliseconds(index))
        }
        func scalars(_ log: FlowLog) -> [[UInt32]] {
            log.transcript.entries.map { entry in
                let value: TranscriptValue? =
                    switch entry.event {
                    case .action(_, let values), .call(_, _, let values): values.first
                    default: nil
                    }
                switch value {
                case .contact(let contact)?: return contact.name.map { $0.unicodeScalars.map(\.value) } ?? []
                case .model(let description, _)?: return description.unicodeScalars.map(\.value)
                default: return []
                }
            }
        }
        let expected = [decomposed, composed, composed].flatMap { name in
            Array(repeating: name.unicodeScalars.map(\.value), count: 2)
        }
        XCTAssertEqual(scalars(log), expected)
        log.compact()
        XCTAssertEqual(scalars(log), expected)
    }

    // A card packed as text (a deferred card, packed with the records that hold it) reads back to
    // the scalar, whatever its strings hold; text it did not write reads as nothing.
    func testACardPackedAsTextReadsBackAsItWas() {
        let names: [String?] = [nil, "", "-", ":", "3:abc", "Visa 4242", "Caf\u{E9}", "Cafe\u{301}", "東京 🚚", "-1:"]
        for displayName in names {
            for network in names {
                for type in PaymentMethodType.allCases {
                    let card = PaymentMethod(
                        displayName: displayName, network: network.map(PaymentNetwork.init(rawValue:)), type: type)
                    let again = PaymentMethod(packedText: card.packedText)
                    XCTAssertEqual(again, card)
                    XCTAssertEqual(
                        again.map { [$0.displayName, $0.network?.rawValue].map { $0?.unicodeScalars.map(\.value) } },
                        [displayName, network].map { $0?.unicodeScalars.map(\.value) })
                }
            }
        }
        for text in ["", "-", "--", "--nope", "x:credit", "9:abc-credit", "-1:a-credit", "3:ab"] {
            XCTAssertNil(PaymentMethod(packedText: text), text)
        }
    }
}
