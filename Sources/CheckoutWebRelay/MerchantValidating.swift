import CheckoutWeb
import Foundation

/// The merchant's side of Apple Pay on the web's merchant validation (spec W5): the page's
/// `onvalidatemerchant` gives a validation URL; the merchant's server posts its merchant
/// identity to it and gets back an opaque merchant session, which the page passes to
/// `completeMerchantValidation` unchanged.
///
/// The flows have no such callback (PassKit validates the merchant itself), so the relay keeps it
/// beside the session's delegate, with the flows' rules: one at a time per session (an event
/// meanwhile is refused with `callbackPending` naming `validateMerchant`), under the session's
/// deadline (``RelayOptions/callbackTimeout``). The merchant session is never logged: the
/// session's transcript says that validation was asked for and answered, not what the answer
/// held, and a snapshot never carries it.
public protocol MerchantValidating: Sendable {
    /// Fetches the merchant session for the page's session `sessionID` from Apple with
    /// `validationURL`, or throws when that fails (the page's session is then aborted).
    func merchantSession(validationURL: URL, sessionID: String) async throws -> JSONValue
}
