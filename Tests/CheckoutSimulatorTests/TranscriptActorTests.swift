import CheckoutFlows
import CheckoutSimulator
import Foundation
import XCTest

/// Spec E8 as `checkout-sim` shows it: who acted, one numbering of callbacks a flow, times as
/// numbers in JSON, and the pay context's own actions on its sheet not shown as the customer's.
final class TranscriptActorTests: XCTestCase {
    func result(_ example: String) async throws -> ScenarioResult {
        await ScenarioRunner.run(try ScenarioFile.load("\(CommandLineTests.examples)/\(example)"))
    }

    func testThePayContextsTranscriptTellsTheCustomerFromTheLibrary() async throws {
        let cancelled = try await result("pay-context/cancel-before-authorize.json")
        let actions = cancelled.transcript.entries.compactMap { entry -> String? in
            if case .action(let name, _) = entry.event { return "\(entry.actor.rawValue) \(name)" }
            return nil
        }
        XCTAssertEqual(
            actions.filter { !$0.hasPrefix("customer select") },
            ["customer present", "customer cancel", "flow dismissSheet"], "present once; the dismissal is the flow's")
        let mermaid = cancelled.rendered(.mermaid)
        XCTAssertTrue(mermaid.contains("    F->>S: dismissSheet"), mermaid)
        XCTAssertEqual(
            mermaid.components(separatedBy: "C->>S: cancel").count, 1, "no cancel of the customer's on the sheet")
    }

    func testOneNumberingOfCallbacksWithoutCollisions() async throws {
        for example in [
            "pay-context/payment-intent.json", "pay-context/incorrect-zip-retry.json",
            "pay-context/three-d-secure.json",
        ] {
            let run = try await result(example)
            var calls: [UInt64] = []
            var called: Set<UInt64> = []
            for entry in run.transcript.entries {
                switch entry.event {
                case .call(_, .some(let id), _):
                    calls.append(id)
                    called.insert(id)
                case .completion(_, let id, _, _):
                    XCTAssertTrue(called.contains(id), "\(example): a completion of #\(id) follows its call")
                default: break
                }
            }
            XCTAssertEqual(calls, Array(1...UInt64(calls.count)), "\(example): numbered 1, 2, 3... in call order")
        }
    }

    // spec E8: the diagram numbers callbacks and backend requests as the text does, so no number
    // seems skipped; the sheet's completion is drawn as the pay context's answer to the sheet.
    func testTheDiagramKeepsTheTextsNumbering() async throws {
        let run = try await result("pay-context/decline.json")
        var numbers: [UInt64] = []
        for entry in run.transcript.entries {
            if case .call(let method, .some(let id), _) = entry.event, !method.hasPrefix("sheet.") {
                numbers.append(id)
            }
        }
        XCTAssertEqual(numbers, [1, 2, 3, 4, 5, 6, 7], "the text's numbers, the sheet's completion (#8) aside")
        let mermaid = run.rendered(.mermaid).split(separator: "\n").map(String.init)
        let drawn = mermaid.compactMap { line -> UInt64? in
            guard line.contains("->>"), !line.contains("-->>"), let range = line.range(of: " no. ") else { return nil }
            return UInt64(line[range.upperBound...].prefix { $0.isNumber })
        }
        XCTAssertEqual(drawn, numbers, mermaid.joined(separator: "\n"))
        XCTAssertTrue(mermaid.contains("    F->>B: createPaymentMethod no. 3"), mermaid.joined(separator: "\n"))
        XCTAssertTrue(mermaid.contains("    B-->>F: no. 3 pm_000001"), mermaid.joined(separator: "\n"))
    }

    func testJSONSaysWhoActedWithTimesAsNumbers() async throws {
        let run = try await result("misbehaviour/late-answer-times-out.json")
        let objects = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(run.transcript.json().utf8)) as? [[String: Any]])
        XCTAssertFalse(objects.isEmpty)
        for object in objects {
            XCTAssertTrue(object["time"] is NSNumber, "\(object)")
            XCTAssertNotNil(TranscriptActor(rawValue: object["actor"] as? String ?? ""), "\(object)")
        }
        XCTAssertTrue(objects.contains { ($0["time"] as? NSNumber)?.doubleValue ?? 0 > 0 }, "time moved")
        let kinds = Set(objects.compactMap { $0["actor"] as? String })
        XCTAssertTrue(kinds.isSuperset(of: ["customer", "flow", "merchant"]), "\(kinds)")
        XCTAssertTrue(run.transcript.text().contains(" customer "), run.transcript.text())
    }

    func testContactsAndPaymentsAreInTheModelsOwnJSONMasked() async throws {
        let run = try await result("pay-context/payment-intent.json")
        for unmasked in [false, true] {
            let objects = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(run.transcript.json(showingPersonalData: unmasked).utf8))
                    as? [[String: Any]])
            let contact = try XCTUnwrap(
                objects.first { $0["action"] as? String == "selectShippingContact" }?["arguments"] as? [[String: Any]]
            ).first
            XCTAssertEqual(contact?["name"] as? String, unmasked ? "Grace Hopper" : "•••")
            XCTAssertEqual((contact?["address"] as? [String: Any])?["city"] as? String, "Austin")
            let payment = try XCTUnwrap(
                objects.first { $0["method"] as? String == "didAuthorizePayment" && $0["kind"] as? String == "call" }?[
                    "arguments"] as? [[String: Any]]
            ).first
            let token = try XCTUnwrap(payment?["token"] as? [String: Any])
            XCTAssertEqual(token["paymentData"] as? String, "•••", "token data always masked")
        }
    }
}
