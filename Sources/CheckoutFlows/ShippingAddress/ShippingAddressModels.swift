import CheckoutCore

/// How a shipping-address flow is set up (the configuration of Stripe's
/// `STPShippingAddressViewController`).
public struct ShippingAddressConfiguration: Hashable, Sendable, Codable {
    /// The contact fields the customer must fill in; not empty.
    public var requiredShippingAddressFields: Set<ContactField>
    /// `shipping` asks the merchant for shipping methods; `delivery` finishes as soon as an address
    /// is entered (spec S2).
    public var shippingType: ShippingType
    /// An address to start from, if any.
    public var prefilledAddress: Contact?
    /// The method the customer chose last time, selected again when the merchant offers it.
    public var selectedShippingMethod: ShippingMethod?
    /// When set, every shipping method the merchant offers must be in this currency.
    public var currency: CurrencyCode?

    /// A configuration; by default it requires a postal address and asks the merchant for
    /// shipping methods. It is checked when a flow is created (see ``problems``).
    public init(
        requiredShippingAddressFields: Set<ContactField> = [.postalAddress],
        shippingType: ShippingType = .shipping,
        prefilledAddress: Contact? = nil,
        selectedShippingMethod: ShippingMethod? = nil,
        currency: CurrencyCode? = nil
    ) {
        self.requiredShippingAddressFields = requiredShippingAddressFields
        self.shippingType = shippingType
        self.prefilledAddress = prefilledAddress
        self.selectedShippingMethod = selectedShippingMethod
        self.currency = currency
    }

    /// Every reason this configuration cannot run: no required field, or a shipping type other
    /// than `shipping` and `delivery`.
    public var problems: [CheckoutError] {
        var problems: [CheckoutError] = []
        if requiredShippingAddressFields.isEmpty {
            problems.append(
                CheckoutError(
                    code: .emptyList,
                    message: "requiredShippingAddressFields must not be empty",
                    field: "requiredShippingAddressFields"
                )
            )
        }
        if shippingType != .shipping, shippingType != .delivery {
            problems.append(
                CheckoutError(
                    code: .invalidField,
                    message:
                        "the shipping-address flow supports shippingType shipping or delivery, not \(shippingType)",
                    field: "shippingType",
                    value: shippingType.rawValue
                )
            )
        }
        return problems
    }
}

/// The merchant's answer to an entered address (Stripe's `STPShippingMethodsCompletionBlock`:
/// status, error, shipping methods, selected method).
public enum ShippingAddressValidation: Hashable, Sendable, CustomStringConvertible {
    /// The address is serviceable. With no methods (nil or empty) the flow finishes at once;
    /// otherwise the customer picks one, starting from `selected` when it is in the list.
    case valid(shippingMethods: [ShippingMethod]?, selected: ShippingMethod?)
    /// The address is not acceptable; the customer stays on the address step and sees `message`
    /// (or "Invalid Shipping Address").
    case invalid(message: String?)

    /// Valid, with no shipping method to choose.
    public static let valid = ShippingAddressValidation.valid(shippingMethods: nil, selected: nil)

    /// Invalid, with an error whose description is shown.
    public static func invalid(_ error: (any Error)?) -> ShippingAddressValidation {
        .invalid(message: error.map { String(describing: $0) })
    }

    /// `valid(methods: [ground, express], selected: express)` or `invalid(message)`.
    public var description: String {
        switch self {
        case .valid(let methods, let selected):
            "valid(methods: [\((methods ?? []).map(\.identifier).joined(separator: ", "))]"
                + (selected.map { ", selected: \($0.identifier)" } ?? "") + ")"
        case .invalid(let message):
            "invalid(\(message ?? ShippingAddressStateMachine.defaultInvalidMessage))"
        }
    }
}

/// How a shipping-address flow ended.
public enum ShippingAddressOutcome: Hashable, Sendable, CustomStringConvertible {
    /// The customer finished with this address and method (nil when there was none to choose).
    case finished(address: Contact, shippingMethod: ShippingMethod?)
    /// The customer cancelled.
    case cancelled

    /// `finished(method: express)` or `cancelled`; the address is not shown.
    public var description: String {
        switch self {
        case .finished(_, let method): "finished(method: \(method?.identifier ?? "none"))"
        case .cancelled: "cancelled"
        }
    }
}

/// The steps of the shipping-address flow, for the driver.
public enum ShippingAddressStep: Hashable, Sendable {
    /// The flow has not been presented yet.
    case notPresented
    /// Entering an address; `error` is what the last answer or timeout said.
    case address(error: String?)
    /// Waiting for the merchant to validate the entered address.
    case validatingAddress
    /// Choosing among the merchant's shipping methods.
    case shippingMethod(methods: [ShippingMethod], selected: ShippingMethod)
    /// The flow has ended with this outcome.
    case ended(ShippingAddressOutcome)
}

extension ShippingAddressConfiguration {
    private enum CodingKeys: String, CodingKey {
        case requiredShippingAddressFields, shippingType, prefilledAddress, selectedShippingMethod, currency
    }

    /// Decodes the property names; `prefilledAddress`, `selectedShippingMethod` and `currency` may
    /// be absent, an unknown key is refused with its path (spec W2).
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "ShippingAddressConfiguration")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            requiredShippingAddressFields: try container.decode(
                Set<ContactField>.self, forKey: .requiredShippingAddressFields),
            shippingType: try container.decode(ShippingType.self, forKey: .shippingType),
            prefilledAddress: try container.decodeIfPresent(Contact.self, forKey: .prefilledAddress),
            selectedShippingMethod: try container.decodeIfPresent(ShippingMethod.self, forKey: .selectedShippingMethod),
            currency: try container.decodeIfPresent(CurrencyCode.self, forKey: .currency)
        )
    }
}

extension ShippingAddressValidation: TranscriptModel {
    /// `{"status": "valid", "shippingMethods": [...], "selected": {...}}` or
    /// `{"status": "invalid", "message": "..."}`, the methods in CheckoutCore's JSON (spec E8).
    package var transcriptJSON: String? {
        struct Shape: Encodable {
            var status: String
            var shippingMethods: [ShippingMethod]?
            var selected: ShippingMethod?
            var message: String?
        }
        return switch self {
        case .valid(let methods, let selected):
            TranscriptValue.modelJSON(Shape(status: "valid", shippingMethods: methods, selected: selected))
        case .invalid(let message):
            TranscriptValue.modelJSON(Shape(status: "invalid", message: message))
        }
    }
}
