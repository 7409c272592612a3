import CheckoutCore

/// What a driver action answers at once: accepted, or refused with a reason.
public enum DriverResponse: Hashable, Sendable, CustomStringConvertible {
    /// The action was taken.
    case accepted
    /// The action was refused: nothing changed and no delegate method was called. (Boxed: an
    /// accepted response, the common one, is then destroyed without a call.)
    indirect case refused(Refusal)

    /// Whether the action was accepted.
    public var isAccepted: Bool { self == .accepted }

    /// The refusal, if the action was refused.
    public var refusal: Refusal? {
        if case .refused(let refusal) = self { return refusal }
        return nil
    }

    /// `accepted`, or `refused(code: message)`.
    public var description: String {
        switch self {
        case .accepted: "accepted"
        case .refused(let refusal): "refused(\(refusal))"
        }
    }
}
