import CheckoutCore

/// Thrown by an `async` driver action whose callback ended without an answer: the flow was
/// cancelled or timed out meanwhile, or ended for a violation.
public struct CallbackEnded: Error, Hashable, Sendable, CustomStringConvertible {
    /// The delegate method that was not answered in time.
    public var callback: String
    /// How it ended, in words.
    public var reason: String

    /// `didEnterAddress ended without an answer: cancelled`.
    @usableFromInline
    init(callback: String, reason: String) {
        self.callback = callback
        self.reason = reason
    }

    public var description: String { "\(callback) ended without an answer: \(reason)" }
}
