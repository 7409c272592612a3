import CheckoutCore
import CheckoutFlows
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
            let now = Duration.milliseconds(index)
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
}
