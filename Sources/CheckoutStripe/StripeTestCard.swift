import CheckoutCore

/// Stripe's documented test cards, which decide what a confirmation does with the in-memory
/// backend.
public enum StripeTestCard: String, Hashable, Sendable, CaseIterable {
    /// Succeeds.
    case success = "4242424242424242"
    /// Declined: `card_declined` / `generic_decline`.
    case genericDecline = "4000000000000002"
    /// Declined: `card_declined` / `insufficient_funds`.
    case insufficientFunds = "4000000000009995"
    /// Declined: `card_declined` / `lost_card`.
    case lostCard = "4000000000009987"
    /// Declined: `expired_card`.
    case expiredCard = "4000000000000069"
    /// Declined: `incorrect_cvc`.
    case incorrectCVC = "4000000000000127"
    /// Fails: `processing_error`.
    case processingError = "4000000000000119"
    /// Declined: `incorrect_zip`, as on an account that blocks failed ZIP checks.
    case incorrectZIP = "4000000000000036"
    /// Needs 3-D Secure: the intent goes to `requires_action`.
    case threeDSecureRequired = "4000002500003155"

    /// The card a payment token's data names: the number with spaces or dashes, or `tok_visa`.
    public init?(paymentData: String) {
        let digits = paymentData == "tok_visa" ? Self.success.rawValue : paymentData.filter(\.isNumber)
        self.init(rawValue: digits)
    }

    /// The error confirming with this card gives, if any.
    public var error: StripeError? {
        func declined(_ code: String, _ decline: String, _ message: String) -> StripeError {
            StripeError(type: "card_error", code: code, declineCode: decline, message: message)
        }
        switch self {
        case .success, .threeDSecureRequired: return nil
        case .genericDecline: return declined("card_declined", "generic_decline", "Your card was declined.")
        case .insufficientFunds:
            return declined("card_declined", "insufficient_funds", "Your card has insufficient funds.")
        case .lostCard: return declined("card_declined", "lost_card", "Your card was declined.")
        case .expiredCard: return declined("expired_card", "expired_card", "Your card has expired.")
        case .incorrectCVC: return declined("incorrect_cvc", "incorrect_cvc", "Your card's security code is incorrect.")
        case .processingError:
            return StripeError(
                type: "card_error",
                code: "processing_error",
                message: "An error occurred while processing your card."
            )
        case .incorrectZIP: return declined("incorrect_zip", "incorrect_zip", "Your card's ZIP code is incorrect.")
        }
    }
}
