import CheckoutCore
import CheckoutFlows
import Synchronization
import XCTest

/// The flow's log keeps a long transcript in chunks; read back, it is every entry in the order
/// recorded, whatever the chunk boundaries (spec E8).
final class FlowLogTests: XCTestCase {
    private struct Answer: CustomStringConvertible, Sendable {
        var number: Int
        var description: String { "answer \(number)" }
    }

    func testALongTranscriptReadsBackInOrderAcrossChunks() {
        var log = FlowLog(recordsTranscript: true)
        // 1,001 entries of the four kinds of record: several chunks, the last one partly full.
        let count = 1_001
        for index in 0..<count {
            let now = FlowInstant.milliseconds(index)
            switch index % 4 {
            case 0: log.record(action: "act", .text("\(index)"), at: now)
            case 1: log.record(call: "call", callbackID: UInt64(index), .text("\(index)"), at: now)
            case 2:
                log.recordCompletion(
                    "call", callbackID: UInt64(index), answer: Answer(number: index), byDefault: index % 8 == 2, at: now
                )
            default: log.record(.outcome("\(index)"), at: now)
            }
        }
        let entries = log.transcript.entries
        XCTAssertEqual(entries.count, count)
        for (index, entry) in entries.enumerated() {
            XCTAssertEqual(entry.time, .milliseconds(index))
            let expected: TranscriptEvent =
                switch index % 4 {
                case 0: .action("act", [.text("\(index)")])
                case 1: .call("call", callbackID: UInt64(index), [.text("\(index)")])
                case 2:
                    .completion(
                        "call", callbackID: UInt64(index), [.text("answer \(index)")], byDefault: index % 8 == 2)
                default: .outcome("\(index)")
                }
            XCTAssertEqual(entry.event, expected, "entry \(index)")
        }
        // The sequence numbers, taken when recorded, rise with the entries.
        XCTAssertEqual(entries.map(\.sequence), entries.map(\.sequence).sorted())
        XCTAssertEqual(Set(entries.map(\.sequence)).count, count)
    }

    func testNothingIsKeptWithTranscriptsOff() {
        var log = FlowLog(recordsTranscript: false)
        for index in 0..<300 { log.record(action: "act", .text("\(index)"), at: .zero) }
        XCTAssertTrue(log.transcript.entries.isEmpty)
    }

    /// An answer that counts how often it is described.
    private final class CountedAnswer: CustomStringConvertible, Sendable {
        let descriptions = Atomic<Int>(0)
        var description: String {
            descriptions.add(1, ordering: .relaxed)
            return "counted"
        }
    }

    // A completion's answer is described when the transcript is read, each time it is read, and
    // never for the outline.
    func testAnAnswerIsDescribedOnlyWhenTheTranscriptIsRead() {
        var log = FlowLog(recordsTranscript: true)
        let answer = CountedAnswer()
        log.record(call: "call", callbackID: 1, .text("x"), at: .zero)
        log.recordCompletion("call", callbackID: 1, answer: answer, byDefault: false, at: .seconds(1))
        XCTAssertEqual(answer.descriptions.load(ordering: .relaxed), 0)
        XCTAssertEqual(log.outline.entries.last?.event, .completion("call", callbackID: 1, [], byDefault: false))
        XCTAssertEqual(answer.descriptions.load(ordering: .relaxed), 0)
        XCTAssertEqual(
            log.transcript.entries.last?.event, .completion("call", callbackID: 1, [.text("counted")], byDefault: false)
        )
        XCTAssertEqual(answer.descriptions.load(ordering: .relaxed), 1)
        _ = log.transcript
        XCTAssertEqual(answer.descriptions.load(ordering: .relaxed), 2)
    }

    // Answers of several types in one log, the first of them after the log has filled a chunk,
    // read back each in its place.
    func testAnswersOfSeveralTypesReadBackInOrder() {
        var log = FlowLog(recordsTranscript: true)
        for index in 0..<300 { log.record(action: "act", .text("\(index)"), at: .zero) }
        var expected: [TranscriptValue] = []
        for index in 0..<40 {
            if index % 3 == 1 {
                log.recordCompletion("c", callbackID: 1, answer: "text \(index)", byDefault: false, at: .zero)
                expected.append(.text("text \(index)"))
            } else {
                log.recordCompletion("c", callbackID: 1, answer: Answer(number: index), byDefault: true, at: .zero)
                expected.append(.text("answer \(index)"))
            }
        }
        let answers = log.transcript.entries.dropFirst(300).map { entry -> TranscriptValue? in
            guard case .completion(_, _, let answer, _) = entry.event else { return nil }
            return answer.first
        }
        XCTAssertEqual(answers, expected)
    }

