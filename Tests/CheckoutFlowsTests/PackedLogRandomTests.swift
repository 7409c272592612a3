import CheckoutCore
import CheckoutSimulator
import XCTest

@testable import CheckoutFlows

/// A log compacted at random points, its answers and cards packed (with copies, amendments, tokens,
/// answers of another type, and further recording), reads the transcript of the same log never
/// compacted, entry for entry and to the scalar (spec E8). Seeded, so a failure names its seed.
final class PackedLogRandomTests: XCTestCase {
    private typealias Generator = SeededGenerator

    private static let usd = CurrencyCode.usd
    private static let eur = try! CurrencyCode("EUR")
    private static let strings = [
        "", "Tea", "Cafe\u{301}", "Caf\u{E9}", "\u{301}x", "\u{600}", "-", ":", "3:abc", "東京 🚚",
        String(repeating: "long ", count: 40), String(repeating: "z", count: 127), String(repeating: "z", count: 128),
    ]

    private static func string(_ random: inout Generator) -> String { strings.randomElement(using: &random)! }

    private static func items(_ random: inout Generator) -> [SummaryItem] {
        (0..<Int.random(in: 0...4, using: &random)).map { _ in
            SummaryItem(
                label: string(&random),
                amount: Money(
                    minorUnits: [0, 1, -1, 1_500, .max, .min].randomElement(using: &random)!,
                    currency: Bool.random(using: &random) ? usd : eur),
                type: Bool.random(using: &random) ? .final : .pending)
        }
    }

    private static func methods(_ random: inout Generator) -> [ShippingMethod]? {
        guard Bool.random(using: &random) else { return nil }
        return (0..<Int.random(in: 0...3, using: &random)).map { _ in
            ShippingMethod(
                identifier: string(&random), label: string(&random),
                detail: Bool.random(using: &random) ? string(&random) : nil,
                amount: Money(minorUnits: Int64.random(in: -5...5_000, using: &random), currency: usd))
        }
    }

