import CheckoutCore

/// Google Pay's `SelectionOption` (reference "Request objects"): a shipping option as the sheet
/// lists it, without a price (the price of the selected one is a display item of the total).
public struct GooglePaySelectionOption: Codable, Hashable, Sendable {
    /// The option's id, unique among the options.
    public var id: String
    /// The option's name.
    public var label: String
    /// A line under the name.
    public var description: String?

    /// An option.
    public init(id: String, label: String, description: String? = nil) {
        self.id = id
        self.label = label
        self.description = description
    }
}

/// Google Pay's `ShippingOptionParameters` (reference "Request objects"): the shipping options and
/// the one selected.
///
/// From the core (``init(_:selected:)``): each ``/CheckoutCore/ShippingMethod`` as an option with
/// `id` its identifier, `label` and `description` its detail; its amount and delivery dates have no
/// place on Google's option (the sheet shows the selected option's cost only as a display item
/// the merchant's summary items carry). `defaultSelectedOptionId` is the selected method when it
/// is among them, else the first.
///
/// Google's rules (``check()``): at least one option; ids unique (the package is stricter here,
/// as E7 is for Apple Pay's identifiers); `defaultSelectedOptionId` the id of one of them.
public struct GooglePayShippingOptionParameters: Codable, Hashable, Sendable {
    /// The options.
    public var shippingOptions: [GooglePaySelectionOption]
    /// The id of the option selected.
    public var defaultSelectedOptionId: String?

    /// Parameters with these options.
    public init(shippingOptions: [GooglePaySelectionOption], defaultSelectedOptionId: String? = nil) {
        self.shippingOptions = shippingOptions
        self.defaultSelectedOptionId = defaultSelectedOptionId
    }

    /// The core methods as Google's options (see the type's discussion).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `shippingOptions` when there is none: Google
    ///   shows no empty list (the flow's "none available" goes out as the update's error, spec W3).
    public init(_ methods: [ShippingMethod], selected: String?) throws {
        guard let first = methods.first else {
            throw CheckoutError(
                code: .emptyList, message: "shippingOptions is empty: Google Pay's sheet shows no empty list",
                field: "shippingOptions")
        }
        let id = methods.contains { $0.identifier == selected } ? selected : first.identifier
        self.init(
            shippingOptions: methods.map {
                GooglePaySelectionOption(id: $0.identifier, label: $0.label, description: $0.detail)
            },
            defaultSelectedOptionId: id)
    }

    /// Checks Google's rules (see the type's discussion).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `shippingOptions`, `shippingOptions[i].id` or
    ///   `defaultSelectedOptionId` with its value.
    public func check() throws {
        guard !shippingOptions.isEmpty else {
            throw CheckoutError(
                code: .emptyList, message: "shippingOptions is empty: Google Pay's sheet shows no empty list",
                field: "shippingOptions")
        }
        var seen: Set<String> = []
        for (index, option) in shippingOptions.enumerated() where !seen.insert(option.id).inserted {
            throw CheckoutError(
                code: .duplicateIdentifier,
                message: "shippingOptions[\(index)].id \(option.id.debugDescription) is "
                    + "the id of an earlier option", field: "shippingOptions[\(index)].id", value: option.id)
        }
        if let id = defaultSelectedOptionId, !seen.contains(id) {
            throw unmappable("defaultSelectedOptionId", id, "is the id of none of the shippingOptions")
        }
    }
}

/// Google Pay's `OfferDetail` (reference "Request objects"): a redemption code the sheet shows as
/// applied, with its description.
public struct GooglePayOfferDetail: Codable, Hashable, Sendable {
    /// The code.
    public var redemptionCode: String
    /// What it gives.
    public var description: String

    /// An offer.
    public init(redemptionCode: String, description: String) {
        self.redemptionCode = redemptionCode
        self.description = description
    }
}

/// Google Pay's `OfferInfo` (reference "Request objects"): the offers applied.
public struct GooglePayOfferInfo: Codable, Hashable, Sendable {
    /// The offers, in the order the codes were entered.
    public var offers: [GooglePayOfferDetail]

    /// Offer info.
    public init(offers: [GooglePayOfferDetail]) { self.offers = offers }
}
