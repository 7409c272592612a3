import CheckoutCore
import Foundation

/// The W3C Payment Request `PaymentDetailsUpdate`, what the page passes to an event's
/// `updateWith(…)` (`shippingaddresschange`, `shippingoptionchange`, `paymentmethodchange`),
/// with the `PaymentDetailsBase` members and the shipping members browsers still implement.
/// Every member is optional; an object with keys and none of these is refused (spec W2).
///
/// Summary items, both ways: `displayItems` followed by `total` are the core's summary items
/// (the grand total is the last); a core update with no items is refused, and so is a W3C
/// update without `total` converted to the core (the core update needs its total).
///
/// Shipping options, both ways: absent ↔ nil (unchanged); `[]` ↔ `[]`, none available, as in the
/// flow (spec W3); the option whose `id` is the selected identifier is `selected: true`.
///
/// Errors from the core (``init(_:selectedShippingOptionID:)`` and the other initializers):
/// - `shippingContactInvalid` with field `street`, `subLocality`, `city`, `state`, `postalCode`,
///   `sortingCode`, `country`, `organizationName`, `name`, `phoneNumber` →
///   `shippingAddressErrors.addressLine`, `.dependentLocality`, `.city`, `.region`, `.postalCode`,
///   `.sortingCode`, `.country`, `.organization`, `.recipient`, `.phone`; with field
///   `subAdministrativeArea` (the W3C has no such member) → `.region`; with field `emailAddress` →
///   `payerErrors.email`;
/// - `shippingAddressUnserviceable`, and every other error (no field, `postalAddress`,
///   billing, coupon, unknown) → `error`;
/// - several messages for one member are joined by a line feed.
///
/// Errors to the core (``shippingContactUpdate()``): each `shippingAddressErrors` member →
/// `shippingContactInvalid` with `addressLine` → `street`, `city` → `city`, `region` → `state`,
/// `postalCode` → `postalCode`, `country` → `country`, `recipient` → `name`, `phone` →
/// `phoneNumber`, `dependentLocality` → `subLocality`, `sortingCode` → `sortingCode`,
/// `organization` → `organizationName`; each `payerErrors` member →
/// `shippingContactInvalid` (`email` → `emailAddress`, `name` → `name`, `phone` →
/// `phoneNumber`); `error`, even `""`, → `shippingAddressUnserviceable` when `shippingOptions`
/// is absent or empty (on a shipping-address change the W3C text defines it as why the goods
/// cannot be shipped there); with shipping options the browser ignores it, and so does the
/// conversion, as a deliverable address must not be blocked. For a payment-method change `error`
/// is an `unknown` error. Apple Pay's errors in `paymentMethodErrors`
/// (``applePayPaymentMethodErrors()``) are added as ``ApplePayError`` maps them. `modifiers`, and
/// `paymentMethodErrors` of another shape, have no core counterpart
/// (``membersWithoutCoreCounterpart``). ``validate()`` checks the update as the browser does.
public struct PaymentDetailsUpdate: Codable, Hashable, Sendable {
    /// The new total.
    public var total: PaymentItem?
    /// The new display items.
    public var displayItems: [PaymentItem]?
    /// The new shipping options: absent is unchanged, `[]` none available.
    public var shippingOptions: [PaymentShippingOption]?
    /// Method-specific modifiers, kept as they are.
    public var modifiers: [PaymentDetailsModifier]?
    /// A message for the payer; on a shipping-address change, why the goods cannot be shipped.
    public var error: String?
    /// Messages for fields of the shipping address.
    public var shippingAddressErrors: AddressErrors?
    /// Messages for the payer's fields.
    public var payerErrors: PayerErrors?
    /// Method-specific errors, kept as they are.
    public var paymentMethodErrors: JSONValue?

    /// An update, every member optional.
    public init(
        total: PaymentItem? = nil,
        displayItems: [PaymentItem]? = nil,
        shippingOptions: [PaymentShippingOption]? = nil,
        modifiers: [PaymentDetailsModifier]? = nil,
        error: String? = nil,
        shippingAddressErrors: AddressErrors? = nil,
        payerErrors: PayerErrors? = nil,
        paymentMethodErrors: JSONValue? = nil
    ) {
        self.total = total
        self.displayItems = displayItems
        self.shippingOptions = shippingOptions
        self.modifiers = modifiers
        self.error = error
        self.shippingAddressErrors = shippingAddressErrors
        self.payerErrors = payerErrors
        self.paymentMethodErrors = paymentMethodErrors
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case total, displayItems, shippingOptions, modifiers, error, shippingAddressErrors, payerErrors
        case paymentMethodErrors
    }

