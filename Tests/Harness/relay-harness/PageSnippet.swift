import Foundation

/// The W3C Payment Request page code of docs/relay.md, read from the document each run, so that
/// the page the browser runs is the one a user pastes and the two cannot drift.
enum PageSnippet {
    /// What stops the document's snippet from being found.
    struct NotFound: Error, CustomStringConvertible {
        var path: String
        var description: String {
            "\(path): no ```js block with `new PaymentRequest(` (the W3C page the harness runs)"
        }
    }

    /// The body of the first fenced `js` block of the Markdown file at `path` that builds a
    /// `PaymentRequest`.
    static func w3c(fromMarkdownAt path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw NotFound(path: path)
        }
        var block: [Substring]?
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            if block == nil {
                if line.trimmingCharacters(in: .whitespaces) == "```js" { block = [] }
            } else if line.trimmingCharacters(in: .whitespaces) == "```" {
                let code = block!.joined(separator: "\n")
                if code.contains("new PaymentRequest(") { return code }
                block = nil
            } else {
                block!.append(line)
            }
        }
        throw NotFound(path: path)
    }
}
