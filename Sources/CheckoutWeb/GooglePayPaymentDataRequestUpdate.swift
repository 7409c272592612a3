import CheckoutCore

/// Google Pay's `PaymentDataRequestUpdate` (reference "Request objects"), what
/// `onPaymentDataChanged` resolves with: new transaction info, new shipping options, new offers,
/// an error; every member optional, an empty update changing nothing.
///
/// From the core (``init(summaryItems:currency:countryCode:shippingMethods:selectedShippingMethod:offers:error:)``):
/// summary items as ``GooglePayTransactionInfo`` says, shipping methods as
/// ``GooglePayShippingOptionParameters`` says (nil or an empty list: no `newShippingOptionParameters`,
/// the empty list's blocking error being the update's error, spec W3), the error as
/// ``GooglePayPaymentDataError`` says. To the core: ``GooglePayTransactionInfo/core()`` and
/// ``GooglePayPaymentDataError/core()``; Google's options carry no price, so they have no core
/// ``/CheckoutCore/ShippingMethod`` without the merchant's amounts.
///
/// Google's rules (``check(answering:)``) apply before anything is sent.
public struct GooglePayPaymentDataRequestUpdate: Codable, Hashable, Sendable {
    /// The new currency, total and lines.
    public var newTransactionInfo: GooglePayTransactionInfo?
    /// The new shipping options.
    public var newShippingOptionParameters: GooglePayShippingOptionParameters?
    /// The offers applied now.
    public var newOfferInfo: GooglePayOfferInfo?
    /// What is wrong, for the sheet to show.
    public var error: GooglePayPaymentDataError?

    /// An update; absent members change nothing.
    public init(
        newTransactionInfo: GooglePayTransactionInfo? = nil,
        newShippingOptionParameters: GooglePayShippingOptionParameters? = nil,
        newOfferInfo: GooglePayOfferInfo? = nil, error: GooglePayPaymentDataError? = nil
    ) {
        self.newTransactionInfo = newTransactionInfo
        self.newShippingOptionParameters = newShippingOptionParameters
        self.newOfferInfo = newOfferInfo
        self.error = error
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case newTransactionInfo, newShippingOptionParameters, newOfferInfo, error
    }

    /// Decodes the four members; an object with keys but none of them is refused (spec W2).
    public init(from decoder: any Decoder) throws {
        try decoder.refuseForeignPayload(CodingKeys.self, of: "PaymentDataRequestUpdate")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            newTransactionInfo: try container.decodeIfPresent(
                GooglePayTransactionInfo.self, forKey: .newTransactionInfo),
            newShippingOptionParameters: try container.decodeIfPresent(
                GooglePayShippingOptionParameters.self, forKey: .newShippingOptionParameters),
            newOfferInfo: try container.decodeIfPresent(GooglePayOfferInfo.self, forKey: .newOfferInfo),
            error: try container.decodeIfPresent(GooglePayPaymentDataError.self, forKey: .error))
    }

    /// An update from the core's terms (see the type's discussion); `error` is in Google's terms
    /// already, since its intent depends on the callback it answers.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path
    ///   (`newTransactionInfo.totalPrice`, `newTransactionInfo.displayItems[0].price`, ...).
    public init(
        summaryItems: [SummaryItem]?, currency: CurrencyCode, countryCode: String? = nil,
        shippingMethods: [ShippingMethod]?, selectedShippingMethod: String?, offers: [GooglePayOfferDetail]? = nil,
        error: GooglePayPaymentDataError? = nil
    ) throws {
        let info = try summaryItems.map { items in
            try inside("newTransactionInfo") {
                try GooglePayTransactionInfo(items, currency: currency, countryCode: countryCode)
            }
        }
        let options = try shippingMethods.flatMap { methods in
            methods.isEmpty
                ? nil
                : try inside("newShippingOptionParameters") {
                    try GooglePayShippingOptionParameters(methods, selected: selectedShippingMethod)
                }
        }
        self.init(
            newTransactionInfo: info, newShippingOptionParameters: options,
            newOfferInfo: offers.map(GooglePayOfferInfo.init), error: error)
    }

    /// Checks Google's rules for an answer to `onPaymentDataChanged` with `trigger`: the
    /// transaction info's and the options' (``GooglePayTransactionInfo/check()``,
    /// ``GooglePayShippingOptionParameters/check()``), the error's intent
    /// (``GooglePayPaymentDataError/check(answering:)``), and each offer's code and description
    /// present.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path and value.
    public func check(answering trigger: GooglePayCallbackTrigger) throws {
        try newTransactionInfo.map { info in try inside("newTransactionInfo") { try info.check() } }
        try newShippingOptionParameters.map { options in
            try inside("newShippingOptionParameters") { try options.check() }
        }
        for (index, offer) in (newOfferInfo?.offers ?? []).enumerated() {
            if offer.redemptionCode.isEmpty {
                throw missingMember("newOfferInfo.offers[\(index)].redemptionCode", "Google Pay requires the code")
            }
            if offer.description.isEmpty {
                throw missingMember("newOfferInfo.offers[\(index)].description", "Google Pay requires a description")
            }
        }
        try error.map { error in try inside("error") { try error.check(answering: trigger) } }
    }
}
