import CheckoutFlows
import CheckoutSimulator
import Foundation
import XCTest

/// `checkout-sim` marks a default answer in every rendering (spec E11): text, JSON, JSON Lines
/// and the Mermaid diagram. The scenario is a pay context whose customer changes card, which
/// Stripe's delegate has no method for, so the protocol's default answers it.
final class DefaultAnswerRenderingTests: XCTestCase {
    private static let scenario = #"""
        {
          "name": "a default answer",
          "flow": "payContext",
          "request": {
            "merchantIdentifier": "merchant.com.example.tea", "countryCode": "US", "currencyCode": "USD",
            "summaryItems": [
              {"label": "Oolong tea", "amount": {"currency": "USD", "value": "24.00"}},
              {"label": "Tea Shop", "amount": {"currency": "USD", "value": "24.00"}}
            ]
          },
          "steps": [
            {"action": "selectPaymentMethod", "paymentMethod": {"displayName": "Amex 0005", "network": "amex", "type": "credit"}},
            {"action": "authorize", "card": "4242 4242 4242 4242"}
          ]
        }
        """#

    private func result() async throws -> ScenarioResult {
        let scenario = try Scenario.load(json: Array(Self.scenario.utf8))
        let result = await ScenarioRunner.run(scenario)
        XCTAssertEqual(result.outcome, "success")
        return result
    }

    /// The transcript objects of a rendered JSON result whose `method` is the card change.
    private func cardChanges(_ json: String) throws -> [[String: Any]] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let transcript = try XCTUnwrap(object["transcript"] as? [[String: Any]])
        return transcript.filter { ($0["method"] as? String) == "didSelectPaymentMethod" }
    }

    func testTextMarksTheDefaultAnswer() async throws {
        let text = try await result().rendered(.text)
        let lines = text.split(separator: "\n").filter {
            $0.contains("completion") && $0.contains("didSelectPaymentMethod")
        }
        XCTAssertEqual(lines.count, 1, text)
        XCTAssertTrue(lines.first?.contains("[default answer]") ?? false, text)
    }

    func testJSONAndJSONLinesMarkTheDefaultAnswer() async throws {
        let result = try await result()
        for format in [OutputFormat.json, .jsonl] {
            let rendered = result.rendered(format)
            if format == .jsonl { XCTAssertFalse(rendered.contains("\n"), "one line") }
            let completions = try cardChanges(rendered).filter { ($0["kind"] as? String) == "completion" }
            XCTAssertEqual(completions.count, 1, rendered)
            XCTAssertEqual(completions.first?["byDefault"] as? Bool, true, "\(format): \(rendered)")
            XCTAssertEqual(completions.first?["actor"] as? String, "flow", "the flow answered, not the merchant")
        }
    }

    func testMermaidMarksTheDefaultAnswer() async throws {
        let diagram = try await result().rendered(.mermaid)
        XCTAssertTrue(diagram.contains("default answer"), diagram)
    }

    // The marks are not everywhere: an answer of the merchant's own is not marked.
    func testAMerchantsOwnAnswerIsNotMarked() async throws {
        let result = try await result()
        let text = result.rendered(.text)
        let authorization = text.split(separator: "\n").filter {
            $0.contains("completion") && $0.contains("willComplete")
        }
        XCTAssertFalse(authorization.isEmpty, text)
        XCTAssertFalse(authorization.contains { $0.contains("[default answer]") }, text)
        XCTAssertEqual(text.components(separatedBy: "[default answer]").count - 1, 1, text)
    }
}
