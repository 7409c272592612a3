import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import Foundation

/// The merchant's side of Apple Pay on the web's merchant validation (spec W5): the page's
/// `onvalidatemerchant` gives a validation URL; the merchant's server posts its merchant
/// identity to it and gets back an opaque merchant session, which the page passes to
/// `completeMerchantValidation` unchanged.
///
/// A thin adapter over the flows' own callback, `didRequestMerchantSessionUpdate` (PassKit's): a
/// merchant whose delegate implements that callback needs none. Given to a ``RelayMerchant``, it
/// answers the callback in the delegate's place, under the flows' rules: one at a time per session
/// (an event meanwhile is refused with `callbackPending`), under the session's deadline
/// (``RelayOptions/callbackTimeout``). The merchant session is never logged: the session's
/// transcript says that validation was asked for and answered, not what the answer held, and a
/// snapshot never carries it.
public protocol MerchantValidating: Sendable {
    /// Fetches the merchant session for the page's session `sessionID` from Apple with
    /// `validationURL`, or throws when that fails (the page's session is then aborted).
    func merchantSession(validationURL: URL, sessionID: String) async throws -> JSONValue
}

/// A ``MerchantValidating`` bound to one session: it answers the flow's merchant-session callback.
/// A class, made only for a merchant that gives a validator: the session and its delegate each
/// hold a reference (8 bytes) rather than a copy (64).
final class MerchantValidator: Sendable {
    let validating: any MerchantValidating
    let sessionID: String
    private let lock = InlineLock()
    @exclusivity(unchecked) private nonisolated(unsafe) var failure: String?

    init(validating: any MerchantValidating, sessionID: String) {
        self.validating = validating
        self.sessionID = sessionID
    }

    /// Why the last fetch failed, as the validator threw it (for the page's end message).
    var lastFailure: String? { lock.withLocked { failure } }

    /// Fetches the session in a task and hands the flow's update to `handler`: the session as
    /// its JSON text, or a failure when the fetch throws.
    func answer(_ request: MerchantSessionRequest, _ handler: @escaping @Sendable (MerchantSessionUpdate) -> Void) {
        Task {
            do {
                let session = try await validating.merchantSession(
                    validationURL: request.validationURL, sessionID: sessionID)
                let json = String(decoding: try JSONEncoder().encode(session), as: UTF8.self)
                handler(.success(MerchantSession(json: json)))
            } catch {
                lock.withLocked { failure = "\(error)" }
                handler(.failure)
            }
        }
    }
}
