import CheckoutCore

/// Apple Pay on the web's `ApplePayMerchantCapability`.
public enum ApplePayMerchantCapability: String, Codable, Hashable, Sendable, CaseIterable {
    /// 3-D Secure (core ``/CheckoutCore/MerchantCapabilities/threeDSecure``).
    case supports3DS
    /// EMV (core ``/CheckoutCore/MerchantCapabilities/emv``).
    case supportsEMV
    /// Credit cards (core ``/CheckoutCore/MerchantCapabilities/credit``).
    case supportsCredit
    /// Debit cards (core ``/CheckoutCore/MerchantCapabilities/debit``).
    case supportsDebit
    /// Instant funds out, for disbursements; the core has no counterpart.
    case supportsInstantFundsOut
}

/// Apple Pay on the web's `ApplePayContactField`: a contact field a request can require.
public enum ApplePayContactField: String, Codable, Hashable, Sendable, CaseIterable {
    /// The email address (core ``/CheckoutCore/ContactField/emailAddress``).
    case email
    /// The name (core ``/CheckoutCore/ContactField/name``).
    case name
    /// The phonetic name; the core has no counterpart.
    case phoneticName
    /// The phone number (core ``/CheckoutCore/ContactField/phoneNumber``).
    case phone
    /// The postal address (core ``/CheckoutCore/ContactField/postalAddress``).
    case postalAddress
}

/// Apple Pay on the web's `ApplePayShippingType`, the same four names as the core
/// ``/CheckoutCore/ShippingType``.
public enum ApplePayShippingType: String, Codable, Hashable, Sendable, CaseIterable {
    /// Shipped to an address, the default.
    case shipping
    /// Delivered.
    case delivery
    /// Collected at a store.
    case storePickup
    /// Collected from the customer.
    case servicePickup
}

/// Apple Pay on the web's `ApplePayPaymentRequest` (with the members of `ApplePayRequestBase`),
/// the request the page passes to `new ApplePaySession(version, request)`.
///
/// Today's Apple Pay members are typed and carried both ways: `recurringPaymentRequest`,
/// `automaticReloadPaymentRequest`, `deferredPaymentRequest` and `multiTokenContexts`
/// (``ApplePayRecurringPaymentRequest`` and its siblings), `shippingContactEditingMode`,
/// `applePayLaterAvailability` and `merchantCategoryCode`. `installmentConfiguration` and
/// `disbursementRequest` are kept losslessly as ``/CheckoutCore/JSONValue``: the core has no model
/// for them.
///
/// Conversion to ``/CheckoutCore/PaymentRequest`` (``core(merchantIdentifier:)``; Apple's request has no
/// merchant identifier, it lives in the merchant session):
/// - summary items are `lineItems` followed by `total` (the core's grand total is the last
///   item), amounts read in `currencyCode`;
/// - capabilities `supports3DS`, `supportsEMV`, `supportsCredit`, `supportsDebit` →
///   `threeDSecure`, `emv`, `credit`, `debit`; contact fields `email`, `name`, `phone`,
///   `postalAddress` → `emailAddress`, `name`, `phoneNumber`, `postalAddress`;
/// - absent lists are empty, an absent `shippingType` is `shipping`, an absent
///   `supportsCouponCode` is false;
/// - today's Apple Pay members as their core counterparts, amounts read in `currencyCode`
///   (``ApplePayRecurringPaymentRequest`` and its siblings say how);
/// - what the core cannot hold is listed by ``membersWithoutCoreCounterpart``
///   (`supportsInstantFundsOut`, `phoneticName`, the prefilled contacts, `applicationData`, ...).
///
/// From the core (``init(_:version:)``): the reverse; an empty list of shipping methods is absent.
///
/// ``validate()`` checks the request as WebKit does when the page creates the session, for the
/// version it names (see ``ApplePayVersion``).
public struct ApplePayPaymentRequest: Codable, Hashable, Sendable {
    /// The `ApplePaySession` version the request is for (see ``ApplePayVersion``): the page passes
    /// it to `new ApplePaySession(version, request)`, a W3C `ApplePayRequest` carries it as is.
    /// ``validate()`` requires it.
    public var version: Int?
    /// Features the request uses.
    public var features: [String]?
    /// What the merchant's processor supports.
    public var merchantCapabilities: [ApplePayMerchantCapability]
    /// The card networks accepted, such as `visa`, `masterCard`, `amex`.
    public var supportedNetworks: [String]
    /// The merchant's ISO 3166-1 alpha-2 country.
    public var countryCode: String
    /// The billing contact fields required.
    public var requiredBillingContactFields: [ApplePayContactField]?
    /// A billing contact to prefill.
    public var billingContact: ApplePayPaymentContact?
    /// The shipping contact fields required.
    public var requiredShippingContactFields: [ApplePayContactField]?
    /// A shipping contact to prefill.
    public var shippingContact: ApplePayPaymentContact?
    /// Data the merchant wants hashed into the payment token.
    public var applicationData: String?
    /// The ISO 3166-1 countries whose cards are accepted.
    public var supportedCountries: [String]?
    /// An installment configuration, kept as it is.
    public var installmentConfiguration: JSONValue?
    /// Whether the customer may enter a coupon code.
    public var supportsCouponCode: Bool?
    /// A coupon code applied from the start.
    public var couponCode: String?
    /// Whether the customer may edit the shipping contact (`available`, `storePickup`).
    public var shippingContactEditingMode: ShippingContactEditingMode?
    /// Whether Apple Pay Later is offered (`available`, `unavailableItemIneligible`,
    /// `unavailableRecurringTransaction`).
    public var applePayLaterAvailability: ApplePayLaterAvailability?
    /// The merchant's category code, four digits.
    public var merchantCategoryCode: MerchantCategoryCode?
    /// The total; its label is the merchant's name.
    public var total: ApplePayLineItem
    /// The lines above the total.
    public var lineItems: [ApplePayLineItem]?
    /// The ISO 4217 currency of every amount.
    public var currencyCode: String
    /// How the goods reach the customer; absent means shipping.
    public var shippingType: ApplePayShippingType?
    /// The shipping methods offered at first.
    public var shippingMethods: [ApplePayShippingMethod]?
    /// A recurring payment request.
    public var recurringPaymentRequest: ApplePayRecurringPaymentRequest?
    /// An automatic reload payment request.
    public var automaticReloadPaymentRequest: ApplePayAutomaticReloadPaymentRequest?
    /// Multi-merchant token contexts.
    public var multiTokenContexts: [ApplePayPaymentTokenContext]?
    /// A deferred payment request.
    public var deferredPaymentRequest: ApplePayDeferredPaymentRequest?
    /// A disbursement request, kept as it is.
    public var disbursementRequest: JSONValue?