    private static func answer(_ random: inout Generator) -> PaymentAuthorizationAnswer {
        let answer: PaymentAuthorizationAnswer
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            var update = ShippingContactUpdate(summaryItems: items(&random), shippingMethods: methods(&random))
            if Int.random(in: 0..<5, using: &random) == 0 { update.errors = [.couponCodeInvalid("no")] }
            answer = .shippingContact(update)
        case 1: answer = .shippingMethod(ShippingMethodUpdate(summaryItems: items(&random)))
        case 2: answer = .paymentMethod(PaymentMethodUpdate(summaryItems: items(&random)))
        case 3: answer = .couponCode(CouponCodeUpdate(summaryItems: items(&random), shippingMethods: methods(&random)))
        case 4: answer = .authorization(.success)
        default: answer = .merchantSession(MerchantSessionUpdate(status: .success))
        }
        return answer.givenByDefault(Bool.random(using: &random))
    }

    private static func card(_ random: inout Generator) -> PaymentMethod {
        PaymentMethod(
            displayName: Bool.random(using: &random) ? string(&random) : nil,
            network: Bool.random(using: &random) ? PaymentNetwork(rawValue: string(&random)) : nil,
            type: PaymentMethodType.allCases.randomElement(using: &random)!)
    }

    /// Each entry as its time, its event and its values described and as JSON, to the scalar.
    private static func fingerprint(_ transcript: Transcript) -> [[UInt32]] {
        transcript.entries.map { entry in
            var text = "\(entry.time) "
            func add(_ values: [TranscriptValue]) {
                for value in values {
                    text +=
                        "[" + value.rendered(showingPersonalData: true) + "|"
                        + value.json(showingPersonalData: true) + "]"
                }
            }
            switch entry.event {
            case .action(let name, let values):
                text += "action \(name)"
                add(values)
            case .call(let name, let id, let values):
                text += "call \(name) \(String(describing: id))"
                add(values)
            case .completion(let name, let id, let values, let byDefault):
                text += "completion \(name) \(id) \(byDefault)"
                add(values)
            case .outcome(let name): text += "outcome \(name)"
            case .refused, .violation: text += String(describing: entry.event)
            }
            return text.unicodeScalars.map(\.value)
        }
    }

    private static let callNames = ["c", "didSelectPaymentMethod", "didSelectShippingContact"]

    /// Runs `steps` random steps on a plain log and one compacted at random; returns the first
    /// difference found.
    private func run(seed: UInt64, steps: Int, sparse: Bool = false) -> String? {
        var random = Generator(seed: seed)
        var plain = FlowLog(recordsTranscript: true)
        var packed = FlowLog(recordsTranscript: true)
        var snapshots: [(log: FlowLog, print: [[UInt32]], step: Int)] = []
        var lastCard: PaymentMethod?
        for step in 0..<steps {
            let now = FlowInstant(nanoseconds: Int64(step))
            let id = UInt64(step + 1)
            var operation = Int.random(in: 0..<15, using: &random)
            if sparse, operation >= 12, Int.random(in: 0..<30, using: &random) != 0 { operation = 0 }
            switch operation {
            case 0:
                let value = TranscriptValue.text(Self.string(&random))
                plain.record(action: "a", value, at: now)
                packed.record(action: "a", value, at: now)
            case 1:
                let name = Self.callNames.randomElement(using: &random)!
                plain.record(call: name, callbackID: id, .text("x"), at: now)
                packed.record(call: name, callbackID: id, .text("x"), at: now)
            case 2, 3:
                let card = Self.card(&random)
                lastCard = card
                plain.record(action: "select", deferred: .paymentMethod(card), at: now)
                packed.record(action: "select", deferred: .paymentMethod(card), at: now)
            case 4:
                let card = Bool.random(using: &random) ? (lastCard ?? Self.card(&random)) : Self.card(&random)
                plain.record(call: "didSelectPaymentMethod", callbackID: id, deferred: .paymentMethod(card), at: now)
                packed.record(call: "didSelectPaymentMethod", callbackID: id, deferred: .paymentMethod(card), at: now)
            case 5:
                let token = PaymentToken(
                    paymentMethod: Self.card(&random), transactionIdentifier: "tx \(step)", paymentData: "data")
                plain.record(action: "authorize", deferred: .token(token), at: now)
                packed.record(action: "authorize", deferred: .token(token), at: now)
            case 6, 7, 8:
                let answer = Self.answer(&random)
                let byDefault =
                    Int.random(in: 0..<8, using: &random) == 0 ? !answer.isDefaultAnswer : answer.isDefaultAnswer
                plain.recordCompletion("m", callbackID: id, answer: answer, byDefault: byDefault, at: now)
                packed.recordCompletion("m", callbackID: id, answer: answer, byDefault: byDefault, at: now)
            case 9:
                plain.recordCompletion("o", callbackID: id, answer: "other \(step)", byDefault: false, at: now)
                packed.recordCompletion("o", callbackID: id, answer: "other \(step)", byDefault: false, at: now)
            case 10:
                let name = Self.callNames.randomElement(using: &random)!
                let event = TranscriptEvent.call(name, callbackID: 7, [.text("amended \(step)")])
                let a = plain.amendLastCall(name, to: event)
                let b = packed.amendLastCall(name, to: event)
                if a != b { return "seed \(seed) step \(step): amendLastCall \(a) \(b)" }
            case 11:
                plain.record(.outcome("out \(step)"), at: now)
                packed.record(.outcome("out \(step)"), at: now)
            case 12:
                snapshots.append((packed, Self.fingerprint(packed.transcript), step))
            case 13:
                packed.compact(packingAnswersOf: PaymentAuthorizationAnswer.self)
            default:
                if Bool.random(using: &random) {
                    packed.compact()
                } else {
                    // Compacted twice, once through a copy that is then dropped.
                    let copy = packed
                    packed.compact(packingAnswersOf: PaymentAuthorizationAnswer.self)
                    packed.compact(packingAnswersOf: PaymentAuthorizationAnswer.self)
                    _ = copy
                }
            }
            if step % 50 == 0 || step == steps - 1 {
                let expected = Self.fingerprint(plain.transcript)
                let actual = Self.fingerprint(packed.transcript)
                if expected != actual {
                    let index =
                        zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                        ?? min(expected.count, actual.count)
                    func show(_ print: [[UInt32]]) -> String {
                        index < print.count
                            ? String(String.UnicodeScalarView(print[index].compactMap(Unicode.Scalar.init))) : "none"
                    }
                    return "seed \(seed) step \(step) entry \(index): expected \(show(expected)), got \(show(actual))"
                }
                if Self.fingerprint(plain.outline) != Self.fingerprint(packed.outline) {
                    return "seed \(seed) step \(step): outline differs"
                }
            }
        }
        for snapshot in snapshots where Self.fingerprint(snapshot.log.transcript) != snapshot.print {
            return "seed \(seed): the copy taken at step \(snapshot.step) changed"
        }
        return nil
    }

    func testACompactedLogReadsTheTranscriptOfOneNeverCompacted() {
        for seed in UInt64(0)..<12 {
            if let difference = run(seed: seed, steps: 400) {
                XCTFail(difference)
                return
            }
        }
    }

    func testASparselyCompactedLogReadsTheTranscriptOfOneNeverCompacted() {
        for seed in UInt64(1_000)..<1_002 {
            if let difference = run(seed: seed, steps: 1_500, sparse: true) {
                XCTFail(difference)
                return
            }
        }
    }

    /// Every update the packed form carries packs (the pack-time check passes), whatever its
    /// strings: a writer whose back-references read back wrong would leave answers unpacked.
    func testEveryPackableUpdatePacks() {
        var random = Generator(seed: 42)
        var bytes: [UInt8] = []
        for _ in 0..<3_000 {
            let answer = Self.answer(&random)
            let packable = answer.updatesSheet && answer.updatedErrors.isEmpty
            XCTAssertEqual(answer.pack(appendingTo: &bytes, byDefault: answer.isDefaultAnswer), packable, "\(answer)")
        }
    }
}
