import CheckoutSimulator
import Foundation
import XCTest

/// docs/scenarios.md says what is: each of its JSON examples loads (a whole scenario runs and
/// passes; a fragment loads inside a pay-context scenario), and each error it shows is what the
/// loader says for the file it describes.
final class ScenarioDocsTests: XCTestCase {
    static let docs = CommandLineTests.root.appendingPathComponent("docs/scenarios.md")

    static func blocks(_ language: String) throws -> [String] {
        let text = try String(contentsOf: docs, encoding: .utf8)
        return text.components(separatedBy: "```\(language)\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    static let request =
        #"{"merchantIdentifier": "merchant.com.example", "countryCode": "US", "currencyCode": "USD", "#
        + #""summaryItems": [{"label": "Tea", "amount": {"currency": "USD", "value": "24.00"}}]}"#

    /// A fragment (`"merchant": {...}`, `"steps": [...]`) in a scenario of `flow` (a pay context
    /// unless told).
    static func scenario(around fragment: String, flow: Scenario.Flow = .payContext) throws -> String {
        let key = try XCTUnwrap(fragment.split(separator: "\"").first.map(String.init))
        var parts = ["\"merchant\": {}", "\"steps\": []"]
        switch key {
        case "merchant": parts[0] = fragment
        case "misbehaviour": parts[0] = "\"merchant\": {\(fragment)}"
        case "steps": parts[1] = fragment
        default: parts.append(fragment)
        }
        return #"{"flow": "\#(flow.rawValue)", "request": \#(request), "# + parts.joined(separator: ", ") + "}"
    }

    func testEveryJSONExampleLoads() async throws {
        let blocks = try Self.blocks("json")
        XCTAssertGreaterThanOrEqual(blocks.count, 7, "the page lost its examples")
        var whole = 0
        for block in blocks {
            let trimmed = block.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.hasPrefix("{") {
                whole += 1
                let scenario = try Scenario.load(json: Array(trimmed.utf8), file: "docs")
                let (_, differences) = await scenario.check()
                XCTAssertEqual(differences, [], "the example \(scenario.name) passes")
            } else {
                // The flow the page's text before the fragment names ("An authorization flow's
                // merchant"); a pay context otherwise.
                let flow: Scenario.Flow =
                    try Self.sentence(before: block).contains("authorization") ? .paymentAuthorization : .payContext
                let text = try Self.scenario(around: trimmed, flow: flow)
                XCTAssertNoThrow(try Scenario.load(json: Array(text.utf8), file: "docs"), "\(flow): \(trimmed)")
            }
        }
        XCTAssertEqual(whole, 3, "a whole scenario for each flow")
    }

    /// The last line of text before `block` on the page.
    static func sentence(before block: String) throws -> String {
        let text = try String(contentsOf: docs, encoding: .utf8)
        let head = try XCTUnwrap(text.components(separatedBy: "```json\n" + block).first)
        return head.split(separator: "\n").last.map(String.init) ?? ""
    }

    // spec W2: the page's merchant of one flow is refused in the flow whose merchant does not read
    // some of its keys.
    func testTheAuthorizationMerchantIsRefusedInThePayContext() throws {
        let fragment = try XCTUnwrap(
            Self.blocks("json").first { $0.hasPrefix("\"merchant\"") && $0.contains("surcharges") })
        let text = try Self.scenario(around: fragment.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertThrowsError(try Scenario.load(json: Array(text.utf8), file: "docs")) { error in
            XCTAssertTrue(
                "\(error)".contains("`merchant.surcharges` has no effect in the payContext flow"), "\(error)"
            )
        }
    }

    /// The files the page's error examples describe, as `bad.json`.
    static let badFiles = [
        """
        {
          "flow": "shippingAddress",
          "request": {"requiredShippingAddressFields": ["postalAddress"], "shippingType": "shipping"},
          "merchant": {"unservicable": [{"country": "US", "state": "AK"}]},
          "steps": []
        }
        """,
        """
        {
          "flow": "paymentAuthorization",
          "request": {"merchantIdentifier": "merchant.com.example", "countryCode": "US", "currencyCode": "USD", "summaryItems": [{"label": "Tea", "amount": {"currency": "USD", "value": "24.00"}}]},
          "steps": [{"action": "wait", "seconds": 2.5}]
        }
        """,
        """
        {
          "flow": "payContext",
          "request": {"merchantIdentifier": "merchant.com.example", "countryCode": "US", "currencyCode": "USD",
                      "summaryItems": [{"label": "Tea", "amount": {"currency": "USD", "value": "24.00"}}]},
          "steps": [],
          "expect": {"outcome": "authorised"}
        }
        """,
        """
        {
          "flow": "paymentAuthorization",
          "request": {"merchantIdentifier": "m", "countryCode": "ZZ", "currencyCode": "XYZ", "summaryItems": []},
          "steps": []
        }
        """,
    ]

    /// The README shows what `checkout-sim` prints (spec E8): its part of `demo`'s text, line for
    /// line, and the whole diagram of `run Examples/pay-context/payment-intent.json --format mermaid`.
    func testTheReadmeShowsWhatTheCommandPrints() async throws {
        let readme = try String(
            contentsOf: CommandLineTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        func block(_ language: String, after marker: String) throws -> String {
            let tail = try XCTUnwrap(readme.components(separatedBy: marker).dropFirst().first, marker)
            let body = try XCTUnwrap(tail.components(separatedBy: "```\(language)\n").dropFirst().first, language)
            return body.components(separatedBy: "\n```")[0]
        }
        let cli = SimHarness()
        let demo = await cli.sim("demo")
        let shown = try block("text", after: "Part of what `demo` prints")
        XCTAssertGreaterThan(shown.split(separator: "\n").count, 10)
        XCTAssertTrue(demo.out.contains(shown), "the README's demo lines are demo's:\n\(shown)")
        let command = "checkout-sim run Examples/pay-context/payment-intent.json --format mermaid"
        let mermaid = await cli.sim(
            "run", "\(CommandLineTests.examples)/pay-context/payment-intent.json", "-f", "mermaid")
        XCTAssertEqual(try block("mermaid", after: command), mermaid.out)
    }

    func testEveryErrorShownIsWhatTheLoaderSays() throws {
        let shown = try XCTUnwrap(Self.blocks("text").first { $0.contains("checkout-sim: bad.json") })
        var messages: [String] = []
        for file in Self.badFiles {
            XCTAssertThrowsError(try Scenario.load(json: Array(file.utf8), file: "bad.json")) { error in
                messages.append("\(error)")
            }
        }
        let expected = messages.map { "checkout-sim: " + $0 }.joined(separator: "\n") + "\n"
        XCTAssertEqual(shown, expected)
    }
}
