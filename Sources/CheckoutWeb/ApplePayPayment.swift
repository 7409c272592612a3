import CheckoutCore

/// Apple Pay on the web's `ApplePayPayment`: what `onpaymentauthorized` carries.
///
/// Conversion to ``/CheckoutCore/Payment`` (``core(shippingMethod:)``): the token, and the contacts through
/// ``ApplePayPaymentContact/core()``. Apple's payment does not say which shipping method was
/// selected (the session told the page through `onshippingmethodselected`), so the caller passes
/// it. `installmentAuthorizationToken` has no core counterpart and stays on this value. From the
/// core (``init(_:)``): the shipping method is not carried, as Apple's dictionary has no member
/// for it.
public struct ApplePayPayment: Codable, Hashable, Sendable {
    /// The payment token.
    public var token: ApplePayPaymentToken
    /// The billing contact, when requested.
    public var billingContact: ApplePayPaymentContact?
    /// The shipping contact, in full, when requested.
    public var shippingContact: ApplePayPaymentContact?
    /// The installment authorization token, for installment payments.
    public var installmentAuthorizationToken: String?

    /// A payment.
    public init(
        token: ApplePayPaymentToken,
        billingContact: ApplePayPaymentContact? = nil,
        shippingContact: ApplePayPaymentContact? = nil,
        installmentAuthorizationToken: String? = nil
    ) {
        self.token = token
        self.billingContact = billingContact
        self.shippingContact = shippingContact
        self.installmentAuthorizationToken = installmentAuthorizationToken
    }

    /// The core payment, with the shipping method selected when the customer authorized.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `token.…`, `billingContact.…` or `shippingContact.…`
    ///   (see ``ApplePayPaymentToken/core()`` and ``ApplePayPaymentContact/core()``).
    public func core(shippingMethod: ShippingMethod? = nil) throws -> Payment {
        Payment(
            token: try inside("token") { try token.core() },
            billingContact: try billingContact.map { contact in try inside("billingContact") { try contact.core() } },
            shippingContact: try shippingContact.map { contact in try inside("shippingContact") { try contact.core() }
            },
            shippingMethod: shippingMethod
        )
    }

    /// The members present here that ``core(shippingMethod:)`` has no place for, by their paths:
    /// `installmentAuthorizationToken`, and the token's payment method's (`token.paymentMethod.…`).
    public var membersWithoutCoreCounterpart: [String] {
        (installmentAuthorizationToken == nil ? [] : ["installmentAuthorizationToken"])
            + token.paymentMethod.membersWithoutCoreCounterpart.map { "token.paymentMethod.\($0)" }
    }

    /// The core payment in Apple's members (the shipping method is not carried).
    ///
    /// - Throws: as ``ApplePayPaymentToken/init(_:)``, the field under `token`.
    public init(_ core: Payment) throws {
        self.init(
            token: try inside("token") { try ApplePayPaymentToken(core.token) },
            billingContact: core.billingContact.map(ApplePayPaymentContact.init),
            shippingContact: core.shippingContact.map(ApplePayPaymentContact.init)
        )
    }
}
