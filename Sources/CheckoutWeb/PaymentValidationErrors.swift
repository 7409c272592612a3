import CheckoutCore

/// The W3C Payment Request `PaymentValidationErrors`: what the page passes to
/// `response.retry(…)` when the merchant cannot accept the response as it is (spec W7). Every
/// member is optional; an object with keys and none of these is refused (spec W2).
///
/// From the core errors (``init(_:)``), one error at a time:
/// - a contact error (`shippingContactInvalid` or `billingContactInvalid`) with field `name`,
///   `emailAddress` or `phoneNumber` → `payer.name`, `payer.email`, `payer.phone`: the W3C
///   response's contact fields are the payer's;
/// - `shippingContactInvalid` with field `street`, `subLocality`, `city`, `state`, `postalCode`,
///   `sortingCode`, `country`, `organizationName` → `shippingAddress.addressLine`,
///   `.dependentLocality`, `.city`, `.region`, `.postalCode`, `.sortingCode`, `.country`,
///   `.organization`; with field `subAdministrativeArea` (the W3C has no such member) → `.region`;
/// - every other error (no field, `postalAddress`, a billing address field,
///   `shippingAddressUnserviceable`, coupon, unknown) → `error`;
/// - several messages for one member are joined by a line feed.
///
/// `paymentMethod` is never filled from the core (its errors have no method-specific form); it is
/// read and written as it is.
public struct PaymentValidationErrors: Codable, Hashable, Sendable {
    /// A message for the payer about the payment as a whole.
    public var error: String?
    /// Messages for the payer's name, email and phone.
    public var payer: PayerErrors?
    /// Messages for fields of the shipping address.
    public var shippingAddress: AddressErrors?
    /// Method-specific errors, kept as they are.
    public var paymentMethod: JSONValue?

    /// Errors, every one optional.
    public init(
        error: String? = nil, payer: PayerErrors? = nil, shippingAddress: AddressErrors? = nil,
        paymentMethod: JSONValue? = nil
    ) {
        self.error = error
        self.payer = payer
        self.shippingAddress = shippingAddress
        self.paymentMethod = paymentMethod
    }

    /// The core errors in the W3C members (see the type's discussion).
    public init(_ errors: [PaymentError]) {
        var address = AddressErrors()
        var payer = PayerErrors()
        var general: String?
        for error in errors {
            let isContact = error.code == .shippingContactInvalid || error.code == .billingContactInvalid
            let isShipping = error.code == .shippingContactInvalid
            if isShipping, let field = error.field, address.append(error.message, forAddressField: field) {
                continue
            }
            switch (isContact, error.field) {
            case (true, .name?): append(error.message, to: &payer.name)
            case (true, .emailAddress?): append(error.message, to: &payer.email)
            case (true, .phoneNumber?): append(error.message, to: &payer.phone)
            default: append(error.message, to: &general)
            }
        }
        self.init(
            error: general, payer: payer.isEmpty ? nil : payer, shippingAddress: address.isEmpty ? nil : address)
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case error, payer, shippingAddress, paymentMethod
    }

    /// Decodes every member; an object with keys and none of them is refused.
    ///
    /// - Throws: `DecodingError` naming the member that cannot be read.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "PaymentValidationErrors")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            error: try container.decodeIfPresent(String.self, forKey: .error),
            payer: try container.decodeIfPresent(PayerErrors.self, forKey: .payer),
            shippingAddress: try container.decodeIfPresent(AddressErrors.self, forKey: .shippingAddress),
            paymentMethod: try container.decodeIfPresent(JSONValue.self, forKey: .paymentMethod)
        )
    }

    /// Whether no member is set: nothing for the payer to fix.
    public var isEmpty: Bool {
        error == nil && (payer?.isEmpty ?? true) && (shippingAddress?.isEmpty ?? true) && paymentMethod == nil
    }
}
