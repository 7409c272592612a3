import CheckoutCore

/// A shipping rate of the Express Checkout Element: `{id, amount, displayName, deliveryEstimate}`
/// (stripe-js `ShippingRate`; source: docs.stripe.com/js/elements_object/express_checkout_element_click_event,
/// `resolve`'s `shippingRates`, and the `shippingratechange` event's `shippingRate`). The first
/// rate of a list is the one the payment interface selects.
///
/// `id` ↔ ``/CheckoutCore/ShippingMethod/identifier``, `displayName` ↔
/// ``/CheckoutCore/ShippingMethod/label``, `amount` ↔ ``/CheckoutCore/ShippingMethod/amount``
/// through ``/CheckoutCore/Money``. The core's `detail` is written as a text estimate, or, without
/// one, its delivery days as `"YYYY-MM-DD – YYYY-MM-DD"`; an estimate read from the element
/// becomes the core's `detail` (``ExpressCheckoutDeliveryEstimate/description``).
public struct ExpressCheckoutShippingRate: Codable, Hashable, Sendable {
    /// Identifies the rate; unique in a list.
    public var id: String
    /// The cost in the currency's smallest unit as Stripe counts it; not negative.
    public var amount: Int64
    /// What the payment interface shows.
    public var displayName: String
    /// When it delivers.
    public var deliveryEstimate: ExpressCheckoutDeliveryEstimate?

    /// A rate.
    public init(
        id: String, amount: Int64, displayName: String, deliveryEstimate: ExpressCheckoutDeliveryEstimate? = nil
    ) {
        self.id = id
        self.amount = amount
        self.displayName = displayName
        self.deliveryEstimate = deliveryEstimate
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case id, amount, displayName, deliveryEstimate }

    /// Reads the members; an amount that is not an integer is refused with its path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        amount = try container.decodeExpressCheckoutAmount(forKey: .amount)
        displayName = try container.decode(String.self, forKey: .displayName)
        deliveryEstimate = try container.decodeIfPresent(
            ExpressCheckoutDeliveryEstimate.self, forKey: .deliveryEstimate)
    }

    /// The core shipping method in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `amount` when it has no exact value in
    ///   `currency`.
    public func core(currency: CurrencyCode) throws -> ShippingMethod {
        ShippingMethod(
            identifier: id, label: displayName, detail: deliveryEstimate?.description,
            amount: try ExpressCheckoutAmount.money(amount, currency: currency, path: "amount"))
    }

    /// The core method as a rate.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `amount` when Stripe's digits cannot carry
    ///   it.
    public init(_ core: ShippingMethod) throws {
        let estimate =
            core.detail.map(ExpressCheckoutDeliveryEstimate.text)
            ?? core.deliveryDateRange.map { .text("\($0.start) – \($0.end)") }
        self.init(
            id: core.identifier, amount: try ExpressCheckoutAmount.integer(core.amount, path: "amount"),
            displayName: core.label, deliveryEstimate: estimate)
    }
}

/// A rate's delivery estimate: a text, or a range of `{unit, value}` bounds (stripe-js
/// `ShippingRate.deliveryEstimate`: `string | {maximum?, minimum?}`).
public enum ExpressCheckoutDeliveryEstimate: Codable, Hashable, Sendable, CustomStringConvertible {
    /// A text the payment interface shows as it is.
    case text(String)
    /// At least `minimum`, at most `maximum`.
    case range(minimum: ExpressCheckoutDeliveryBound?, maximum: ExpressCheckoutDeliveryBound?)

    private enum CodingKeys: String, CodingKey, CaseIterable { case minimum, maximum }

    /// Reads a string, or an object with `minimum` and `maximum`.
    ///
    /// - Throws: `DecodingError` for another value, or an object with neither member (W2).
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            self = .text(text)
            return
        }
        try decoder.refuseForeignPayload(CodingKeys.self, of: "deliveryEstimate")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let minimum = try container.decodeIfPresent(ExpressCheckoutDeliveryBound.self, forKey: .minimum)
        let maximum = try container.decodeIfPresent(ExpressCheckoutDeliveryBound.self, forKey: .maximum)
        self = .range(minimum: minimum, maximum: maximum)
    }

    /// Writes the string, or the object.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .text(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .range(let minimum, let maximum):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(minimum, forKey: .minimum)
            try container.encodeIfPresent(maximum, forKey: .maximum)
        }
    }

    /// The text, or the range as `"2 business_day – 5 business_day"` (`"at least …"`, `"at most
    /// …"` with one bound).
    public var description: String {
        switch self {
        case .text(let text): text
        case .range(let minimum?, let maximum?): "\(minimum) – \(maximum)"
        case .range(let minimum?, nil): "at least \(minimum)"
        case .range(nil, let maximum?): "at most \(maximum)"
        case .range(nil, nil): ""
        }
    }
}

/// One bound of a delivery estimate: `{unit, value}` (stripe-js `DeliveryEstimate`).
public struct ExpressCheckoutDeliveryBound: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The unit Stripe documents: `hour`, `day`, `business_day`, `week`, `month`.
    public enum Unit: String, Codable, Hashable, Sendable, CaseIterable {
        case hour, day, week, month
        case businessDay = "business_day"
    }

    /// The unit.
    public var unit: Unit
    /// How many units.
    public var value: Int

    /// A bound.
    public init(unit: Unit, value: Int) {
        self.unit = unit
        self.value = value
    }

    /// `"3 business_day"`.
    public var description: String { "\(value) \(unit.rawValue)" }
}
