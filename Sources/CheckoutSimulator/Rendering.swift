import CheckoutFlows
import CheckoutPayContext
import Foundation

/// How `checkout-sim run` prints a result.
public enum OutputFormat: String, Sendable, CaseIterable {
    case text
    /// One JSON document, indented.
    case json
    /// The same document on one line (JSON Lines: `demo` prints one result a line).
    case jsonl
    case mermaid
}

extension ScenarioResult {
    /// The result for people, for machines, or as a Mermaid sequence diagram. Personal data is
    /// masked unless `showingPersonalData`; secrets always are.
    public func rendered(_ format: OutputFormat, showingPersonalData: Bool = false) -> String {
        switch format {
        case .text: text(showingPersonalData)
        case .json: json(showingPersonalData)
        case .jsonl: json(showingPersonalData, pretty: false)
        case .mermaid: mermaid(showingPersonalData)
        }
    }

    private func text(_ unmasked: Bool) -> String {
        var lines = ["== \(name) (\(flow.rawValue))", transcript.text(showingPersonalData: unmasked)]
        lines.append("outcome: \(outcome)")
        lines.append("delegate calls: \(delegateCalls.joined(separator: ", "))")
        lines.append(
            "violations: " + (violations.isEmpty ? "none" : violations.map(\.description).joined(separator: "; ")))
        if !brokenInvariants.isEmpty { lines.append("BROKEN INVARIANTS: " + brokenInvariants.joined(separator: "; ")) }
        return lines.joined(separator: "\n")
    }

    /// Several results as one JSON document: an array of what ``rendered(_:showingPersonalData:)``
    /// gives for `.json`.
    public static func jsonArray(_ results: [ScenarioResult], showingPersonalData: Bool = false) -> String {
        let objects = results.map { $0.jsonObject(showingPersonalData) }
        let data =
            (try? JSONSerialization.data(
                withJSONObject: objects, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private func json(_ unmasked: Bool, pretty: Bool = true) -> String {
        let options: JSONSerialization.WritingOptions =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? JSONSerialization.data(withJSONObject: jsonObject(unmasked), options: options)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private func jsonObject(_ unmasked: Bool) -> [String: Any] {
        let transcriptObject =
            (try? JSONSerialization.jsonObject(with: Data(transcript.json(showingPersonalData: unmasked).utf8))) ?? []
        let object: [String: Any] = [
            "name": name,
            "flow": flow.rawValue,
            "outcome": outcome,
            "delegateCalls": delegateCalls,
            "violations": violations.map { ["kind": $0.kind.rawValue, "callback": $0.callback, "detail": $0.detail] },
            "refusals": refusals,
            "brokenInvariants": brokenInvariants,
            "transcript": transcriptObject,
        ]
        return object
    }

    /// A Mermaid `sequenceDiagram` of the transcript (``/CheckoutFlows/Transcript/mermaid(title:sheetEntries:showingPersonalData:)``).
    private func mermaid(_ unmasked: Bool) -> String {
        transcript.mermaid(
            title: flowTitle, sheetEntries: flow == .payContext ? sheetEntries : nil, showingPersonalData: unmasked)
    }

    private var flowTitle: String {
        switch flow {
        case .shippingAddress: "ShippingAddressFlow"
        case .paymentAuthorization: "PaymentAuthorizationFlow"
        case .payContext: "PayContext"
        }
    }
}

extension Expectation {
    /// The differences between this expectation and `result`, one readable line each; empty when
    /// it is met. Broken invariants always count as differences.
    public func differences(from result: ScenarioResult) -> [String] {
        var differences: [String] = []
        if result.outcome == "refused" {
            // A scenario made in Swift (files are checked when loaded) whose flow would not start.
            differences.append("the flow refused to start: " + result.refusals.joined(separator: "; "))
        }
        if let outcome, result.outcome != outcome, !result.outcome.hasPrefix(outcome + "(") {
            differences.append("outcome: expected \(outcome), got \(result.outcome)")
        }
        if let delegateCalls, delegateCalls != result.delegateCalls {
            differences.append(
                "delegate calls:\n      expected \(delegateCalls.joined(separator: ", "))\n"
                    + "      got      \(result.delegateCalls.joined(separator: ", "))"
                    + Self.firstDifference(delegateCalls, result.delegateCalls)
            )
        }
        let kinds = result.violations.map(\.kind.rawValue)
        if let violations, violations != kinds {
            differences.append(
                "violations: expected [\(violations.joined(separator: ", "))], got [\(kinds.joined(separator: ", "))]"
            )
        }
        differences += result.brokenInvariants.map { "invariant: \($0)" }
        return differences
    }

    private static func firstDifference(_ expected: [String], _ actual: [String]) -> String {
        let index =
            zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expected.count, actual.count)
        return "\n      first difference at position \(index + 1)"
    }
}
