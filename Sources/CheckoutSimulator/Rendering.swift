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

    /// A Mermaid `sequenceDiagram` with the customer, the flow, the merchant and the backend.
    private func mermaid(_ unmasked: Bool) -> String {
        var lines = [
            "sequenceDiagram",
            "    participant C as Customer",
            "    participant F as \(flowTitle)",
            "    participant M as Merchant",
        ]
        if flow == .payContext {
            lines.insert("    participant S as Sheet", at: 3)
            lines.append("    participant B as Backend")
        }
        /// The pay context's sheet calls the pay context for these, and forwards the rest to the
        /// merchant.
        let sheetToContext = Set([DelegateMethod.willAuthorizePayment, .didAuthorizePayment, .didFinish].map(\.name))
        func clean(_ text: String) -> String {
            // Mermaid treats ';' and '#' specially in messages.
            text.replacingOccurrences(of: ";", with: ",").replacingOccurrences(of: "#", with: "no. ")
        }
        for entry in transcript.entries {
            let time = entry.time.secondsString
            if sheetEntries.contains(entry.sequence) {
                lines.append(contentsOf: sheetLine(entry, sheetToContext, unmasked, clean))
                continue
            }
            switch entry.event {
            case .action(let name, let arguments):
                let list = arguments.map { $0.rendered(showingPersonalData: unmasked) }.joined(separator: ", ")
                lines.append("    C->>F: \(clean(list.isEmpty ? name : "\(name)(\(list))"))")
            case .refused(let name, let refusal):
                lines.append("    F--xC: \(clean("\(name) refused: \(refusal.code)"))")
            case .call(let method, let id, _):
                let number = id.map { " #\($0)" } ?? ""
                if method.hasPrefix("backend.") {
                    // Numbered as in the text (spec E8): the backend's requests share the numbering.
                    lines.append("    F->>B: \(clean(String(method.dropFirst("backend.".count)) + number))")
                } else if method.hasPrefix("sheet.") {
                    continue
                } else {
                    lines.append("    F->>M: \(clean(method + number))")
                }
            case .completion(let method, let id, let answer, let byDefault):
                let text = answer.map { $0.rendered(showingPersonalData: unmasked) }.joined(separator: ", ")
                if method.hasPrefix("backend.") {
                    lines.append("    B-->>F: \(clean("#\(id) \(text)"))")
                } else {
                    let who = byDefault ? "default answer" : text
                    lines.append("    M-->>F: \(clean("#\(id) \(who)"))")
                }
            case .violation(let violation):
                lines.append(
                    "    Note over M: \(clean("VIOLATION \(violation.kind) in \(violation.callback) at \(time)s"))")
            case .outcome(let outcome):
                lines.append("    Note over F: \(clean("outcome: \(outcome)"))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A line of the pay context's sheet: customer to sheet, sheet to pay context or merchant.
    private func sheetLine(
        _ entry: TranscriptEntry,
        _ toContext: Set<String>,
        _ unmasked: Bool,
        _ clean: (String) -> String
    ) -> [String] {
        func values(_ values: [TranscriptValue]) -> String {
            values.map { $0.rendered(showingPersonalData: unmasked) }.joined(separator: ", ")
        }
        switch entry.event {
        case .action(let name, let arguments):
            let list = values(arguments)
            // The pay context's own actions on its sheet (dismissing it) are not the customer's.
            let source = entry.actor == .customer ? "C" : "F"
            return ["    \(source)->>S: \(clean(list.isEmpty ? name : "\(name)(\(list))"))"]
        case .refused(let name, let refusal):
            return ["    S--xC: \(clean("\(name) refused: \(refusal.code)"))"]
        case .call(let method, let id, _):
            let target = toContext.contains(method) ? "F" : "M"
            return ["    S->>\(target): \(clean(method + (id.map { " #\($0)" } ?? "")))"]
        case .completion(let method, let id, let answer, let byDefault):
            let source = toContext.contains(method) ? "F" : "M"
            return ["    \(source)-->>S: \(clean("#\(id) " + (byDefault ? "default answer" : values(answer))))"]
        case .violation(let violation):
            return ["    Note over M: \(clean("VIOLATION \(violation.kind) in \(violation.callback)"))"]
        case .outcome(let outcome):
            return ["    Note over S: \(clean("sheet: \(outcome)"))"]
        }
    }

    private var flowTitle: String {
        switch flow {
        case .shippingAddress: "ShippingAddressFlow"
        case .paymentAuthorization: "PaymentAuthorizationFlow"
        case .payContext: "PayContext"
        }
    }
}

extension Duration {
    fileprivate var secondsString: String {
        let (seconds, attoseconds) = components
        let millis = attoseconds / 1_000_000_000_000_000
        return millis == 0 ? "\(seconds)" : "\(seconds).\(String(format: "%03lld", millis))"
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
