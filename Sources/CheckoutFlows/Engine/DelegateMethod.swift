/// The delegate methods the flows call, each named here once: the outstanding callback keeps its
/// method as one of these (a byte, where its name kept a string's 16 and its reference count), and
/// transcripts, refusals and violations give its ``name``.
package enum DelegateMethod: String, Sendable, CaseIterable {
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
