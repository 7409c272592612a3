import CheckoutCore
import CheckoutWeb

extension RelayCompletion {
    /// Writes the completion's argument as `JSONEncoder` encodes it with `.sortedKeys` and
    /// `.withoutEscapingSlashes`, by the wire types' own writers (`writeJSON(to:)`, without
    /// `Encodable` containers): Apple Pay's answers, the merchant session and the W3C update,
    /// `complete(result)` and `retry(errors)`. False, with the writer part-way, for the others
    /// (Google Pay's, the Express Checkout Element's) and for a value holding a `Decimal` number:
    /// the reply is then encoded through `Encodable` (``SortedJSONEncoder``, `JSONEncoder`).
    func writeArgumentJSON(to writer: inout JSONWriter) -> Bool {
        switch self {
        case .merchantValidation(let session): return session.write(to: &writer)
        case .shippingContactSelection(let update): return update.writeJSON(to: &writer)
        case .shippingMethodSelection(let update): return update.writeJSON(to: &writer)
        case .paymentMethodSelection(let update): return update.writeJSON(to: &writer)
        case .couponCodeChange(let update): return update.writeJSON(to: &writer)
        case .payment(let result): result.writeJSON(to: &writer)
        case .paymentComplete(let result): writer.string(result.rawValue)
        case .updateWith(let update): return update.writeJSON(to: &writer)
        case .retry(let errors): return errors.writeJSON(to: &writer)
        // Express Checkout Element
        case .expressCheckoutClickResolve, .expressCheckoutChangeResolve, .expressCheckoutReject,
            .expressCheckoutPaymentFailed, .expressCheckoutPaymentSucceeded:
            return false
        // Google Pay
        case .googlePayPaymentDataChanged, .googlePayPaymentAuthorized: return false
        }
        return true
    }
}
