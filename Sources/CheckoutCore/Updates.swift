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
}

/// The answer to a shipping-contact change (`PKPaymentRequestShippingContactUpdate`).
public struct ShippingContactUpdate: PaymentRequestUpdate {
    private enum CodingKeys: String, CodingKey {
        case errors
        case summaryItems
        case shippingMethods
    }
    /// Set on the update a flow makes for a delegate that does not implement the optional
    /// method (spec A9), so that the transcript can say a default answered.
    package var isDefaultAnswer = false

    /// Errors for the sheet: `shippingContactInvalid` and `shippingAddressUnserviceable`
    /// block authorization until another contact is selected.
    public var errors: [PaymentError]
    /// The summary items that replace the current ones; the last is the grand total.
    public var summaryItems: [SummaryItem]
    /// The shipping methods that replace the current ones: nil leaves them unchanged, an
    /// empty list means none is available for this contact.
    public var shippingMethods: [ShippingMethod]?

    /// An update with new summary items and, optionally, errors and a new list of shipping
    /// methods.
    public init(errors: [PaymentError] = [], summaryItems: [SummaryItem], shippingMethods: [ShippingMethod]? = nil) {
        self.errors = errors
        self.summaryItems = summaryItems
        self.shippingMethods = shippingMethods
    }
}

/// The answer to a shipping-method change (`PKPaymentRequestShippingMethodUpdate`): new summary
/// items only.
public struct ShippingMethodUpdate: PaymentRequestUpdate {
    private enum CodingKeys: String, CodingKey {
        case summaryItems
    }
    /// Set on the update a flow makes for a delegate that does not implement the optional
    /// method (spec A9), so that the transcript can say a default answered.
    package var isDefaultAnswer = false

    /// The summary items that replace the current ones; the last is the grand total.
    public var summaryItems: [SummaryItem]
    /// Always nil: a method change does not change the list of methods.
    public var shippingMethods: [ShippingMethod]? { nil }
    /// Always empty: PassKit's shipping-method update carries no errors.
    public var errors: [PaymentError] { [] }

    /// An update with new summary items.
    public init(summaryItems: [SummaryItem]) {
        self.summaryItems = summaryItems
    }
}

/// The answer to a payment-method change (`PKPaymentRequestPaymentMethodUpdate`), for example a
/// surcharge by card type. Its errors block authorization until another payment method is chosen.
public struct PaymentMethodUpdate: PaymentRequestUpdate {
    private enum CodingKeys: String, CodingKey {
        case errors
        case summaryItems
    }
    /// Set on the update a flow makes for a delegate that does not implement the optional
    /// method (spec A9), so that the transcript can say a default answered.
    package var isDefaultAnswer = false

    /// Errors for the sheet; they block authorization until another payment method is
    /// selected.
    public var errors: [PaymentError]
    /// The summary items that replace the current ones; the last is the grand total.
    public var summaryItems: [SummaryItem]
    /// Always nil: a payment-method change does not change the list of shipping methods.
    public var shippingMethods: [ShippingMethod]? { nil }

    /// An update with new summary items and, optionally, errors.
    public init(errors: [PaymentError] = [], summaryItems: [SummaryItem]) {
        self.errors = errors
        self.summaryItems = summaryItems
    }
}

/// The answer to a coupon-code change (`PKPaymentRequestCouponCodeUpdate`). Its coupon errors
/// are shown but do not block authorization.
public struct CouponCodeUpdate: PaymentRequestUpdate {
    private enum CodingKeys: String, CodingKey {
        case errors
        case summaryItems
        case shippingMethods
    }
    /// Set on the update a flow makes for a delegate that does not implement the optional
    /// method (spec A9), so that the transcript can say a default answered.
    package var isDefaultAnswer = false

    /// Errors for the sheet, such as `couponCodeInvalid` or `couponCodeExpired`; they do not
    /// block authorization.
    public var errors: [PaymentError]
    /// The summary items that replace the current ones; the last is the grand total.
    public var summaryItems: [SummaryItem]
    /// The shipping methods that replace the current ones: nil leaves them unchanged, an
    /// empty list means none is available.
    public var shippingMethods: [ShippingMethod]?

    /// An update with new summary items and, optionally, errors and a new list of shipping
    /// methods.
    public init(errors: [PaymentError] = [], summaryItems: [SummaryItem], shippingMethods: [ShippingMethod]? = nil) {
        self.errors = errors
        self.summaryItems = summaryItems
        self.shippingMethods = shippingMethods
    }
}

// Decoding: `errors` may be absent (no errors); the other keys as the properties say; an unknown
// key is refused with its path.

extension ShippingMethodUpdate {
    /// Decodes `{"summaryItems"}`; an unknown key is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "ShippingMethodUpdate")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(summaryItems: try container.decode([SummaryItem].self, forKey: .summaryItems))
    }
}

extension ShippingContactUpdate {
    /// Decodes `{"errors", "summaryItems", "shippingMethods"}`; `errors` and
    /// `shippingMethods` may be absent.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "ShippingContactUpdate")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            errors: try container.decodeIfPresent([PaymentError].self, forKey: .errors) ?? [],
            summaryItems: try container.decode([SummaryItem].self, forKey: .summaryItems),
            shippingMethods: try container.decodeIfPresent([ShippingMethod].self, forKey: .shippingMethods)
        )
    }
}

extension PaymentMethodUpdate {
    /// Decodes `{"errors", "summaryItems"}`; `errors` may be absent.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "PaymentMethodUpdate")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            errors: try container.decodeIfPresent([PaymentError].self, forKey: .errors) ?? [],
            summaryItems: try container.decode([SummaryItem].self, forKey: .summaryItems)
        )
    }
}

extension CouponCodeUpdate {
    /// Decodes `{"errors", "summaryItems", "shippingMethods"}`; `errors` and
    /// `shippingMethods` may be absent.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "CouponCodeUpdate")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            errors: try container.decodeIfPresent([PaymentError].self, forKey: .errors) ?? [],
            summaryItems: try container.decode([SummaryItem].self, forKey: .summaryItems),
            shippingMethods: try container.decodeIfPresent([ShippingMethod].self, forKey: .shippingMethods)
        )
    }
}
