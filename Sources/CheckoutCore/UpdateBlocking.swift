/// Which errors of an update keep authorization blocked (spec A2, A5, W3), decided once here for
/// the native flows and for the conversions that send an update to a browser, so that both block
/// on the same updates.
///
/// The source is Apple's: `PKPaymentRequestShippingContactUpdate.errors` are "shipping contact
/// information errors that the user must resolve", and Apple Pay on the web "assumes the shipping
/// contact update is successful if you don't provide any errors" (`ApplePayShippingContactUpdate`).
/// WebKit hands every `ApplePayError` of such an update to PassKit unchanged, whatever its code
/// (`PaymentAuthorizationPresenter::completeShippingContactSelection` turns each into an `NSError`
/// of `PKPaymentErrorDomain`, `unknown` as `PKPaymentUnknownError`), so the sheet decides alike
/// on the web and in an app: an update with an error is a failed update, and Pay stays disabled
/// until the customer picks another contact. Coupon-code errors are the exception PassKit makes
/// (`couponCodeInvalidError` and `couponCodeExpiredError` mark the code, not the order).
extension PaymentError {
    /// The message of the blocking error that stands for "no shipping method is available for
    /// this contact" (an update's empty list of methods), when the update has no blocking error of
    /// its own (spec A2, W3).
    public static let noShippingMethodMessage = "No shipping method is available for this address."

    /// `shippingAddressUnserviceable` with ``noShippingMethodMessage``: what an empty list of
    /// shipping methods means for the sheet (spec W3).
    public static var noShippingMethodAvailable: PaymentError {
        .shippingAddressUnserviceable(noShippingMethodMessage)
    }

    /// Whether the error concerns the coupon code (`couponCodeInvalid`, `couponCodeExpired`):
    /// shown beside the code, it never blocks authorization (spec A5).
    public var isCouponCodeError: Bool {
        code == .couponCodeInvalid || code == .couponCodeExpired
    }
}

extension ShippingContactUpdate {
    /// The errors that block authorization until the customer selects another contact (spec A2):
    /// every error but the coupon code's, whatever its code (`unknown` too); and, when the update
    /// carries an empty list of shipping methods (none available) and no error of its own blocks,
    /// ``PaymentError/noShippingMethodAvailable``.
    public var blockingErrors: [PaymentError] {
        addsNoShippingMethod ? [.noShippingMethodAvailable] : errors.filter { !$0.isCouponCodeError }
    }

    /// The errors the sheet shows: the update's own, then ``PaymentError/noShippingMethodAvailable``
    /// when ``blockingErrors`` adds it.
    public var shownErrors: [PaymentError] {
        addsNoShippingMethod ? errors + [.noShippingMethodAvailable] : errors
    }

    /// Whether the update's empty list of methods stands as the blocking error it lacks.
    private var addsNoShippingMethod: Bool {
        shippingMethods?.isEmpty == true && errors.allSatisfy(\.isCouponCodeError)
    }
}

extension CouponCodeUpdate {
    /// The errors that block authorization until the customer selects another contact (spec A5,
    /// W3): none while shipping methods remain (a coupon's errors never block); when the update
    /// carries an empty list of shipping methods (none available), its shipping-contact errors,
    /// or ``PaymentError/noShippingMethodAvailable`` when it has none.
    public var blockingErrors: [PaymentError] {
        guard shippingMethods?.isEmpty == true else { return [] }
        return addsNoShippingMethod ? [.noShippingMethodAvailable] : errors.filter(\.isShippingContactError)
    }

    /// The errors the sheet shows: the update's own, then ``PaymentError/noShippingMethodAvailable``
    /// when ``blockingErrors`` adds it.
    public var shownErrors: [PaymentError] {
        addsNoShippingMethod ? errors + [.noShippingMethodAvailable] : errors
    }

    /// Whether the update's empty list of methods stands as the blocking error it lacks.
    private var addsNoShippingMethod: Bool {
        shippingMethods?.isEmpty == true && !errors.contains(where: \.isShippingContactError)
    }
}
