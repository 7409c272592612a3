import CheckoutCore
import Foundation
import Synchronization

/// One event of a flow (spec E8).
public enum TranscriptEvent: Hashable, Sendable {
    /// The driver's accepted action, with its arguments.
    case action(String, [TranscriptValue])
    /// The driver's refused action and why.
    indirect case refused(String, Refusal)
    /// A delegate method called; `callbackID` is nil for a notification (no completion).
    case call(String, callbackID: UInt64?, [TranscriptValue])
    /// A completion that took effect, with what it carried; `byDefault` when the delegate does
    /// not implement the optional method and the flow answered for it (spec A9).
    case completion(String, callbackID: UInt64, [TranscriptValue], byDefault: Bool)
    /// A contract violation.
    indirect case violation(Violation)
    /// How the flow ended.
    case outcome(String)
}
