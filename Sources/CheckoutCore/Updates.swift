/// What every update a merchant returns during an authorization has in common (PassKit's
/// `PKPaymentRequestUpdate` family): the new summary items, optionally a new list of shipping
/// methods, and errors to show. ``PaymentRequest/problems(in:)`` validates one against its
/// request (spec E7).
public protocol PaymentRequestUpdate: Hashable, Sendable, Codable {
    /// The summary items that replace the current ones; the last is the grand total.
    var summaryItems: [SummaryItem] { get }
    /// The shipping methods that replace the current ones: nil leaves them unchanged, an empty
    /// list means none is available.
    var shippingMethods: [ShippingMethod]? { get }
    /// Errors for the sheet.
    var errors: [PaymentError] { get }
    /// A recurring payment request that replaces the current one; nil leaves it unchanged.
    var recurringPaymentRequest: RecurringPaymentRequest? { get }
    /// An automatic-reload payment request that replaces the current one; nil leaves it unchanged.
    var automaticReloadPaymentRequest: AutomaticReloadPaymentRequest? { get }
    /// A deferred payment request that replaces the current one; nil leaves it unchanged.
    var deferredPaymentRequest: DeferredPaymentRequest? { get }
    /// Multi-token contexts that replace the current ones; nil leaves them unchanged, an empty
    /// list removes them.
    var multiTokenContexts: [PaymentTokenContext]? { get }
}

extension PaymentRequestUpdate {
    /// None: an update of a type that does not carry one leaves the request's unchanged.
    public var recurringPaymentRequest: RecurringPaymentRequest? { nil }
    /// None: an update of a type that does not carry one leaves the request's unchanged.
    public var automaticReloadPaymentRequest: AutomaticReloadPaymentRequest? { nil }
    /// None: an update of a type that does not carry one leaves the request's unchanged.
    public var deferredPaymentRequest: DeferredPaymentRequest? { nil }
    /// None: an update of a type that does not carry them leaves the request's unchanged.
    public var multiTokenContexts: [PaymentTokenContext]? { nil }
}

extension PaymentTerms {
    /// The terms `update` sets.
    package init(_ update: some PaymentRequestUpdate) {
        self.init(
            recurringPaymentRequest: update.recurringPaymentRequest,
            automaticReloadPaymentRequest: update.automaticReloadPaymentRequest,
            deferredPaymentRequest: update.deferredPaymentRequest, multiTokenContexts: update.multiTokenContexts)
    }
}

/// The answer to a shipping-contact change (`PKPaymentRequestShippingContactUpdate`).
public struct ShippingContactUpdate: PaymentRequestUpdate {
    private enum CodingKeys: String, PaymentTermsCodingKey {
        case errors
        case summaryItems
        case shippingMethods
        case recurringPaymentRequest
        case automaticReloadPaymentRequest
        case deferredPaymentRequest
        case multiTokenContexts
    }
    /// Set on the update a flow makes for a delegate that does not implement the optional
    /// method (spec A9), so that the transcript can say a default answered.
    package var isDefaultAnswer = false

    /// The recurring, automatic-reload and deferred requests and multi-token contexts this update
    /// sets, in one box (absent when none is set).
    package var terms = PaymentTerms()
    /// A recurring payment request that replaces the current one; nil leaves it unchanged.
    public var recurringPaymentRequest: RecurringPaymentRequest? {
        get { terms.recurringPaymentRequest }
        set { terms.recurringPaymentRequest = newValue }
    }
    /// An automatic-reload payment request that replaces the current one; nil leaves it unchanged.
    public var automaticReloadPaymentRequest: AutomaticReloadPaymentRequest? {
        get { terms.automaticReloadPaymentRequest }
        set { terms.automaticReloadPaymentRequest = newValue }
    }
    /// A deferred payment request that replaces the current one; nil leaves it unchanged.
    public var deferredPaymentRequest: DeferredPaymentRequest? {
        get { terms.deferredPaymentRequest }
        set { terms.deferredPaymentRequest = newValue }
    }
    /// Multi-token contexts that replace the current ones; nil leaves them unchanged, an empty
    /// list removes them.
    public var multiTokenContexts: [PaymentTokenContext]? {
        get { terms.multiTokenContexts }
        set { terms.multiTokenContexts = newValue }
    }

