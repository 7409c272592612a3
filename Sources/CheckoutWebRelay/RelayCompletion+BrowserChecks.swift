import CheckoutCore
import CheckoutWeb

extension RelayCompletion {
    /// Checks the answer as the browser checks what the page passes to it (spec W4, W8): Apple
    /// Pay's updates and payment result as WebKit does for `applePayVersion`, a W3C update as the
    /// Payment Request text's `updateWith` does (the Express Checkout Element's are checked by
    /// Stripe's rules where they are built). The flow has already judged the answer against
    /// the request (E7); these are the wire's own rules on top (Apple Pay's ceiling on a total, a
    /// member the session's version does not have, two decimals at most).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path, as the browser would
    ///   refuse it.
    func checkAsTheBrowserWould(applePayVersion: Int) throws {
        switch self {
        case .shippingContactSelection(let update): try update.validate(version: applePayVersion)
        case .shippingMethodSelection(let update): try update.validate(version: applePayVersion)
        case .paymentMethodSelection(let update): try update.validate(version: applePayVersion)
        case .couponCodeChange(let update): try update.validate(version: applePayVersion)
        case .payment(let result): try result.validate(version: applePayVersion)
        case .updateWith(let update): try update.validate()
        case .merchantValidation, .paymentComplete, .retry: break
        // Express Checkout Element: Stripe's rules are checked where the answer is built.
        case .expressCheckoutClickResolve, .expressCheckoutChangeResolve, .expressCheckoutReject,
            .expressCheckoutPaymentFailed, .expressCheckoutPaymentSucceeded:
            break
        // Google Pay
        case .googlePayPaymentAuthorized(let result): try result.check()
        // Checked against the callback trigger it answers where it is built (spec W9).
        case .googlePayPaymentDataChanged: break
        }
    }
}
