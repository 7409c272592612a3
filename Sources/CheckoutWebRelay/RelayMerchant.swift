import CheckoutFlows
import CheckoutPayContext

/// Who answers a relayed session: the merchant's delegate for an authorization flow, or for a
/// pay context (Stripe merchants: a ``/CheckoutPayContext/PayContextDelegate`` and a
/// ``/CheckoutPayContext/PaymentBackend``), and optionally a ``MerchantValidating`` for
/// `validatemerchant`.
public struct RelayMerchant: Sendable {
    enum Delegate: Sendable {
        case authorization(any PaymentAuthorizationDelegate)
        case asyncAuthorization(any AsyncPaymentAuthorizationDelegate)
        case payContext(any PayContextDelegate, any PaymentBackend)
        case asyncPayContext(any AsyncPayContextDelegate, any PaymentBackend)
    }

    let delegate: Delegate
    /// The merchant validation, if the merchant does it through the relay.
    public let validator: (any MerchantValidating)?

    /// An authorization flow whose delegate is `delegate` (completion handlers).
    public static func authorization(
        delegate: some PaymentAuthorizationDelegate,
        validator: (any MerchantValidating)? = nil
    ) -> RelayMerchant {
        RelayMerchant(delegate: .authorization(delegate), validator: validator)
    }

    /// An authorization flow whose delegate is `delegate` (async/await), with the label the
    /// flows use (`PaymentAuthorizationFlow(request:delegate:)`).
    public static func authorization(
        delegate: some AsyncPaymentAuthorizationDelegate,
        validator: (any MerchantValidating)? = nil
    ) -> RelayMerchant {
        RelayMerchant(delegate: .asyncAuthorization(delegate), validator: validator)
    }

    /// A delegate with both kinds of methods is driven through its completion handlers, as the
    /// flows drive it.
    public static func authorization(
        delegate: some PaymentAuthorizationDelegate & AsyncPaymentAuthorizationDelegate,
        validator: (any MerchantValidating)? = nil
    ) -> RelayMerchant {
        RelayMerchant(delegate: .authorization(delegate), validator: validator)
    }

    /// An authorization flow whose delegate is `delegate` (async/await).
    @available(*, deprecated, renamed: "authorization(delegate:validator:)")
    public static func authorization(
        asyncDelegate delegate: some AsyncPaymentAuthorizationDelegate,
        validator: (any MerchantValidating)? = nil
    ) -> RelayMerchant {
        RelayMerchant(delegate: .asyncAuthorization(delegate), validator: validator)
    }

    /// A pay context whose delegate is `delegate` (completion handlers), on `backend`.
    public static func payContext(
        delegate: some PayContextDelegate,
        backend: any PaymentBackend,
        validator: (any MerchantValidating)? = nil
    ) -> RelayMerchant {
        RelayMerchant(delegate: .payContext(delegate, backend), validator: validator)
    }

    /// A pay context whose delegate is `delegate` (async/await), on `backend`, with the label
    /// the flows use (`PayContext(request:delegate:backend:)`).
    public static func payContext(
        delegate: some AsyncPayContextDelegate,
        backend: any PaymentBackend,
        validator: (any MerchantValidating)? = nil
    ) -> RelayMerchant {
        RelayMerchant(delegate: .asyncPayContext(delegate, backend), validator: validator)
    }

    /// A delegate with both kinds of methods is driven through its completion handlers, as the
    /// pay context drives it.
    public static func payContext(
        delegate: some PayContextDelegate & AsyncPayContextDelegate,
        backend: any PaymentBackend,
        validator: (any MerchantValidating)? = nil
    ) -> RelayMerchant {
        RelayMerchant(delegate: .payContext(delegate, backend), validator: validator)
    }

    /// A pay context whose delegate is `delegate` (async/await), on `backend`.
    @available(*, deprecated, renamed: "payContext(delegate:backend:validator:)")
    public static func payContext(
        asyncDelegate delegate: some AsyncPayContextDelegate,
        backend: any PaymentBackend,
        validator: (any MerchantValidating)? = nil
    ) -> RelayMerchant {
        RelayMerchant(delegate: .asyncPayContext(delegate, backend), validator: validator)
    }

    /// Whether the session is a pay context.
    var isPayContext: Bool {
        switch delegate {
        case .authorization, .asyncAuthorization: false
        case .payContext, .asyncPayContext: true
        }
    }
}
