import Foundation

extension Transcript {
    /// The transcript as a Mermaid `sequenceDiagram`: the customer, the flow (named `title`), the
    /// merchant, and for a pay context (`sheetEntries`: the sequence numbers of its sheet's entries)
    /// the sheet and the backend. Personal data is masked unless `showingPersonalData`; secrets
    /// always are.
    public func mermaid(title: String, sheetEntries: Set<UInt64>? = nil, showingPersonalData: Bool = false) -> String {
        let unmasked = showingPersonalData
        var lines = [
            "sequenceDiagram",
            "    participant C as Customer",
            "    participant F as \(title)",
            "    participant M as Merchant",
        ]
        let hasSheet = sheetEntries != nil
        let sheetEntries = sheetEntries ?? []
        if hasSheet {
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
        for entry in entries {
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
}
