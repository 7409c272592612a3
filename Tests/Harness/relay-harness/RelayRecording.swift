import CheckoutCore
import Foundation

/// A relay recording as `checkout-sim relay --events/--expect` reads it: each event the page
/// posted, with the caller the server authenticated for it (`"caller"`), followed by the relay's
/// answer, one JSON object a line, appended to a file as they happen.
actor RelayRecording {
    private let handle: FileHandle

    /// A recording written to `path` (created, or emptied).
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data()),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        self.handle = handle
    }

    /// The event line: the body as posted, with `"caller"` beside its members; a body that is not
    /// a JSON object is kept as it came, on one line.
    func event(_ body: Data, caller: String) {
        guard case .object(var members)? = JSONValue(jsonText: String(decoding: body, as: UTF8.self)) else {
            append(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\n", with: " "))
            return
        }
        members["caller"] = .string(caller)
        append(JSONValue.object(members).jsonText)
    }

    /// The relay's answer, as it went to the page.
    func answer(_ reply: Data) {
        append(String(decoding: reply, as: UTF8.self))
    }

    private func append(_ line: String) {
        handle.write(Data((line + "\n").utf8))
    }
}