    /// Errors for the sheet: `shippingContactInvalid` and `shippingAddressUnserviceable`
    /// block authorization until another contact is selected.
    public var errors: [PaymentError]
    /// The summary items that replace the current ones; the last is the grand total.
    public var summaryItems: [SummaryItem]
    /// The shipping methods that replace the current ones: nil leaves them unchanged, an
    /// empty list means none is available for this contact.
    public var shippingMethods: [ShippingMethod]?

    /// An update with new summary items and, optionally, errors and a new list of shipping
    /// methods. New terms (recurring, automatic-reload or deferred requests, multi-token contexts)
    /// are set on its members, as on PassKit's update.
    public init(
        errors: [PaymentError] = [],
        summaryItems: [SummaryItem],
        shippingMethods: [ShippingMethod]? = nil
    ) {
        self.errors = errors
        self.summaryItems = summaryItems
        self.shippingMethods = shippingMethods
    }
}

/// The answer to a shipping-method change (`PKPaymentRequestShippingMethodUpdate`): new summary
/// items only.
public struct ShippingMethodUpdate: PaymentRequestUpdate {
    private enum CodingKeys: String, PaymentTermsCodingKey {
        case summaryItems
        case recurringPaymentRequest
        case automaticReloadPaymentRequest
        case deferredPaymentRequest
        case multiTokenContexts
    }
    /// Set on the update a flow makes for a delegate that does not implement the optional
    /// method (spec A9), so that the transcript can say a default answered.
    package var isDefaultAnswer = false

    /// The recurring, automatic-reload and deferred requests and multi-token contexts this update
    /// sets, in one box (absent when none is set).
    package var terms = PaymentTerms()
    /// A recurring payment request that replaces the current one; nil leaves it unchanged.
    public var recurringPaymentRequest: RecurringPaymentRequest? {
        get { terms.recurringPaymentRequest }
        set { terms.recurringPaymentRequest = newValue }
    }
    /// An automatic-reload payment request that replaces the current one; nil leaves it unchanged.
    public var automaticReloadPaymentRequest: AutomaticReloadPaymentRequest? {
        get { terms.automaticReloadPaymentRequest }
        set { terms.automaticReloadPaymentRequest = newValue }
    }
    /// A deferred payment request that replaces the current one; nil leaves it unchanged.
    public var deferredPaymentRequest: DeferredPaymentRequest? {
        get { terms.deferredPaymentRequest }
        set { terms.deferredPaymentRequest = newValue }
    }
    /// Multi-token contexts that replace the current ones; nil leaves them unchanged, an empty
    /// list removes them.
    public var multiTokenContexts: [PaymentTokenContext]? {
        get { terms.multiTokenContexts }
        set { terms.multiTokenContexts = newValue }
    }

    /// The summary items that replace the current ones; the last is the grand total.
    public var summaryItems: [SummaryItem]
    /// Always nil: a method change does not change the list of methods.
    public var shippingMethods: [ShippingMethod]? { nil }
    /// Always empty: PassKit's shipping-method update carries no errors.
    public var errors: [PaymentError] { [] }

    /// An update with new summary items; new terms are set on its members.
    public init(
        summaryItems: [SummaryItem]
    ) {
        self.summaryItems = summaryItems
    }
}

/// The answer to a payment-method change (`PKPaymentRequestPaymentMethodUpdate`), for example a
/// surcharge by card type. Its errors block authorization until another payment method is chosen.
public struct PaymentMethodUpdate: PaymentRequestUpdate {
    private enum CodingKeys: String, PaymentTermsCodingKey {
        case errors
        case summaryItems
        case recurringPaymentRequest
        case automaticReloadPaymentRequest
        case deferredPaymentRequest
        case multiTokenContexts
    }
    /// Set on the update a flow makes for a delegate that does not implement the optional
    /// method (spec A9), so that the transcript can say a default answered.
    package var isDefaultAnswer = false