    /// A request; the capabilities, networks, country, total and currency have no default.
    public init(
        version: Int? = nil,
        features: [String]? = nil,
        merchantCapabilities: [ApplePayMerchantCapability],
        supportedNetworks: [String],
        countryCode: String,
        requiredBillingContactFields: [ApplePayContactField]? = nil,
        billingContact: ApplePayPaymentContact? = nil,
        requiredShippingContactFields: [ApplePayContactField]? = nil,
        shippingContact: ApplePayPaymentContact? = nil,
        applicationData: String? = nil,
        supportedCountries: [String]? = nil,
        installmentConfiguration: JSONValue? = nil,
        supportsCouponCode: Bool? = nil,
        couponCode: String? = nil,
        shippingContactEditingMode: ShippingContactEditingMode? = nil,
        applePayLaterAvailability: ApplePayLaterAvailability? = nil,
        merchantCategoryCode: MerchantCategoryCode? = nil,
        total: ApplePayLineItem,
        lineItems: [ApplePayLineItem]? = nil,
        currencyCode: String,
        shippingType: ApplePayShippingType? = nil,
        shippingMethods: [ApplePayShippingMethod]? = nil,
        recurringPaymentRequest: ApplePayRecurringPaymentRequest? = nil,
        automaticReloadPaymentRequest: ApplePayAutomaticReloadPaymentRequest? = nil,
        multiTokenContexts: [ApplePayPaymentTokenContext]? = nil,
        deferredPaymentRequest: ApplePayDeferredPaymentRequest? = nil,
        disbursementRequest: JSONValue? = nil
    ) {
        self.version = version
        self.features = features
        self.merchantCapabilities = merchantCapabilities
        self.supportedNetworks = supportedNetworks
        self.countryCode = countryCode
        self.requiredBillingContactFields = requiredBillingContactFields
        self.billingContact = billingContact
        self.requiredShippingContactFields = requiredShippingContactFields
        self.shippingContact = shippingContact
        self.applicationData = applicationData
        self.supportedCountries = supportedCountries
        self.installmentConfiguration = installmentConfiguration
        self.supportsCouponCode = supportsCouponCode
        self.couponCode = couponCode
        self.shippingContactEditingMode = shippingContactEditingMode
        self.applePayLaterAvailability = applePayLaterAvailability
        self.merchantCategoryCode = merchantCategoryCode
        self.total = total
        self.lineItems = lineItems
        self.currencyCode = currencyCode
        self.shippingType = shippingType
        self.shippingMethods = shippingMethods
        self.recurringPaymentRequest = recurringPaymentRequest
        self.automaticReloadPaymentRequest = automaticReloadPaymentRequest
        self.multiTokenContexts = multiTokenContexts
        self.deferredPaymentRequest = deferredPaymentRequest
        self.disbursementRequest = disbursementRequest
    }

