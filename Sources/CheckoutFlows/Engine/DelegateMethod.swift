/// The delegate methods the flows call, each named here once: the machines open a callback with
/// one of these, and transcripts, refusals, violations and errors give its ``name``.
package enum DelegateMethod: String, Sendable {
    // The payment sheet's (PaymentAuthorizationDelegate).
    case didSelectShippingContact, didSelectShippingMethod, didSelectPaymentMethod, didChangeCouponCode
    case willAuthorizePayment, didAuthorizePayment, didFinish
    // The shipping-address flow's own (ShippingAddressDelegate; `didFinish` is shared).
    case didEnterAddress, didCancel
    // The pay context's own (PayContextDelegate).
    case didCreatePaymentMethod, willComplete, didComplete

    /// The name, as the delegate protocol spells it.
    package var name: String { rawValue }
}