    /// The recurring, automatic-reload and deferred requests and multi-token contexts this update
    /// sets, in one box (absent when none is set).
    package var terms = PaymentTerms()
    /// A recurring payment request that replaces the current one; nil leaves it unchanged.
    public var recurringPaymentRequest: RecurringPaymentRequest? {
        get { terms.recurringPaymentRequest }
        set { terms.recurringPaymentRequest = newValue }
    }
    /// An automatic-reload payment request that replaces the current one; nil leaves it unchanged.
    public var automaticReloadPaymentRequest: AutomaticReloadPaymentRequest? {
        get { terms.automaticReloadPaymentRequest }
        set { terms.automaticReloadPaymentRequest = newValue }
    }
    /// A deferred payment request that replaces the current one; nil leaves it unchanged.
    public var deferredPaymentRequest: DeferredPaymentRequest? {
        get { terms.deferredPaymentRequest }
        set { terms.deferredPaymentRequest = newValue }
    }
    /// Multi-token contexts that replace the current ones; nil leaves them unchanged, an empty
    /// list removes them.
    public var multiTokenContexts: [PaymentTokenContext]? {
        get { terms.multiTokenContexts }
        set { terms.multiTokenContexts = newValue }
    }

    /// Errors for the sheet; they block authorization until another payment method is
    /// selected.
    public var errors: [PaymentError]
    /// The summary items that replace the current ones; the last is the grand total.
    public var summaryItems: [SummaryItem]
    /// Always nil: a payment-method change does not change the list of shipping methods.
    public var shippingMethods: [ShippingMethod]? { nil }

    /// An update with new summary items and, optionally, errors; new terms are set on its members.
    public init(
        errors: [PaymentError] = [],
        summaryItems: [SummaryItem]
    ) {
        self.errors = errors
        self.summaryItems = summaryItems
    }
}

/// The answer to a coupon-code change (`PKPaymentRequestCouponCodeUpdate`). Its coupon errors
/// are shown but do not block authorization.
public struct CouponCodeUpdate: PaymentRequestUpdate {
    private enum CodingKeys: String, PaymentTermsCodingKey {
        case errors
        case summaryItems
        case shippingMethods
        case recurringPaymentRequest
        case automaticReloadPaymentRequest
        case deferredPaymentRequest
        case multiTokenContexts
    }
    /// Set on the update a flow makes for a delegate that does not implement the optional
    /// method (spec A9), so that the transcript can say a default answered.
    package var isDefaultAnswer = false

    /// The recurring, automatic-reload and deferred requests and multi-token contexts this update
    /// sets, in one box (absent when none is set).
    package var terms = PaymentTerms()
    /// A recurring payment request that replaces the current one; nil leaves it unchanged.
    public var recurringPaymentRequest: RecurringPaymentRequest? {
        get { terms.recurringPaymentRequest }
        set { terms.recurringPaymentRequest = newValue }
    }
    /// An automatic-reload payment request that replaces the current one; nil leaves it unchanged.
    public var automaticReloadPaymentRequest: AutomaticReloadPaymentRequest? {
        get { terms.automaticReloadPaymentRequest }
        set { terms.automaticReloadPaymentRequest = newValue }
    }
    /// A deferred payment request that replaces the current one; nil leaves it unchanged.
    public var deferredPaymentRequest: DeferredPaymentRequest? {
        get { terms.deferredPaymentRequest }
        set { terms.deferredPaymentRequest = newValue }
    }
    /// Multi-token contexts that replace the current ones; nil leaves them unchanged, an empty
    /// list removes them.
    public var multiTokenContexts: [PaymentTokenContext]? {
        get { terms.multiTokenContexts }
        set { terms.multiTokenContexts = newValue }
    }

