/// The W3C Payment Request `PaymentComplete`: what the page passes to `response.complete(…)`
/// once the merchant has decided (spec W7).
public enum PaymentComplete: String, Codable, Hashable, Sendable, CaseIterable {
    /// The payment succeeded; the browser closes its sheet with success.
    case success
    /// The payment failed and will not be retried; the browser closes its sheet with failure.
    case fail
    /// The outcome is not known; the browser shows none.
    case unknown
}
