import CheckoutCore

/// Apple Pay on the web's `ApplePayPaymentToken`: the card used, the transaction's identifier
/// and the encrypted payment data for the processor.
///
/// `paymentData` is an arbitrary JSON object (for a card, `{version, data, signature,
/// header}`), kept losslessly as a ``/CheckoutCore/JSONValue``.
///
/// Conversion to ``/CheckoutCore/PaymentToken`` (``core()``): the core's `paymentData` is a string, so an
/// object or array is written as compact JSON text with sorted keys, a string is taken as it is,
/// and any other value as its JSON text. From the core (``init(_:)``): a string that is JSON
/// text of an object or array becomes that value, any other string a JSON string. An object
/// therefore survives wire → core → wire exactly; its text survives core → wire → core up to
/// white space and key order.
public struct ApplePayPaymentToken: Codable, Hashable, Sendable {
    /// The card used.
    public var paymentMethod: ApplePayPaymentMethod
    /// The transaction's identifier.
    public var transactionIdentifier: String?
    /// The encrypted payment data, opaque here.
    public var paymentData: JSONValue?

    /// A token.
    public init(
        paymentMethod: ApplePayPaymentMethod, transactionIdentifier: String? = nil, paymentData: JSONValue? = nil
    ) {
        self.paymentMethod = paymentMethod
        self.transactionIdentifier = transactionIdentifier
        self.paymentData = paymentData
    }

    /// The core token (see the type's discussion for `paymentData`).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/missingField`` naming
    ///   `transactionIdentifier` or `paymentData` when absent: the core token needs both.
    public func core() throws -> PaymentToken {
        guard let transactionIdentifier else {
            throw missingMember("transactionIdentifier", "a core PaymentToken needs the transaction's identifier")
        }
        guard let paymentData else {
            throw missingMember("paymentData", "a core PaymentToken needs the payment data")
        }
        return PaymentToken(
            paymentMethod: paymentMethod.core(),
            transactionIdentifier: transactionIdentifier,
            paymentData: paymentData.paymentDataText
        )
    }

    /// The core token in Apple's members (see the type's discussion for `paymentData`).
    ///
    /// - Throws: as ``ApplePayPaymentMethod/init(_:)``, the field under `paymentMethod`.
    public init(_ core: PaymentToken) throws {
        let data: JSONValue
        switch JSONValue(jsonText: core.paymentData) {
        case .some(.object(let members)): data = .object(members)
        case .some(.array(let elements)): data = .array(elements)
        default: data = .string(core.paymentData)
        }
        self.init(
            paymentMethod: try inside("paymentMethod") { try ApplePayPaymentMethod(core.paymentMethod) },
            transactionIdentifier: core.transactionIdentifier,
            paymentData: data
        )
    }
}
