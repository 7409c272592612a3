import CheckoutCore
import Foundation

/// Apple Pay on the web's `ApplePayPaymentOrderDetails`: an order the customer can track in
/// Wallet after the payment.
public struct ApplePayPaymentOrderDetails: Codable, Hashable, Sendable {
    /// The order type's identifier.
    public var orderTypeIdentifier: String
    /// The order's identifier.
    public var orderIdentifier: String
    /// The URL of the merchant's order web service.
    public var webServiceURL: String
    /// The token that authenticates Wallet to that service.
    public var authenticationToken: String

    /// Order details.
    public init(
        orderTypeIdentifier: String, orderIdentifier: String, webServiceURL: String, authenticationToken: String
    ) {
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.webServiceURL = webServiceURL
        self.authenticationToken = authenticationToken
    }
}

extension ApplePayPaymentOrderDetails {
    /// The core's order details (PassKit's `PKPaymentOrderDetails`).
    public init(_ core: PaymentOrderDetails) {
        self.init(
            orderTypeIdentifier: core.orderTypeIdentifier, orderIdentifier: core.orderIdentifier,
            webServiceURL: core.webServiceURL.absoluteString, authenticationToken: core.authenticationToken)
    }

    /// The core's order details.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `orderDetails.webServiceURL` when it is no
    ///   absolute URL.
    public func core() throws -> PaymentOrderDetails {
        guard let url = URL(string: webServiceURL), url.scheme != nil else {
            throw CheckoutError(
                code: .invalidField, message: "orderDetails.webServiceURL is not an absolute URL",
                field: "orderDetails.webServiceURL", value: webServiceURL)
        }
        return PaymentOrderDetails(
            orderTypeIdentifier: orderTypeIdentifier, orderIdentifier: orderIdentifier, webServiceURL: url,
            authenticationToken: authenticationToken)
    }
}

/// Apple Pay on the web's `ApplePayPaymentAuthorizationResult`, what the page passes to
/// `completePayment`: a status code and errors.
///
/// `status` is one of `ApplePaySession`'s constants, the same numbers as PassKit's and the core
/// ``/CheckoutCore/PaymentAuthorizationStatus``'s raw values: `STATUS_SUCCESS` 0, `STATUS_FAILURE` 1,
/// `STATUS_INVALID_BILLING_POSTAL_ADDRESS` 2, `STATUS_INVALID_SHIPPING_POSTAL_ADDRESS` 3,
/// `STATUS_INVALID_SHIPPING_CONTACT` 4, `STATUS_PIN_REQUIRED` 5, `STATUS_PIN_INCORRECT` 6,
/// `STATUS_PIN_LOCKOUT` 7. Errors map as ``ApplePayError`` says. `orderDetails` is the core's
/// ``/CheckoutCore/PaymentOrderDetails`` both ways (`webServiceURL` an absolute URL).
public struct ApplePayPaymentAuthorizationResult: Codable, Hashable, Sendable {
    /// `ApplePaySession.STATUS_SUCCESS` (0).
    public static let statusSuccess = 0
    /// `ApplePaySession.STATUS_FAILURE` (1).
    public static let statusFailure = 1
    /// `ApplePaySession.STATUS_INVALID_BILLING_POSTAL_ADDRESS` (2).
    public static let statusInvalidBillingPostalAddress = 2
    /// `ApplePaySession.STATUS_INVALID_SHIPPING_POSTAL_ADDRESS` (3).
    public static let statusInvalidShippingPostalAddress = 3
    /// `ApplePaySession.STATUS_INVALID_SHIPPING_CONTACT` (4).
    public static let statusInvalidShippingContact = 4
    /// `ApplePaySession.STATUS_PIN_REQUIRED` (5).
    public static let statusPINRequired = 5
    /// `ApplePaySession.STATUS_PIN_INCORRECT` (6).
    public static let statusPINIncorrect = 6
    /// `ApplePaySession.STATUS_PIN_LOCKOUT` (7).
    public static let statusPINLockout = 7

    /// The status code.
    public var status: Int
    /// Errors for the sheet.
    public var errors: [ApplePayError]?
    /// An order to track in Wallet.
    public var orderDetails: ApplePayPaymentOrderDetails?

    /// A result.
    public init(status: Int, errors: [ApplePayError]? = nil, orderDetails: ApplePayPaymentOrderDetails? = nil) {
        self.status = status
        self.errors = errors
        self.orderDetails = orderDetails
    }

    /// The core result.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/invalidField`` naming `status` for a
    ///   number that is not one of the eight status codes.
    public func core() throws -> PaymentAuthorizationResult {
        guard let coreStatus = PaymentAuthorizationStatus(rawValue: status) else {
            throw unmappable("status", String(status), "is not an ApplePaySession status code (0 to 7)")
        }
        return PaymentAuthorizationResult(
            status: coreStatus, errors: (errors ?? []).core(), orderDetails: try orderDetails?.core())
    }

    /// The members present here that ``core()`` has no place for: none since `orderDetails` is
    /// carried.
    public var membersWithoutCoreCounterpart: [String] { [] }

    /// The core result in Apple's members; no errors are absent `errors`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `errors[i].code` for a code Apple Pay does not have.
    public init(_ core: PaymentAuthorizationResult) throws {
        let errors = try appleErrors(core.errors, path: "errors")
        self.init(
            status: core.status.rawValue, errors: errors.isEmpty ? nil : errors,
            orderDetails: core.orderDetails.map(ApplePayPaymentOrderDetails.init))
    }
}
