/// One call a recording double received: the method's name and its arguments as text.
///
/// Arguments are rendered with `String(describing:)`, so contacts and secrets appear masked as
/// their descriptions mask them. For the typed arguments, read the recording delegate's
/// ``ScriptedCallback/arguments`` or ``RecordedNotification/arguments``.
public struct RecordedCall: Hashable, Sendable, CustomStringConvertible {
    /// The method's name as the transcript writes it, such as `didEnterAddress`.
    public var method: String
    /// The arguments besides the flow and the completion, as text.
    public var arguments: [String]

    /// A call of `method` with these arguments.
    public init(method: String, arguments: [String] = []) {
        self.method = method
        self.arguments = arguments
    }

    /// `method(argument, argument)`.
    public var description: String {
        "\(method)(\(arguments.joined(separator: ", ")))"
    }
}
