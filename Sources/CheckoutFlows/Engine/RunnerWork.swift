import Synchronization

/// A delegate call or a violation report, queued for the thread that drains; `idle` when there
/// is none (a case rather than an optional: an optional of this enum is copied through its
/// runtime metadata).
enum RunnerWork<Call: Sendable>: Sendable {
    case idle
    case call(Call)
    indirect case violation(Violation)

    var isIdle: Bool {
        if case .idle = self { return true }
        return false
    }

    /// Moves the item out, leaving `idle`.
    mutating func take() -> Self {
        let taken = consume self
        self = .idle
        return taken
    }
}
