import CheckoutCore
import Foundation

extension RelayReply {
    /// The reply's JSON, the bytes `JSONEncoder` writes with `.sortedKeys` and
    /// `.withoutEscapingSlashes`, written directly: the reply's members and its completion's
    /// argument (``RelayCompletion/writeArgumentJSON(to:)``) in `JSONEncoder`'s key order, without
    /// `Encodable` containers. Nil where the argument has no direct writer (or holds a `Decimal`
    /// number): the reply is then encoded through `Encodable`.
    var writtenJSON: Data? {
        var writer = JSONWriter(capacity: 512, escapingSlashes: false)
        guard writeJSON(to: &writer) else { return nil }
        return Data(writer.bytes)
    }

    /// Writes the reply (see ``writtenJSON``); false, with the writer part-way, where it cannot.
    func writeJSON(to writer: inout JSONWriter) -> Bool {
        writer.byte(UInt8(ascii: "{"))
        switch body {
        case .complete(let completion):
            writer.key("argument")
            guard completion.writeArgumentJSON(to: &writer) else { return false }
            writer.member("complete", completion.method)
        case .refused(let refusal):
            writer.key("refused")
            refusal.writeJSON(to: &writer)
        case .ended(let end):
            if end.abort { writer.member("complete", "abort") }
            writer.key("ended")
            end.writeJSON(to: &writer)
        }
        writer.member("session", session)
        writer.member("type", type)
        writer.byte(UInt8(ascii: "}"))
        return true
    }
}

extension RelayRefusal {
    /// Writes the refusal as `JSONEncoder` encodes it with `.sortedKeys`, absent members left out.
    func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        if let fields {
            writer.key("fields")
            writer.byte(UInt8(ascii: "["))
            for field in fields {
                writer.element()
                writer.string(field)
            }
            writer.byte(UInt8(ascii: "]"))
        }
        writer.member("limit", ifPresent: limit)
        writer.member("message", message)
        writer.member("pendingCallback", ifPresent: pendingCallback)
        writer.member("reason", reason)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension RelayEnd {
    /// Writes the end as `JSONEncoder` encodes it with `.sortedKeys`: `{message, outcome,
    /// reason}`, `reason` left out when there is none (``abort`` is the reply's `complete`).
    func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.member("message", message)
        writer.member("outcome", outcome)
        writer.member("reason", ifPresent: reason)
        writer.byte(UInt8(ascii: "}"))
    }
}
