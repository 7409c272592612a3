import CheckoutCore

/// Apple Pay on the web's `ApplePayPaymentMethodType`.
public enum ApplePayPaymentMethodType: String, Codable, Hashable, Sendable, CaseIterable {
    /// A debit card.
    case debit
    /// A credit card.
    case credit
    /// A prepaid card.
    case prepaid
    /// A store card.
    case store
}

/// Apple Pay on the web's `ApplePayPaymentMethod`: the card the customer chose, as
/// `onpaymentmethodselected` and the payment token carry it. Every member is optional; an
/// object with keys and none of these is refused (spec W2).
///
/// Conversion to ``/CheckoutCore/PaymentMethod`` (``core()``): `displayName` and `network` as they are
/// (Apple's network names are PassKit's); `type` to the core type of the same name, an absent
/// type to ``/CheckoutCore/PaymentMethodType/unknown``. The core has no `paymentPass`, `billingContact` or
/// `bindToken`: they stay on this value. From the core (``init(_:)``): ``/CheckoutCore/PaymentMethodType/unknown``
/// is an absent `type`; ``/CheckoutCore/PaymentMethodType/eMoney`` has no Apple Pay on the web counterpart and
/// is refused.
public struct ApplePayPaymentMethod: Codable, Hashable, Sendable {
    /// A name for display, such as "Visa 1234".
    public var displayName: String?
    /// The card's network, such as `visa` or `masterCard`.
    public var network: String?
    /// Debit, credit, prepaid or store.
    public var type: ApplePayPaymentMethodType?
    /// The card's Wallet pass.
    public var paymentPass: ApplePayPaymentPass?
    /// The card's billing contact, when the request asked for one.
    public var billingContact: ApplePayPaymentContact?
    /// A token binding the method to an installment plan.
    public var bindToken: String?

    /// A payment method, every member optional.
    public init(
        displayName: String? = nil,
        network: String? = nil,
        type: ApplePayPaymentMethodType? = nil,
        paymentPass: ApplePayPaymentPass? = nil,
        billingContact: ApplePayPaymentContact? = nil,
        bindToken: String? = nil
    ) {
        self.displayName = displayName
        self.network = network
        self.type = type
        self.paymentPass = paymentPass
        self.billingContact = billingContact
        self.bindToken = bindToken
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case displayName, network, type, paymentPass, billingContact, bindToken
    }

    /// Decodes every documented member; an object with keys and none of them is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "ApplePayPaymentMethod")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            displayName: try container.decodeIfPresent(String.self, forKey: .displayName),
            network: try container.decodeIfPresent(String.self, forKey: .network),
            type: try container.decodeIfPresent(ApplePayPaymentMethodType.self, forKey: .type),
            paymentPass: try container.decodeIfPresent(ApplePayPaymentPass.self, forKey: .paymentPass),
            billingContact: try container.decodeIfPresent(ApplePayPaymentContact.self, forKey: .billingContact),
            bindToken: try container.decodeIfPresent(String.self, forKey: .bindToken)
        )
    }

    /// The core payment method (see the type's discussion).
    public func core() -> PaymentMethod {
        let coreType: PaymentMethodType =
            switch type {
            case nil: .unknown
            case .debit: .debit
            case .credit: .credit
            case .prepaid: .prepaid
            case .store: .store
            }
        return PaymentMethod(
            displayName: displayName, network: network.map { PaymentNetwork(rawValue: $0) }, type: coreType)
    }

    /// The members present here that ``core()`` has no place for, by their wire names:
    /// `paymentPass`, `billingContact`, `bindToken`.
    public var membersWithoutCoreCounterpart: [String] {
        [
            ("paymentPass", paymentPass != nil), ("billingContact", billingContact != nil),
            ("bindToken", bindToken != nil),
        ]
        .filter(\.1).map(\.0)
    }

    /// The core payment method in Apple's members (see the type's discussion).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/invalidField`` naming `type` for
    ///   ``/CheckoutCore/PaymentMethodType/eMoney``.
    public init(_ core: PaymentMethod) throws {
        let type: ApplePayPaymentMethodType?
        switch core.type {
        case .unknown: type = nil
        case .debit: type = .debit
        case .credit: type = .credit
        case .prepaid: type = .prepaid
        case .store: type = .store
        case .eMoney: throw unmappable("type", core.type.rawValue, "has no ApplePayPaymentMethodType counterpart")
        }
        self.init(displayName: core.displayName, network: core.network?.rawValue, type: type)
    }
}
