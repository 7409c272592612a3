import CheckoutCore

/// Google Pay's `transactionState` (reference "Response objects", `PaymentAuthorizationResult`).
public enum GooglePayTransactionState: String, Codable, Hashable, Sendable, CaseIterable {
    /// The payment went through; the sheet closes.
    case success = "SUCCESS"
    /// It did not; the sheet shows the error and the customer may try again.
    case error = "ERROR"
}

/// Google Pay's `PaymentAuthorizationResult` (reference "Response objects"), what
/// `onPaymentAuthorized` resolves with: `{transactionState, error}`, the error required for
/// `ERROR` and its intent `PAYMENT_AUTHORIZATION`.
///
/// From the core (``init(_:)``): ``/CheckoutCore/PaymentAuthorizationStatus/success`` is `SUCCESS`;
/// any other status is `ERROR` with the result's first error as ``GooglePayPaymentDataError``
/// maps it (further errors' messages joined to its message by line feeds, so none is lost), or,
/// without errors, the status's own reason: `invalidBillingPostalAddress` `PAYMENT_DATA_INVALID`,
/// `invalidShippingPostalAddress` and `invalidShippingContact` `SHIPPING_ADDRESS_INVALID`,
/// `failure` `OTHER_ERROR`, each with a message naming the status. The PIN statuses have no Google
/// counterpart (the sheet has no PIN entry) and are refused naming `status`. The order details
/// have none either and are refused naming `orderDetails`.
///
/// To the core (``core()``): `SUCCESS` is `success`; `ERROR` is the status its reason implies
/// (`SHIPPING_ADDRESS_INVALID`, `SHIPPING_ADDRESS_UNSERVICEABLE` → `invalidShippingPostalAddress`,
/// `PAYMENT_DATA_INVALID` → `invalidBillingPostalAddress`, the others `failure`) with the error.
public struct GooglePayPaymentAuthorizationResult: Codable, Hashable, Sendable {
    /// Whether the payment went through.
    public var transactionState: GooglePayTransactionState
    /// What went wrong, for `ERROR`.
    public var error: GooglePayPaymentDataError?

    /// A result.
    public init(transactionState: GooglePayTransactionState, error: GooglePayPaymentDataError? = nil) {
        self.transactionState = transactionState
        self.error = error
    }

    /// The core result in Google's members (see the type's discussion).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `status` (a PIN status), `orderDetails`, or
    ///   `errors[i].code` (a code Google has no reason for).
    public init(_ core: PaymentAuthorizationResult) throws {
        if core.orderDetails != nil {
            throw unmappable("orderDetails", "present", "has no Google Pay counterpart (Wallet order tracking)")
        }
        if core.status == .success {
            self.init(transactionState: .success)
            return
        }
        if let first = core.errors.first {
            var error = try inside("errors[0]") { try GooglePayPaymentDataError(first, intent: .paymentAuthorization) }
            for (index, other) in core.errors.enumerated().dropFirst() {
                _ = try inside("errors[\(index)]") {
                    try GooglePayPaymentDataError(other, intent: .paymentAuthorization)
                }
                error.message += "\n" + other.message
            }
            self.init(transactionState: .error, error: error)
            return
        }
        let reason: GooglePayErrorReason
        switch core.status {
        case .invalidBillingPostalAddress: reason = .paymentDataInvalid
        case .invalidShippingPostalAddress, .invalidShippingContact: reason = .shippingAddressInvalid
        case .failure: reason = .otherError
        case .pinRequired, .pinIncorrect, .pinLockout:
            throw unmappable(
                "status", core.status.description, "has no Google Pay counterpart: the sheet has no PIN entry")
        case .success: preconditionFailure("handled above")
        }
        self.init(
            transactionState: .error,
            error: GooglePayPaymentDataError(
                reason: reason, message: "The payment was not authorized (\(core.status.description)).",
                intent: .paymentAuthorization))
    }

    /// The result in the core's terms (see the type's discussion).
    public func core() -> PaymentAuthorizationResult {
        guard transactionState == .error else { return .success }
        let status: PaymentAuthorizationStatus =
            switch error?.reason {
            case .shippingAddressInvalid, .shippingAddressUnserviceable: .invalidShippingPostalAddress
            case .paymentDataInvalid: .invalidBillingPostalAddress
            case .shippingOptionInvalid, .offerInvalid, .otherError, nil: .failure
            }
        return PaymentAuthorizationResult(status: status, errors: error.map { [$0.core()] } ?? [])
    }

    /// Checks Google's rules: an `ERROR` carries an error, whose intent is
    /// `PAYMENT_AUTHORIZATION`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `error` or `error.intent` with its value.
    public func check() throws {
        switch (transactionState, error) {
        case (.error, nil):
            throw missingMember("error", "Google Pay requires an error with transactionState ERROR")
        case (.error, .some(let error)) where error.intent != .paymentAuthorization:
            throw unmappable(
                "error.intent", error.intent.rawValue, "must be PAYMENT_AUTHORIZATION in onPaymentAuthorized")
        default: break
        }
    }
}
