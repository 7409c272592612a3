import CheckoutCore
import Foundation

/// What a relay's opener gives for an event of a session the relay does not hold: a new session,
/// or one to resume from a snapshot (a serverless function loads it from its store here).
public enum RelayOpening: Sendable {
    /// Opens a new session for this request and merchant.
    case open(PaymentRequest, RelayMerchant)
    /// Resumes the session from this sealed snapshot, with this merchant.
    case resume(Data, RelayMerchant)
}
