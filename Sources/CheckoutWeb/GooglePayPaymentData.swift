import CheckoutCore

/// Google Pay's `PaymentData` (reference "Response objects"): what `onPaymentAuthorized` gets and
/// `loadPaymentData` resolves with once the customer pays: the payment method with its token, the
/// email, the full shipping address, the selected option and the codes.
///
/// To the core (``core(transactionIdentifier:shippingMethod:)``): a ``/CheckoutCore/Payment`` whose token's payment
/// data is `tokenizationData.token` and whose method is the card (`description` as display name,
/// `info.cardNetwork` as ``GooglePayCardNetwork`` maps it); the shipping contact is
/// `shippingAddress` with `email`, the billing contact `info.billingAddress`. Google gives no
/// transaction identifier (`TransactionInfo.transactionId` is the merchant's own), so the caller
/// names one. `apiVersion`, `apiVersionMinor`, `tokenizationData.type`, `info.cardDetails`,
/// `info.assuranceDetails` have no core counterpart (``membersWithoutCoreCounterpart``); an
/// address's `sortingCode` is the core address's ``/CheckoutCore/Address/sortingCode``.
public struct GooglePayPaymentData: Codable, Hashable, Sendable {
    /// The API's major version (2).
    public var apiVersion: Int?
    /// The API's minor version (0).
    public var apiVersionMinor: Int?
    /// The payment method and its token.
    public var paymentMethodData: GooglePayPaymentMethodData
    /// The payer's email, when the request asked for it.
    public var email: String?
    /// The full shipping address, when the request asked for it.
    public var shippingAddress: GooglePayAddress?
    /// The shipping option selected.
    public var shippingOptionData: GooglePaySelectionOptionData?
    /// The redemption codes applied.
    public var offerData: GooglePayOfferData?

    /// Payment data; the payment method is needed.
    public init(
        apiVersion: Int? = 2, apiVersionMinor: Int? = 0, paymentMethodData: GooglePayPaymentMethodData,
        email: String? = nil, shippingAddress: GooglePayAddress? = nil,
        shippingOptionData: GooglePaySelectionOptionData? = nil, offerData: GooglePayOfferData? = nil
    ) {
        self.apiVersion = apiVersion
        self.apiVersionMinor = apiVersionMinor
        self.paymentMethodData = paymentMethodData
        self.email = email
        self.shippingAddress = shippingAddress
        self.shippingOptionData = shippingOptionData
        self.offerData = offerData
    }

    /// The payment in the core's terms (see the type's discussion).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path
    ///   (`paymentMethodData.tokenizationData`, `shippingAddress.countryCode`, ...).
    public func core(transactionIdentifier: String, shippingMethod: ShippingMethod? = nil) throws -> Payment {
        let method = paymentMethodData
        guard let tokenization = method.tokenizationData else {
            throw missingMember(
                "paymentMethodData.tokenizationData", "a core PaymentToken needs the payment's token")
        }
        let token = PaymentToken(
            paymentMethod: method.core(), transactionIdentifier: transactionIdentifier,
            paymentData: tokenization.token)
        var shipping = try shippingAddress.map { address in try inside("shippingAddress") { try address.core() } }
        if let email = email.nonEmpty {
            if shipping == nil { shipping = Contact() }
            shipping?.emailAddress = email
        }
        let billing = try method.info?.billingAddress.map { address in
            try inside("paymentMethodData.info.billingAddress") { try address.core() }
        }
        return Payment(token: token, billingContact: billing, shippingContact: shipping, shippingMethod: shippingMethod)
    }

    /// The members present that ``core(transactionIdentifier:shippingMethod:)`` has no place for,
    /// by their paths.
    public var membersWithoutCoreCounterpart: [String] {
        var paths: [String] = []
        if apiVersion != nil { paths.append("apiVersion") }
        if apiVersionMinor != nil { paths.append("apiVersionMinor") }
        if paymentMethodData.tokenizationData != nil { paths.append("paymentMethodData.tokenizationData.type") }
        if paymentMethodData.info?.cardDetails != nil { paths.append("paymentMethodData.info.cardDetails") }
        if paymentMethodData.info?.assuranceDetails != nil { paths.append("paymentMethodData.info.assuranceDetails") }
        paths += (paymentMethodData.info?.billingAddress?.membersWithoutCoreCounterpart ?? []).map {
            "paymentMethodData.info.billingAddress.\($0)"
        }
        paths += (shippingAddress?.membersWithoutCoreCounterpart ?? []).map { "shippingAddress.\($0)" }
        return paths
    }
}

/// Google Pay's `PaymentMethodData` (reference "Response objects"): the method's type, a
/// description for people, the card's info and the token.
public struct GooglePayPaymentMethodData: Codable, Hashable, Sendable {
    /// The method's type, such as `CARD`.
    public var type: String
    /// A description for people, such as `Visa •••• 1234`.
    public var description: String?
    /// For a card: network, last digits, assurance, billing address.
    public var info: GooglePayCardInfo?
    /// The payment's token.
    public var tokenizationData: GooglePayTokenizationData?

    /// Payment method data.
    public init(
        type: String, description: String? = nil, info: GooglePayCardInfo? = nil,
        tokenizationData: GooglePayTokenizationData? = nil
    ) {
        self.type = type
        self.description = description
        self.info = info
        self.tokenizationData = tokenizationData
    }

    /// The method in the core's terms: `description` as display name, the network, type
    /// `unknown` (Google does not say debit or credit).
    public func core() -> PaymentMethod {
        PaymentMethod(
            displayName: description.nonEmpty, network: info?.cardNetwork.map(GooglePayCardNetwork.core),
            type: .unknown)
    }
}

/// Google Pay's `CardInfo` (reference "Response objects").
public struct GooglePayCardInfo: Codable, Hashable, Sendable {
    /// The card's network, such as `VISA`.
    public var cardNetwork: String?
    /// The card's last four digits.
    public var cardDetails: String?
    /// What Google verified of the card.
    public var assuranceDetails: GooglePayAssuranceDetails?
    /// The billing address, when the request asked for it.
    public var billingAddress: GooglePayAddress?

    /// Card info.
    public init(
        cardNetwork: String? = nil, cardDetails: String? = nil, assuranceDetails: GooglePayAssuranceDetails? = nil,
        billingAddress: GooglePayAddress? = nil
    ) {
        self.cardNetwork = cardNetwork
        self.cardDetails = cardDetails
        self.assuranceDetails = assuranceDetails
        self.billingAddress = billingAddress
    }
}

/// Google Pay's `AssuranceDetailsSpecifications` (reference "Response objects").
public struct GooglePayAssuranceDetails: Codable, Hashable, Sendable {
    /// Whether the card holder's account was verified.
    public var accountVerified: Bool?
    /// Whether the card holder was authenticated.
    public var cardHolderAuthenticated: Bool?

    /// Assurance details.
    public init(accountVerified: Bool? = nil, cardHolderAuthenticated: Bool? = nil) {
        self.accountVerified = accountVerified
        self.cardHolderAuthenticated = cardHolderAuthenticated
    }
}

/// Google Pay's `PaymentMethodTokenizationData` (reference "Response objects"): the token's type
/// (`PAYMENT_GATEWAY`, `DIRECT`) and the token, a string the gateway reads.
public struct GooglePayTokenizationData: Codable, Hashable, Sendable {
    /// The token's type.
    public var type: String
    /// The token.
    public var token: String

    /// Tokenization data.
    public init(type: String, token: String) {
        self.type = type
        self.token = token
    }
}
