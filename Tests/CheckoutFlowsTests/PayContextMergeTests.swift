import CheckoutCore
import CheckoutFlows
import CheckoutSimulator
import XCTest

/// A pay context's record and its sheet's are merged as one (spec E8) by merging the two in the
/// order they were recorded and numbering callbacks by a key of their own: the result must be
/// what sorting the entries by sequence number and numbering them by text keys gave, for records
/// as the flows keep them and for transcripts put together otherwise.
final class PayContextMergeTests: XCTestCase {
    /// The merge as it was written first: every entry sorted by sequence number, the sheet's told
    /// by a set of its sequence numbers, callbacks numbered by keys of text.
    private func reference(sheet: Transcript, context: Transcript) -> Transcript {
        let sheetEntries = Set(sheet.entries.map(\.sequence))
        var numbers: [String: UInt64] = [:]
        var next: UInt64 = 0
        func key(_ fromSheet: Bool, _ method: String, _ id: UInt64) -> String {
            let space = method.hasPrefix("backend.") || method.hasPrefix("sheet.") ? method : ""
            return "\(fromSheet ? "s" : "c")|\(space)|\(id)"
        }
        func fresh(_ key: String) -> UInt64 {
            next += 1
            numbers[key] = next
            return next
        }
        func number(_ key: String) -> UInt64 { numbers[key] ?? fresh(key) }
        var entries: [TranscriptEntry] = []
        for var entry in Transcript.merged([sheet, context]).entries {
            let fromSheet = sheetEntries.contains(entry.sequence)
            switch entry.event {
            case .action("present", let arguments) where fromSheet && arguments.isEmpty:
                continue
            case .action("cancel", let arguments) where fromSheet && arguments.isEmpty:
                entry.event = .action("dismissSheet", [])
                entry.actor = .flow
            case .action("sheet ended", _), .action("ignored", _):
                entry.actor = .flow
            case .completion(let method, let id, let answer, let byDefault)
            where fromSheet && method == "didAuthorizePayment":
                entry.event = .completion(
                    method, callbackID: number(key(fromSheet, method, id)), answer, byDefault: byDefault)
                entry.actor = .flow
            case .call(let method, .some(let id), let arguments):
                entry.event = .call(method, callbackID: fresh(key(fromSheet, method, id)), arguments)
            case .call(let method, nil, let arguments) where method.hasPrefix("backend."):
                entry.event = .call(method, callbackID: fresh(key(fromSheet, method, 0)), arguments)
            case .completion(let method, let id, let answer, let byDefault):
                let space = method.hasPrefix("backend.") ? key(fromSheet, method, 0) : key(fromSheet, method, id)
                entry.event = .completion(method, callbackID: number(space), answer, byDefault: byDefault)
            case .violation(var violation):
                violation.callbackID = number(key(fromSheet, violation.callback, violation.callbackID))
                entry.event = .violation(violation)
            default:
                break
            }
            entries.append(entry)
        }
        return Transcript(entries: entries)
    }

    /// Methods whose keys a text key could confuse: spaces of their own, and `|` in them.
    private static let methods = [
        "didSelectShippingContact", "didAuthorizePayment", "willComplete", "backend.confirm", "backend.a|1",
        "backend.a", "sheet.dismiss", "sheet.x|2",
    ]

    private func event(_ generator: inout SeededGenerator) -> TranscriptEvent {
        let method = Self.methods.randomElement(using: &generator) ?? ""
        let id = UInt64.random(in: 0...3, using: &generator)
        switch Int.random(in: 0..<9, using: &generator) {
        case 0: return .action(["present", "cancel", "sheet ended", "ignored", "select"][Int(id) % 5], [])
        case 1: return .action("cancel", [.text("argument")])
        case 2: return .call(method, callbackID: id == 0 ? nil : id, [])
        case 3, 4: return .call(method, callbackID: id + 1, [.text("x")])
        case 5, 6: return .completion(method, callbackID: id, [.text("answer")], byDefault: id == 2)
        case 7:
            return .violation(
                Violation(kind: .lateCompletion, callback: method, callbackID: id, time: .zero, detail: "late"))
        default: return .outcome("done")
        }
    }

    /// Two records of `count` entries each; their sequence numbers rising and apart (as the flows
    /// record them), or, when `hostile`, in any order and shared between the two.
    private func records(_ count: Int, hostile: Bool, _ generator: inout SeededGenerator) -> (Transcript, Transcript) {
        var sequences = (0..<(2 * count)).map { UInt64($0 + 1) }.shuffled(using: &generator)
        if hostile {
            for index in sequences.indices where Bool.random(using: &generator) {
                sequences[index] = UInt64.random(in: 1...UInt64(count), using: &generator)
            }
        }
        func record(_ sequences: ArraySlice<UInt64>, _ generator: inout SeededGenerator) -> Transcript {
            let ordered = hostile ? Array(sequences) : sequences.sorted()
            return Transcript(
                entries: ordered.map { sequence in
                    TranscriptEntry(
                        time: .milliseconds(Int64(sequence)), event: event(&generator), sequence: sequence)
                })
        }
        return (record(sequences[..<count], &generator), record(sequences[count...], &generator))
    }

    // spec E8
    func testTheMergeIsWhatSortingAndTextKeysGave() {
        var generator = SeededGenerator(seed: 16)
        for round in 0..<400 {
            let hostile = round % 4 == 3
            let (sheet, context) = records(Int.random(in: 0...24, using: &generator), hostile: hostile, &generator)
            let merged = Transcript.payContext(sheet: sheet, context: context)
            XCTAssertEqual(merged, reference(sheet: sheet, context: context), "round \(round), hostile: \(hostile)")
        }
    }

    // spec E8: the two-way merge's result on a small case, written out.
    func testRecordsAreInterleavedByTheirSequenceNumbers() {
        func entry(_ sequence: UInt64, _ event: TranscriptEvent) -> TranscriptEntry {
            TranscriptEntry(time: .zero, event: event, sequence: sequence)
        }
        let sheet = Transcript(entries: [
            entry(1, .action("present", [])), entry(3, .call("didSelectShippingContact", callbackID: 1, [])),
            entry(6, .completion("didSelectShippingContact", callbackID: 1, [], byDefault: false)),
        ])
        let context = Transcript(entries: [
            entry(2, .action("present", [])), entry(4, .call("backend.confirm", callbackID: nil, [])),
            entry(5, .call("willComplete", callbackID: 1, [])),
            entry(7, .completion("backend.confirm", callbackID: 9, [], byDefault: false)),
        ])
        let merged = Transcript.payContext(sheet: sheet, context: context)
        XCTAssertEqual(merged.entries.map(\.sequence), [2, 3, 4, 5, 6, 7])
        XCTAssertEqual(
            merged.entries.map(\.event),
            [
                .action("present", []), .call("didSelectShippingContact", callbackID: 1, []),
                .call("backend.confirm", callbackID: 2, []), .call("willComplete", callbackID: 3, []),
                .completion("didSelectShippingContact", callbackID: 1, [], byDefault: false),
                .completion("backend.confirm", callbackID: 2, [], byDefault: false),
            ])
    }
}
