import CheckoutCore

/// The W3C Payment Request `PaymentResponse`, in the JSON shape of its `toJSON()`: what `show()`
/// resolves with once the payer has chosen how to pay (spec W7). `requestId`, `methodName` and
/// `details` are required; the shipping and payer members are `null` or absent when the request
/// did not ask for them.
///
/// Decoding follows the wire rules (spec W2): unknown keys are tolerated (browsers add members),
/// a known member that cannot be read is refused with its path (`shippingAddress.addressLine`,
/// `payerEmail`), and a missing required member with its name.
///
/// The relay reads it into an authorization: `methodName`, `details` and `requestId` are the
/// token (``token()``), `shippingAddress` is the full shipping contact, `shippingOption` the
/// selected method's identifier, and `payerName`, `payerEmail`, `payerPhone` the payer's details
/// (``payer``), which FlowRules W7 maps onto the payment's contacts.
public struct PaymentResponse: Codable, Hashable, Sendable {
    /// The request's identifier (`PaymentDetailsInit.id`, or one the browser made).
    public var requestId: String
    /// The payment method identifier the payer chose, such as `https://apple.com/apple-pay`.
    public var methodName: String
    /// The method's data for the merchant's processor, opaque here.
    public var details: JSONValue
    /// The shipping address in full, when the request asked for shipping.
    public var shippingAddress: PaymentAddress?
    /// The selected shipping option's identifier.
    public var shippingOption: String?
    /// The payer's name, when the request asked for it.
    public var payerName: String?
    /// The payer's email address, when the request asked for it.
    public var payerEmail: String?
    /// The payer's phone number, when the request asked for it.
    public var payerPhone: String?

    /// A response.
    public init(
        requestId: String,
        methodName: String,
        details: JSONValue,
        shippingAddress: PaymentAddress? = nil,
        shippingOption: String? = nil,
        payerName: String? = nil,
        payerEmail: String? = nil,
        payerPhone: String? = nil
    ) {
        self.requestId = requestId
        self.methodName = methodName
        self.details = details
        self.shippingAddress = shippingAddress
        self.shippingOption = shippingOption
        self.payerName = payerName
        self.payerEmail = payerEmail
        self.payerPhone = payerPhone
    }

    private enum CodingKeys: String, CodingKey {
        case requestId, methodName, details, shippingAddress, shippingOption, payerName, payerEmail, payerPhone
    }

    /// Decodes the members of `toJSON()`; `null` is absent for the optional ones.
    ///
    /// - Throws: `DecodingError` naming the member that is missing or cannot be read.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func string(_ key: CodingKeys) throws -> String? { try container.decodeIfPresent(String.self, forKey: key) }
        self.init(
            requestId: try container.decode(String.self, forKey: .requestId),
            methodName: try container.decode(String.self, forKey: .methodName),
            details: try container.decode(JSONValue.self, forKey: .details),
            shippingAddress: try container.decodeIfPresent(PaymentAddress.self, forKey: .shippingAddress),
            shippingOption: try string(.shippingOption),
            payerName: try string(.payerName),
            payerEmail: try string(.payerEmail),
            payerPhone: try string(.payerPhone)
        )
    }

    /// Encodes the members present, as `toJSON()` gives them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(requestId, forKey: .requestId)
        try container.encode(methodName, forKey: .methodName)
        try container.encode(details, forKey: .details)
        try container.encodeIfPresent(shippingAddress, forKey: .shippingAddress)
        try container.encodeIfPresent(shippingOption, forKey: .shippingOption)
        try container.encodeIfPresent(payerName, forKey: .payerName)
        try container.encodeIfPresent(payerEmail, forKey: .payerEmail)
        try container.encodeIfPresent(payerPhone, forKey: .payerPhone)
    }

    /// The payer's details as a contact: `payerName` → ``/CheckoutCore/Contact/name``, `payerEmail` →
    /// ``/CheckoutCore/Contact/emailAddress``, `payerPhone` → ``/CheckoutCore/Contact/phoneNumber``; an
    /// empty string is absent, as browsers send `""` for what they do not have.
    public var payer: Contact {
        Contact(name: payerName.nonEmpty, emailAddress: payerEmail.nonEmpty, phoneNumber: payerPhone.nonEmpty)
    }

    /// The core token: `requestId` is the transaction's identifier, `details` the payment data
    /// (a string as it is, any other value as compact JSON text with sorted keys, as
    /// ``ApplePayPaymentToken/core()`` writes it), and the payment method is named by
    /// `methodName` (its network and type unknown: the response does not say them).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/missingField``
    ///   naming `requestId` or `methodName` when empty.
    public func token() throws -> PaymentToken {
        guard !requestId.isEmpty else {
            throw missingMember("requestId", "a core PaymentToken needs the transaction's identifier")
        }
        guard !methodName.isEmpty else {
            throw missingMember("methodName", "the payment method identifier names the token's method")
        }
        return PaymentToken(
            paymentMethod: PaymentMethod(displayName: methodName, network: nil, type: .unknown),
            transactionIdentifier: requestId,
            paymentData: details.paymentDataText
        )
    }
}
