import CheckoutCore

/// Apple Pay on the web's `ApplePayPaymentTokenContext`: one merchant's part of a multi-merchant
/// payment, in a request's `multiTokenContexts` or an update's `newMultiTokenContexts`.
///
/// To the core ``/CheckoutCore/PaymentTokenContext`` (``core(currency:)``): the amount read in the
/// request's currency. From it (``init(_:)``): the reverse.
public struct ApplePayPaymentTokenContext: Codable, Hashable, Sendable {
    /// The merchant's Apple Pay merchant identifier.
    public var merchantIdentifier: String
    /// The merchant's identifier in the caller's own system.
    public var externalIdentifier: String
    /// The merchant's name.
    public var merchantName: String
    /// The merchant's top-level domain.
    public var merchantDomain: String?
    /// The amount authorized for this merchant, a decimal string.
    public var amount: String

    /// A token context.
    public init(
        merchantIdentifier: String, externalIdentifier: String, merchantName: String, merchantDomain: String? = nil,
        amount: String
    ) {
        self.merchantIdentifier = merchantIdentifier
        self.externalIdentifier = externalIdentifier
        self.merchantName = merchantName
        self.merchantDomain = merchantDomain
        self.amount = amount
    }

    /// The core context, its amount read in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `amount`.
    public func core(currency: CurrencyCode) throws -> PaymentTokenContext {
        PaymentTokenContext(
            merchantIdentifier: merchantIdentifier, externalIdentifier: externalIdentifier,
            merchantName: merchantName, merchantDomain: merchantDomain,
            amount: try wireMoney(amount, currency: currency, path: "amount"))
    }

    /// The core context in Apple's members.
    public init(_ core: PaymentTokenContext) {
        self.init(
            merchantIdentifier: core.merchantIdentifier, externalIdentifier: core.externalIdentifier,
            merchantName: core.merchantName, merchantDomain: core.merchantDomain, amount: core.amount.amountString)
    }
}

extension [ApplePayPaymentTokenContext] {
    /// The contexts in the core's terms, each error naming `path[index].…`.
    func core(currency: CurrencyCode, path: String) throws -> [PaymentTokenContext] {
        try enumerated().map { index, context in
            try inside("\(path)[\(index)]") { try context.core(currency: currency) }
        }
    }
}