    // A deferred value (a token, a card) is kept as it is and described when the transcript is
    // read, as the value described at once would be: in its place among the other records, across
    // chunks, and in each copy of the log; the outline leaves it out.
    func testDeferredValuesAreDescribedWhenReadInTheirPlaces() {
        let token = PaymentToken(
            paymentMethod: PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit),
            transactionIdentifier: "tx-1", paymentData: "secret data")
        var log = FlowLog(recordsTranscript: true)
        // Named by display name, else by network, else by type.
        let cards = (0..<300).map { index in
            switch index % 3 {
            case 0: PaymentMethod(displayName: "card \(index)", network: .visa, type: .credit)
            case 1: PaymentMethod(displayName: nil, network: .amex, type: .debit)
            default: PaymentMethod(displayName: nil, network: nil, type: .prepaid)
            }
        }
        func name(_ index: Int) -> String {
            switch index % 3 {
            case 0: "card \(index)"
            case 1: PaymentNetwork.amex.rawValue
            default: PaymentMethodType.prepaid.rawValue
            }
        }
        for index in 0..<300 {
            switch index % 5 {
            case 0: log.record(action: "authorize", deferred: .token(token), at: .zero)
            case 1:
                log.record(
                    call: "didSelect", callbackID: UInt64(index), deferred: .paymentMethod(cards[index]), at: .zero)
            case 2 where index % 10 == 2:
                log.recordCompletion("c", callbackID: 1, answer: Answer(number: index), byDefault: false, at: .zero)
            case 2:
                // An answer of another type: described later from the same list as the deferred values.
                log.recordCompletion("c", callbackID: 1, answer: "text \(index)", byDefault: false, at: .zero)
            default: log.record(action: "act", .text("\(index)"), at: .zero)
            }
        }
        let expected: [TranscriptEvent] = (0..<300).map { index in
            switch index % 5 {
            case 0: .action("authorize", [.token(token)])
            case 1: .call("didSelect", callbackID: UInt64(index), [.model(cards[index], description: name(index))])
            case 2 where index % 10 == 2: .completion("c", callbackID: 1, [.text("answer \(index)")], byDefault: false)
            case 2: .completion("c", callbackID: 1, [.text("text \(index)")], byDefault: false)
            default: .action("act", [.text("\(index)")])
            }
        }
        var copy = log
        copy.record(action: "authorize", deferred: .token(token), at: .zero)
        XCTAssertEqual(log.transcript.entries.map(\.event), expected)
        XCTAssertEqual(copy.transcript.entries.map(\.event), expected + [.action("authorize", [.token(token)])])
        // The outline leaves the answers and the deferred values out, describing none.
        let outline = log.outline.entries.map(\.event)
        XCTAssertEqual(outline[0], .action("authorize", []))
        XCTAssertEqual(outline[1], .call("didSelect", callbackID: 1, []))
        XCTAssertEqual(outline[3], expected[3])
        // The token's payment data is masked in what is read.
        guard case .action(_, let values) = log.transcript.entries[0].event, let value = values.first else {
            return XCTFail("the token's action")
        }
        XCTAssertFalse(value.json(showingPersonalData: true).contains("secret data"))
        XCTAssertFalse(value.rendered(showingPersonalData: true).contains("secret data"))
    }

    // A copy of a log is a value: what each records after the copy, the other does not see, the
    // answers and the older chunks included.
    func testACopiedLogIsAValue() {
        var log = FlowLog(recordsTranscript: true)
        log.record(call: "n", callbackID: nil, .text("in the oldest chunk"), at: .zero)
        for index in 1..<260 { log.record(action: "act", .text("\(index)"), at: .zero) }
        log.recordCompletion("c", callbackID: 1, answer: Answer(number: 1), byDefault: false, at: .zero)
        var copy = log
        log.recordCompletion("c", callbackID: 2, answer: Answer(number: 2), byDefault: false, at: .zero)
        copy.recordCompletion("c", callbackID: 3, answer: Answer(number: 3), byDefault: false, at: .zero)
        copy.recordCompletion("c", callbackID: 4, answer: "four", byDefault: false, at: .zero)
        XCTAssertTrue(copy.amendLastCall("n", to: .outcome("amended")))
        XCTAssertEqual(copy.transcript.entries.first?.event, .outcome("amended"))
        XCTAssertEqual(log.transcript.entries.first?.event, .call("n", callbackID: nil, [.text("in the oldest chunk")]))
        func answers(_ log: FlowLog) -> [String] {
            log.transcript.entries.compactMap { entry in
                guard case .completion(_, let id, let answer, _) = entry.event else { return nil }
                return "\(id): \(answer.first?.rendered(showingPersonalData: false) ?? "-")"
            }
        }
        XCTAssertEqual(answers(log), ["1: answer 1", "2: answer 2"])
        XCTAssertEqual(answers(copy), ["1: answer 1", "3: answer 3", "4: four"])
        XCTAssertEqual(log.transcript.entries.count, 262)
        XCTAssertEqual(copy.transcript.entries.count, 263)
    }

    // Every ready-made event reads back as it was recorded, whether the record holds it in parts
    // (an action, a call or a completion with at most one value, an outcome) or keeps it whole; an
    // amendment reaches either kind of call.
    func testReadyMadeEventsReadBackAsRecorded() {
        let refusal = Refusal(code: .notPresented, message: "not yet", fields: ["a"])
        let violation = Violation(kind: .lateCompletion, callback: "m", callbackID: 3, time: .seconds(2), detail: "d")
        let events: [TranscriptEvent] = [
            .action("a", []), .action("b", [.text("x")]), .action("c", [.text("x"), .text("y")]),
            .call("n", callbackID: nil, []), .call("n", callbackID: 0, [.text("zero")]),
            .call("m", callbackID: 7, [.text("x")]), .call("m", callbackID: 8, [.text("x"), .text("y")]),
            .completion("m", callbackID: 7, [], byDefault: false),
            .completion("m", callbackID: 7, [.text("answer")], byDefault: true),
            .completion("m", callbackID: 8, [.text("x"), .text("y")], byDefault: false),
            .refused("a", refusal), .violation(violation), .outcome("done"), .outcome(""),
        ]
        var log = FlowLog(recordsTranscript: true)
        for (index, event) in events.enumerated() { log.record(event, at: .milliseconds(index)) }
        XCTAssertEqual(log.transcript.entries.map(\.event), events)
        XCTAssertEqual(log.outline.entries.map(\.event), events)
        XCTAssertEqual(log.transcript.entries.map(\.time), events.indices.map { .milliseconds($0) })

        // The latest call of "m" is kept whole (two values); of "n", in parts (id 0).
        XCTAssertTrue(log.amendLastCall("m", to: .call("m", callbackID: nil, [.text("amended"), .text("whole")])))
        XCTAssertTrue(log.amendLastCall("n", to: .outcome("n amended")))
        var expected = events
        expected[6] = .call("m", callbackID: nil, [.text("amended"), .text("whole")])
        expected[4] = .outcome("n amended")
        XCTAssertEqual(log.transcript.entries.map(\.event), expected)
        // Still a call of "m", amended again; then the one before it, in parts.
        XCTAssertTrue(log.amendLastCall("m", to: .action("m amended", [])))
        XCTAssertTrue(log.amendLastCall("m", to: .outcome("again")))
        expected[6] = .action("m amended", [])
        expected[5] = .outcome("again")
        XCTAssertEqual(log.transcript.entries.map(\.event), expected)
        XCTAssertEqual(log.transcript.entries.map(\.sequence), log.transcript.entries.map(\.sequence).sorted())
        XCTAssertFalse(log.amendLastCall("x", to: .outcome("none")))
    }

    // A log compacted between events (as the relay does with an idle session's) reads back the
    // same transcript, and records on after it: across the chunk boundary, with answers and
    // deferred values in their places (spec E8).
    func testACompactedLogReadsBackTheSameAndRecordsOn() {
        var log = FlowLog(recordsTranscript: true)
        var compacted = FlowLog(recordsTranscript: true)
        func record(_ index: Int, _ log: inout FlowLog) {
            let now = FlowInstant.milliseconds(index)
            switch index % 4 {
            case 0: log.record(action: "act", .text("\(index)"), at: now)
            case 1:
                let card = PaymentMethod(displayName: "later \(index)", network: .visa, type: .credit)
                log.record(call: "call", callbackID: UInt64(index), deferred: .paymentMethod(card), at: now)
            case 2:
                log.recordCompletion(
                    "call", callbackID: UInt64(index), answer: Answer(number: index), byDefault: false, at: now)
            default: log.record(.outcome("\(index)"), at: now)
            }
        }
        for index in 0..<500 {
            record(index, &log)
            record(index, &compacted)
            // Compacted after every few records, and twice in a row.
            if index % 7 == 3 { compacted.compact() }
            if index % 50 == 0 { compacted.compact() }
        }
        let expected = log.transcript.entries.map(\.event)
        XCTAssertEqual(expected.count, 500)
        XCTAssertEqual(compacted.transcript.entries.map(\.event), expected)
        XCTAssertEqual(compacted.transcript.entries.map(\.time), log.transcript.entries.map(\.time))
        XCTAssertEqual(compacted.outline.entries.map(\.event), log.outline.entries.map(\.event))
        // An empty log, and one with transcripts off, compact to what they were.
        var empty = FlowLog(recordsTranscript: true)
        empty.compact()
        XCTAssertTrue(empty.transcript.entries.isEmpty)
        var off = FlowLog(recordsTranscript: false)
        off.record(action: "act", .text("x"), at: .zero)
        off.compact()
        XCTAssertTrue(off.transcript.entries.isEmpty)
    }
}