    /// Decodes every member; an object with keys and none of them is refused.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "PaymentDetailsUpdate")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            total: try container.decodeIfPresent(PaymentItem.self, forKey: .total),
            displayItems: try container.decodeIfPresent([PaymentItem].self, forKey: .displayItems),
            shippingOptions: try container.decodeIfPresent([PaymentShippingOption].self, forKey: .shippingOptions),
            modifiers: try container.decodeIfPresent([PaymentDetailsModifier].self, forKey: .modifiers),
            error: try container.decodeIfPresent(String.self, forKey: .error),
            shippingAddressErrors: try container.decodeIfPresent(AddressErrors.self, forKey: .shippingAddressErrors),
            payerErrors: try container.decodeIfPresent(PayerErrors.self, forKey: .payerErrors),
            paymentMethodErrors: try container.decodeIfPresent(JSONValue.self, forKey: .paymentMethodErrors)
        )
    }

    // MARK: From the core

    /// The answer to a `shippingaddresschange` (see the type's discussion). The option whose
    /// identifier is `selectedShippingOptionID` is marked selected; with no such option, the
    /// first is (the flow selects the first when the selection is gone, spec A2).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `summaryItems` when there are none.
    public init(_ core: ShippingContactUpdate, selectedShippingOptionID: String? = nil) throws {
        try self.init(summaryItems: core.summaryItems, errors: core.errors)
        shippingOptions = core.shippingMethods.map { methods in
            let selected =
                methods.contains { $0.identifier == selectedShippingOptionID }
                ? selectedShippingOptionID : methods.first?.identifier
            return methods.map { PaymentShippingOption($0, selected: $0.identifier == selected) }
        }
    }

    /// The answer to a `shippingoptionchange`: the new total and display items.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `summaryItems` when there are none.
    public init(_ core: ShippingMethodUpdate) throws {
        try self.init(summaryItems: core.summaryItems, errors: [])
    }

    /// The answer to a `paymentmethodchange`: the new total, display items and, in `error`,
    /// the errors' messages.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `summaryItems` when there are none.
    public init(_ core: PaymentMethodUpdate) throws {
        try self.init(summaryItems: core.summaryItems, errors: core.errors)
    }

    private init(summaryItems: [SummaryItem], errors: [PaymentError]) throws {
        guard let last = summaryItems.last else {
            throw CheckoutError(
                code: .emptyList,
                message: "summaryItems is empty: a PaymentDetailsUpdate needs its total, the last summary item",
                field: "summaryItems"
            )
        }
        self.init(total: PaymentItem(last), displayItems: summaryItems.dropLast().map(PaymentItem.init))
        var address = AddressErrors()
        var payer = PayerErrors()
        var general: String?
        for error in errors {
            guard error.code == .shippingContactInvalid, let field = error.field else {
                append(error.message, to: &general)
                continue
            }
            if address.append(error.message, forAddressField: field) { continue }
            switch field {
            case .name: append(error.message, to: &address.recipient)
            case .phoneNumber: append(error.message, to: &address.phone)
            case .emailAddress: append(error.message, to: &payer.email)
            default: append(error.message, to: &general)
            }
        }
        self.error = general
        shippingAddressErrors = address.isEmpty ? nil : address
        payerErrors = payer.isEmpty ? nil : payer
    }

    // MARK: To the core

    /// The update as the answer to a shipping-contact change (see the type's discussion).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `total` when it is absent, or the amount's path
    ///   (`total.amount.value`, `displayItems[0].amount.currency`, `shippingOptions[1].amount.value`).
    public func shippingContactUpdate() throws -> ShippingContactUpdate {
        var errors: [PaymentError] = []
        if let address = shippingAddressErrors {
            let members: [(String?, PaymentErrorField)] = [
                (address.addressLine, .street), (address.city, .city), (address.dependentLocality, .subLocality),
                (address.region, .state), (address.postalCode, .postalCode), (address.sortingCode, .sortingCode),
                (address.country, .country), (address.recipient, .name), (address.phone, .phoneNumber),
                (address.organization, .organizationName),
            ]
            errors += members.compactMap { message, field in message.map { .shippingContactInvalid(field, $0) } }
        }
        if let payer = payerErrors {
            let members: [(String?, PaymentErrorField)] = [
                (payer.name, .name), (payer.email, .emailAddress), (payer.phone, .phoneNumber),
            ]
            errors += members.compactMap { message, field in message.map { .shippingContactInvalid(field, $0) } }
        }
        if let error, shippingOptions?.isEmpty ?? true {
            errors.append(.shippingAddressUnserviceable(error))
        }
        errors += try applePayPaymentMethodErrors()?.core() ?? []
        return ShippingContactUpdate(
            errors: errors,
            summaryItems: try coreSummaryItems(),
            shippingMethods: try shippingOptions.map { options in
                try options.enumerated().map { index, option in
                    try inside("shippingOptions[\(index)]") { try option.core() }
                }
            }
        )
    }

    /// The update as the answer to a shipping-method change: the summary items. The core update
    /// has no errors and no shipping methods: an `error`, `shippingAddressErrors` or `payerErrors`
    /// is refused; `shippingOptions`, which pages resend to mark the selection, is not carried.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `total` when it is absent, the amount's path, or the
    ///   error member that the core update cannot carry.
    public func shippingMethodUpdate() throws -> ShippingMethodUpdate {
        try refuseErrors(except: [])
        return ShippingMethodUpdate(summaryItems: try coreSummaryItems())
    }

    /// The update as the answer to a payment-method change: the summary items, and `error` as
    /// an `unknown` error. Shipping options and address or payer errors are refused: the core
    /// update has no place for them.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `total` when it is absent, the amount's path, or the
    ///   member that the core update cannot carry.
    public func paymentMethodUpdate() throws -> PaymentMethodUpdate {
        try refuseErrors(except: ["error"])
        if shippingOptions != nil {
            throw CheckoutError(
                code: .invalidField,
                message: "shippingOptions cannot be carried: a core PaymentMethodUpdate has no shipping methods",
                field: "shippingOptions"
            )
        }
        let errors =
            (error.map { [PaymentError(code: .unknown, message: $0)] } ?? [])
            + (try applePayPaymentMethodErrors()?.core() ?? [])
        return PaymentMethodUpdate(errors: errors, summaryItems: try coreSummaryItems())
    }

    /// The members present that the core updates have no place for: `modifiers`, and
    /// `paymentMethodErrors` unless they are Apple Pay's errors (an array, see
    /// ``applePayPaymentMethodErrors()``).
    public var membersWithoutCoreCounterpart: [String] {
        var opaqueErrors = paymentMethodErrors
        if case .array? = paymentMethodErrors { opaqueErrors = nil }
        return presentExtensionMembers([
            ("modifiers", modifiers.map { _ in .null }), ("paymentMethodErrors", opaqueErrors),
        ])
    }

    /// `paymentMethodErrors` as Apple Pay's errors: WebKit reads the member of an Apple Pay
    /// request's update as a sequence of `ApplePayError` (`ApplePayPaymentHandler.cpp`). nil when
    /// the member is absent or is not an array (another payment method's errors, kept opaque).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `paymentMethodErrors[i]` for an element that
    ///   is not an `ApplePayError`.
    public func applePayPaymentMethodErrors() throws -> [ApplePayError]? {
        guard case .array(let elements)? = paymentMethodErrors else { return nil }
        return try elements.enumerated().map { index, element in
            do {
                return try JSONDecoder().decode(ApplePayError.self, from: Data(element.jsonText.utf8))
            } catch {
                throw unmappable("paymentMethodErrors[\(index)]", element.jsonText, "is not an ApplePayError")
            }
        }
    }

    private func coreSummaryItems() throws -> [SummaryItem] {
        guard let total else {
            throw missingMember("total", "the core update needs its total, the last summary item")
        }
        let items = try (displayItems ?? []).enumerated().map { index, item in
            try inside("displayItems[\(index)]") { try item.core() }
        }
        return items + [try inside("total") { try total.core() }]
    }

    private func refuseErrors(except allowed: Set<String>) throws {
        let present: [(String, Bool)] = [
            ("error", error != nil),
            ("shippingAddressErrors", shippingAddressErrors.map { !$0.isEmpty } ?? false),
            ("payerErrors", payerErrors.map { !$0.isEmpty } ?? false),
        ]
        if let (name, _) = present.first(where: { $0.1 && !allowed.contains($0.0) }) {
            throw CheckoutError(
                code: .invalidField,
                message: "\(name) cannot be carried: the core update has no errors of this kind",
                field: name
            )
        }
    }
}
