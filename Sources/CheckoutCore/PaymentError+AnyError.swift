import Foundation

/// A ``PaymentError`` from any `Error`, as PassKit takes `[Error]` in its updates and results.
///
/// The mapping, in order:
///
/// - a ``PaymentError`` is itself;
/// - an `NSError` of PassKit's `PKPaymentErrorDomain` (what `PKPaymentRequest`'s
///   `paymentContactInvalidError(…)` and friends make) maps its code as PassKit numbers them:
///   `-1` ``Code/unknown``, `1` ``Code/shippingContactInvalid``, `2` ``Code/billingContactInvalid``,
///   `3` ``Code/shippingAddressUnserviceable``, `4` ``Code/couponCodeInvalid``, `5`
///   ``Code/couponCodeExpired`` (any other number ``Code/unknown``); its field from the user info's
///   `PKPaymentErrorPostalAddress` (a `CNPostalAddress…Key`: `street`, `subLocality`, `city`,
///   `subAdministrativeArea`, `state`, `postalCode`, `country`, `ISOCountryCode`) or else `PKPaymentErrorContactField` (`name`,
///   `emailAddress` or `email`, `phoneNumber` or `phone`, `postalAddress` or `post`); its message
///   the localized description;
/// - any other error is ``Code/unknown``, with its `LocalizedError.errorDescription` as the
///   message when it has one, else its description (a ``CheckoutError``'s names its field and
///   value).
extension PaymentError {
    /// The error domain of PassKit's payment errors.
    public static let passKitErrorDomain = "PKPaymentErrorDomain"

    /// `error` as a sheet error (see the extension's discussion for the mapping).
    public init(_ error: any Error) {
        if let error = error as? PaymentError {
            self = error
            return
        }
        let bridged = error as NSError
        if bridged.domain == Self.passKitErrorDomain {
            self.init(
                code: Self.passKitCodes[bridged.code] ?? .unknown,
                field: Self.field(bridged.userInfo),
                message: bridged.userInfo[NSLocalizedDescriptionKey] as? String ?? ""
            )
            return
        }
        let message = (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
        self.init(code: .unknown, message: message)
    }

    /// PassKit's `PKPaymentError.Code` numbers.
    private static let passKitCodes: [Int: Code] = [
        -1: .unknown, 1: .shippingContactInvalid, 2: .billingContactInvalid, 3: .shippingAddressUnserviceable,
        4: .couponCodeInvalid, 5: .couponCodeExpired,
    ]

    /// The field an `NSError` of PassKit's names in its user info, if any.
    private static func field(_ userInfo: [String: Any]) -> PaymentErrorField? {
        let postal: [String: PaymentErrorField] = [
            "street": .street, "subLocality": .subLocality, "city": .city,
            "subAdministrativeArea": .subAdministrativeArea, "state": .state, "postalCode": .postalCode,
            "country": .country, "ISOCountryCode": .country,
        ]
        let contact: [String: PaymentErrorField] = [
            "name": .name, "emailAddress": .emailAddress, "email": .emailAddress, "phoneNumber": .phoneNumber,
            "phone": .phoneNumber, "postalAddress": .postalAddress, "post": .postalAddress,
        ]
        if let key = userInfo["PKPaymentErrorPostalAddress"] as? String, let field = postal[key] { return field }
        if let key = userInfo["PKPaymentErrorContactField"] as? String, let field = contact[key] { return field }
        return nil
    }
}

extension Array where Element == PaymentError {
    /// `errors` as sheet errors, each as ``PaymentError/init(_:)`` maps it; nil is none.
    public init(anyErrors errors: [any Error]?) {
        self = (errors ?? []).map { PaymentError($0) }
    }
}