    /// The core request (see the type's discussion). It is not validated here: the flow does
    /// that when it is made (spec A1).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `currencyCode` when it is not an ISO 4217 code, or the
    ///   amount's path (`total.amount`, `lineItems[1].amount`, `shippingMethods[0].amount`,
    ///   `recurringPaymentRequest.regularBilling.amount`, ...) when an amount is not one of that
    ///   currency, or the member's path when one of today's Apple Pay members cannot be carried
    ///   (a date that is not ISO 8601, a URL that is not absolute, an item of another payment
    ///   timing).
    public func core(merchantIdentifier: String) throws -> PaymentRequest {
        let currency: CurrencyCode
        do {
            currency = try CurrencyCode(currencyCode)
        } catch var error as CheckoutError {
            error.field = "currencyCode"
            throw error
        }
        var capabilities: MerchantCapabilities = []
        for capability in merchantCapabilities {
            switch capability {
            case .supports3DS: capabilities.insert(.threeDSecure)
            case .supportsEMV: capabilities.insert(.emv)
            case .supportsCredit: capabilities.insert(.credit)
            case .supportsDebit: capabilities.insert(.debit)
            case .supportsInstantFundsOut: break  // listed by membersWithoutCoreCounterpart
            }
        }
        let items =
            try (lineItems ?? []).core(currency: currency, path: "lineItems")
            + [try inside("total") { try total.core(currency: currency) }]
        let terms = try termsMembers.core(currency: currency, update: false)
        return PaymentRequest(
            merchantIdentifier: merchantIdentifier,
            countryCode: countryCode,
            currencyCode: currencyCode,
            supportedNetworks: supportedNetworks.map { PaymentNetwork(rawValue: $0) },
            merchantCapabilities: capabilities,
            requiredBillingContactFields: Self.coreFields(requiredBillingContactFields),
            requiredShippingContactFields: Self.coreFields(requiredShippingContactFields),
            shippingType: Self.coreShippingType(shippingType),
            shippingMethods: try (shippingMethods ?? []).core(currency: currency, path: "shippingMethods"),
            summaryItems: items,
            couponCode: couponCode,
            supportsCouponCode: supportsCouponCode ?? false,
            shippingContactEditingMode: shippingContactEditingMode,
            applePayLaterAvailability: applePayLaterAvailability,
            merchantCategoryCode: merchantCategoryCode,
            recurringPaymentRequest: terms.recurringPaymentRequest,
            automaticReloadPaymentRequest: terms.automaticReloadPaymentRequest,
            deferredPaymentRequest: terms.deferredPaymentRequest,
            multiTokenContexts: terms.multiTokenContexts ?? []
        )
    }

    /// The four members that set the payment's terms.
    var termsMembers: ApplePayPaymentTermsMembers {
        ApplePayPaymentTermsMembers(
            recurringPaymentRequest: recurringPaymentRequest,
            automaticReloadPaymentRequest: automaticReloadPaymentRequest,
            deferredPaymentRequest: deferredPaymentRequest, multiTokenContexts: multiTokenContexts)
    }