    /// Errors for the sheet, such as `couponCodeInvalid` or `couponCodeExpired`; they do not
    /// block authorization.
    public var errors: [PaymentError]
    /// The summary items that replace the current ones; the last is the grand total.
    public var summaryItems: [SummaryItem]
    /// The shipping methods that replace the current ones: nil leaves them unchanged, an
    /// empty list means none is available.
    public var shippingMethods: [ShippingMethod]?

    /// An update with new summary items and, optionally, errors and a new list of shipping
    /// methods. New terms (recurring, automatic-reload or deferred requests, multi-token contexts)
    /// are set on its members, as on PassKit's update.
    public init(
        errors: [PaymentError] = [],
        summaryItems: [SummaryItem],
        shippingMethods: [ShippingMethod]? = nil
    ) {
        self.errors = errors
        self.summaryItems = summaryItems
        self.shippingMethods = shippingMethods
    }
}

// Decoding: `errors` and the terms may be absent (no errors, no change); the other keys as the
// properties say; an unknown key is refused with its path. Encoding writes every member but absent
// terms.

extension ShippingMethodUpdate {
    /// Decodes `{"summaryItems"}` and the terms; an unknown key is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "ShippingMethodUpdate")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            summaryItems: try container.decode([SummaryItem].self, forKey: .summaryItems)
        )
        terms = try container.decodeTerms()
    }
}

extension ShippingContactUpdate {
    /// Decodes `{"errors", "summaryItems", "shippingMethods"}` and the terms; `errors` and
    /// `shippingMethods` may be absent.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "ShippingContactUpdate")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            errors: try container.decodeIfPresent([PaymentError].self, forKey: .errors) ?? [],
            summaryItems: try container.decode([SummaryItem].self, forKey: .summaryItems),
            shippingMethods: try container.decodeIfPresent([ShippingMethod].self, forKey: .shippingMethods)
        )
        terms = try container.decodeTerms()
    }
}

extension PaymentMethodUpdate {
    /// Decodes `{"errors", "summaryItems"}` and the terms; `errors` may be absent.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "PaymentMethodUpdate")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            errors: try container.decodeIfPresent([PaymentError].self, forKey: .errors) ?? [],
            summaryItems: try container.decode([SummaryItem].self, forKey: .summaryItems)
        )
        terms = try container.decodeTerms()
    }
}

extension CouponCodeUpdate {
    /// Decodes `{"errors", "summaryItems", "shippingMethods"}` and the terms; `errors` and
    /// `shippingMethods` may be absent.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "CouponCodeUpdate")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            errors: try container.decodeIfPresent([PaymentError].self, forKey: .errors) ?? [],
            summaryItems: try container.decode([SummaryItem].self, forKey: .summaryItems),
            shippingMethods: try container.decodeIfPresent([ShippingMethod].self, forKey: .shippingMethods)
        )
        terms = try container.decodeTerms()
    }
}

extension ShippingContactUpdate {
    /// Encodes every member; absent shipping methods and terms are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(errors, forKey: .errors)
        try container.encode(summaryItems, forKey: .summaryItems)
        try container.encodeIfPresent(shippingMethods, forKey: .shippingMethods)
        try container.encodeTerms(terms)
    }
}

extension ShippingMethodUpdate {
    /// Encodes every member; absent shipping methods and terms are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(summaryItems, forKey: .summaryItems)
        try container.encodeTerms(terms)
    }
}

extension PaymentMethodUpdate {
    /// Encodes every member; absent shipping methods and terms are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(errors, forKey: .errors)
        try container.encode(summaryItems, forKey: .summaryItems)
        try container.encodeTerms(terms)
    }
}

extension CouponCodeUpdate {
    /// Encodes every member; absent shipping methods and terms are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(errors, forKey: .errors)
        try container.encode(summaryItems, forKey: .summaryItems)
        try container.encodeIfPresent(shippingMethods, forKey: .shippingMethods)
        try container.encodeTerms(terms)
    }
}