    /// The members present here that ``core(merchantIdentifier:)`` has no place for, by their
    /// wire names (a capability or contact field without a counterpart by its path, such as
    /// `merchantCapabilities[2]`).
    public var membersWithoutCoreCounterpart: [String] {
        var names: [String] = []
        for (index, capability) in merchantCapabilities.enumerated() where capability == .supportsInstantFundsOut {
            names.append("merchantCapabilities[\(index)]")
        }
        for (index, field) in (requiredBillingContactFields ?? []).enumerated() where field == .phoneticName {
            names.append("requiredBillingContactFields[\(index)]")
        }
        for (index, field) in (requiredShippingContactFields ?? []).enumerated() where field == .phoneticName {
            names.append("requiredShippingContactFields[\(index)]")
        }
        let opaque: [(String, Bool)] = [
            ("features", features != nil), ("billingContact", billingContact != nil),
            ("shippingContact", shippingContact != nil), ("applicationData", applicationData != nil),
            ("supportedCountries", supportedCountries != nil),
            ("installmentConfiguration", installmentConfiguration != nil),
            ("disbursementRequest", disbursementRequest != nil),
        ]
        names += opaque.filter(\.1).map(\.0)
        for (index, item) in ([total] + (lineItems ?? [])).enumerated() {
            let path = index == 0 ? "total" : "lineItems[\(index - 1)]"
            names += item.membersWithoutCoreCounterpart.map { "\(path).\($0)" }
        }
        return names
    }

    /// The core request in Apple's members (see the type's discussion).
    ///
    /// - Parameters:
    ///   - core: the request to carry.
    ///   - version: the `ApplePaySession` version the request is for.
    /// - Throws: ``/CheckoutCore/CheckoutError`` with ``/CheckoutCore/CheckoutError/Code/emptyList`` naming `summaryItems`
    ///   when there are none: Apple requires a total.
    public init(_ core: PaymentRequest, version: Int? = nil) throws {
        let (total, lineItems) = try appleTotalAndLineItems(core.summaryItems, field: "summaryItems")
        let terms = ApplePayPaymentTermsMembers(core.terms)
        let capabilityNames: [(MerchantCapabilities, ApplePayMerchantCapability)] = [
            (.threeDSecure, .supports3DS), (.emv, .supportsEMV), (.credit, .supportsCredit), (.debit, .supportsDebit),
        ]
        self.init(
            version: version,
            merchantCapabilities: capabilityNames.filter { core.merchantCapabilities.contains($0.0) }.map(\.1),
            supportedNetworks: core.supportedNetworks.map(\.rawValue),
            countryCode: core.countryCode,
            requiredBillingContactFields: Self.appleFields(core.requiredBillingContactFields),
            requiredShippingContactFields: Self.appleFields(core.requiredShippingContactFields),
            supportsCouponCode: core.supportsCouponCode ? true : nil,
            couponCode: core.couponCode,
            shippingContactEditingMode: core.shippingContactEditingMode,
            applePayLaterAvailability: core.applePayLaterAvailability,
            merchantCategoryCode: core.merchantCategoryCode,
            total: total,
            lineItems: lineItems.isEmpty ? nil : lineItems,
            currencyCode: core.currencyCode,
            shippingType: Self.appleShippingType(core.shippingType),
            shippingMethods: core.shippingMethods.isEmpty ? nil : core.shippingMethods.map(ApplePayShippingMethod.init),
            recurringPaymentRequest: terms.recurringPaymentRequest,
            automaticReloadPaymentRequest: terms.automaticReloadPaymentRequest,
            multiTokenContexts: terms.multiTokenContexts,
            deferredPaymentRequest: terms.deferredPaymentRequest
        )
    }

    private static func coreFields(_ fields: [ApplePayContactField]?) -> Set<ContactField> {
        var result: Set<ContactField> = []
        for field in fields ?? [] {
            switch field {
            case .email: result.insert(.emailAddress)
            case .name: result.insert(.name)
            case .phone: result.insert(.phoneNumber)
            case .postalAddress: result.insert(.postalAddress)
            case .phoneticName: break  // listed by membersWithoutCoreCounterpart
            }
        }
        return result
    }

    private static func appleFields(_ fields: Set<ContactField>) -> [ApplePayContactField]? {
        guard !fields.isEmpty else { return nil }
        return fields.sorted().map { field in
            switch field {
            case .emailAddress: .email
            case .name: .name
            case .phoneNumber: .phone
            case .postalAddress: .postalAddress
            }
        }
    }

    private static func coreShippingType(_ type: ApplePayShippingType?) -> ShippingType {
        switch type {
        case nil, .shipping: .shipping
        case .delivery: .delivery
        case .storePickup: .storePickup
        case .servicePickup: .servicePickup
        }
    }

    private static func appleShippingType(_ type: ShippingType) -> ApplePayShippingType {
        switch type {
        case .shipping: .shipping
        case .delivery: .delivery
        case .storePickup: .storePickup
        case .servicePickup: .servicePickup
        }
    }
}
