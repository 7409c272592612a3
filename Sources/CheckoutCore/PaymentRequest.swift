/// What the merchant asks the customer to pay for (PassKit's `PKPaymentRequest`), with every
/// field the authorization and pay-context flows use.
///
/// Like `PKPaymentRequest` it is a plain mutable value; ``problems`` (or ``validate()``) says
/// whether it can be presented, listing every problem of spec A1 at once, each with its field
/// path and the offending value.
///
/// JSON keys are the property names; absent keys decode as the initializer's defaults: absent
/// `supportedNetworks` as Visa, Mastercard and Amex, absent `merchantCapabilities` as 3-D Secure,
/// other absent lists and sets as empty, an absent `shippingType` as `shipping`, an absent
/// `supportsCouponCode` as `false`.
public struct PaymentRequest: Hashable, Sendable {
    /// The Apple Pay merchant identifier, such as `merchant.com.example`.
    public var merchantIdentifier: String {
        get { storage.value.merchantIdentifier }
        _modify { yield &storage.value.merchantIdentifier }
    }
    /// The merchant's ISO 3166-1 alpha-2 country (case-insensitive; ``country`` is canonical).
    public var countryCode: String {
        get { storage.value.countryCode }
        _modify { yield &storage.value.countryCode }
    }
    /// The ISO 4217 currency of every amount (case-insensitive; ``currency`` is canonical).
    public var currencyCode: String {
        get { storage.value.currencyCode }
        set {
            storage.value.currencyCode = newValue
            storage.value.currency = try? CurrencyCode(newValue)
        }
    }
    /// The card networks the merchant accepts; at least one.
    public var supportedNetworks: [PaymentNetwork] {
        get { storage.value.supportedNetworks }
        _modify { yield &storage.value.supportedNetworks }
    }
    /// What the processor supports; must include 3-D Secure or EMV.
    public var merchantCapabilities: MerchantCapabilities {
        get { storage.value.merchantCapabilities }
        _modify { yield &storage.value.merchantCapabilities }
    }
    /// The billing contact fields the merchant needs.
    public var requiredBillingContactFields: Set<ContactField> {
        get { storage.value.requiredBillingContactFields }
        _modify { yield &storage.value.requiredBillingContactFields }
    }
    /// The shipping contact fields the merchant needs.
    public var requiredShippingContactFields: Set<ContactField> {
        get { storage.value.requiredShippingContactFields }
        _modify { yield &storage.value.requiredShippingContactFields }
    }
    /// How the goods reach the customer.
    public var shippingType: ShippingType {
        get { storage.value.shippingType }
        _modify { yield &storage.value.shippingType }
    }
    /// The shipping methods offered at first; the first is selected.
    public var shippingMethods: [ShippingMethod] {
        get { storage.value.shippingMethods }
        _modify { yield &storage.value.shippingMethods }
    }
    /// The lines of the summary; the last is the grand total.
    public var summaryItems: [SummaryItem] {
        get { storage.value.summaryItems }
        _modify { yield &storage.value.summaryItems }
    }
    /// A coupon code applied from the start (its setting fires no event).
    public var couponCode: String? {
        get { storage.value.couponCode }
        _modify { yield &storage.value.couponCode }
    }
    /// Whether the customer may enter a coupon code.
    public var supportsCouponCode: Bool {
        get { storage.value.supportsCouponCode }
        _modify { yield &storage.value.supportsCouponCode }
    }
    /// Whether the customer may edit the shipping contact; nil leaves it to Apple Pay.
    public var shippingContactEditingMode: ShippingContactEditingMode? {
        get { storage.value.shippingContactEditingMode }
        _modify { yield &storage.value.shippingContactEditingMode }
    }
    /// Whether Apple Pay Later may be offered; nil leaves it to Apple Pay.
    public var applePayLaterAvailability: ApplePayLaterAvailability? {
        get { storage.value.applePayLaterAvailability }
        _modify { yield &storage.value.applePayLaterAvailability }
    }
    /// The merchant's category code (ISO 18245), if given.
    public var merchantCategoryCode: MerchantCategoryCode? {
        get { storage.value.merchantCategoryCode }
        _modify { yield &storage.value.merchantCategoryCode }
    }
    /// A recurring payment (a subscription) to set up; at most one of this, an automatic-reload
    /// and a deferred payment request.
    public var recurringPaymentRequest: RecurringPaymentRequest? {
        get { storage.value.terms.recurringPaymentRequest }
        set { storage.value.terms.recurringPaymentRequest = newValue }
    }
    /// Automatic reloads of a balance to set up.
    public var automaticReloadPaymentRequest: AutomaticReloadPaymentRequest? {
        get { storage.value.terms.automaticReloadPaymentRequest }
        set { storage.value.terms.automaticReloadPaymentRequest = newValue }
    }
    /// A payment taken at a later date.
    public var deferredPaymentRequest: DeferredPaymentRequest? {
        get { storage.value.terms.deferredPaymentRequest }
        set { storage.value.terms.deferredPaymentRequest = newValue }
    }
    /// One payment token per merchant of a multi-merchant payment; empty for a single merchant.
    /// Their amounts add up to at most the grand total.
    public var multiTokenContexts: [PaymentTokenContext] {
        get { storage.value.terms.multiTokenContexts ?? [] }
        set { storage.value.terms.multiTokenContexts = newValue.isEmpty ? nil : newValue }
    }
    /// The four members above, as one value.
    package var terms: PaymentTerms { storage.value.terms }

    /// The fields, shared by every copy of the request until one is changed (``CopyOnWrite``):
    /// each flow keeps its request for its whole life.
    @usableFromInline
    struct Fields: Hashable, Sendable {
        var merchantIdentifier: String
        var countryCode: String
        var currencyCode: String
        var supportedNetworks: [PaymentNetwork]
        var merchantCapabilities: MerchantCapabilities
        var requiredBillingContactFields: Set<ContactField>
        var requiredShippingContactFields: Set<ContactField>
        var shippingType: ShippingType
        var shippingMethods: [ShippingMethod]
        var summaryItems: [SummaryItem]
        var couponCode: String?
        var supportsCouponCode: Bool
        var shippingContactEditingMode: ShippingContactEditingMode?
        var applePayLaterAvailability: ApplePayLaterAvailability?
        var merchantCategoryCode: MerchantCategoryCode?
        var terms: PaymentTerms
        /// ``currency``, looked up once for the code and shared by every copy of the request
        /// (each flow validates every update against it).
        @usableFromInline var currency: CurrencyCode?
    }

    @usableFromInline var storage: CopyOnWrite<Fields>

    /// A request. Only the merchant identifier, the country, the currency and the summary
    /// items have no default (the members of today's Apple Pay are absent unless given); nothing is validated here (see ``problems`` and ``validate()``).
    public init(
        merchantIdentifier: String,
        countryCode: String,
        currencyCode: String,
        supportedNetworks: [PaymentNetwork] = [.visa, .masterCard, .amex],
        merchantCapabilities: MerchantCapabilities = .threeDSecure,
        requiredBillingContactFields: Set<ContactField> = [],
        requiredShippingContactFields: Set<ContactField> = [],
        shippingType: ShippingType = .shipping,
        shippingMethods: [ShippingMethod] = [],
        summaryItems: [SummaryItem],
        couponCode: String? = nil,
        supportsCouponCode: Bool = false,
        shippingContactEditingMode: ShippingContactEditingMode? = nil,
        applePayLaterAvailability: ApplePayLaterAvailability? = nil,
        merchantCategoryCode: MerchantCategoryCode? = nil,
        recurringPaymentRequest: RecurringPaymentRequest? = nil,
        automaticReloadPaymentRequest: AutomaticReloadPaymentRequest? = nil,
        deferredPaymentRequest: DeferredPaymentRequest? = nil,
        multiTokenContexts: [PaymentTokenContext] = []
    ) {
        storage = CopyOnWrite(
            Fields(
                merchantIdentifier: merchantIdentifier,
                countryCode: countryCode,
                currencyCode: currencyCode,
                supportedNetworks: supportedNetworks,
                merchantCapabilities: merchantCapabilities,
                requiredBillingContactFields: requiredBillingContactFields,
                requiredShippingContactFields: requiredShippingContactFields,
                shippingType: shippingType,
                shippingMethods: shippingMethods,
                summaryItems: summaryItems,
                couponCode: couponCode,
                supportsCouponCode: supportsCouponCode,
                shippingContactEditingMode: shippingContactEditingMode,
                applePayLaterAvailability: applePayLaterAvailability,
                merchantCategoryCode: merchantCategoryCode,
                terms: PaymentTerms(
                    recurringPaymentRequest: recurringPaymentRequest,
                    automaticReloadPaymentRequest: automaticReloadPaymentRequest,
                    deferredPaymentRequest: deferredPaymentRequest,
                    multiTokenContexts: multiTokenContexts.isEmpty ? nil : multiTokenContexts),
                currency: try? CurrencyCode(currencyCode)
            ))
    }

    /// The currency, or nil when ``currencyCode`` is not an active ISO 4217 code.
    public var currency: CurrencyCode? { storage.value.currency }

    /// The country, or nil when ``countryCode`` is not an ISO 3166-1 alpha-2 code.
    public var country: CountryCode? { try? CountryCode(countryCode) }

    /// The grand total: the last summary item's amount.
    public var grandTotal: Money? { summaryItems.last?.amount }

    /// Every reason this request cannot be presented (spec A1), in field order, each naming its
    /// field path and offending value; empty when it is valid.
    public var problems: [CheckoutError] {
        isValid ? [] : everyProblem
    }

    /// ``problems`` built in full, without asking ``isValid`` first: the rule as it is written,
    /// which tests hold the fast answer to.
    package var everyProblem: [CheckoutError] {
        var problems: [CheckoutError] = []
        if merchantIdentifier.isBlank {
            problems.append(
                CheckoutError(
                    code: .missingField,
                    message: "merchantIdentifier must not be empty",
                    field: "merchantIdentifier",
                    value: merchantIdentifier.clippedForError
                )
            )
        }
        do {
            _ = try CountryCode(countryCode)
        } catch let error as CheckoutError {
            problems.append(error.renamed(to: "countryCode"))
        } catch {
            preconditionFailure("CountryCode throws CheckoutError only")
        }
        var currency: CurrencyCode?
        do {
            currency = try CurrencyCode(currencyCode)
        } catch let error as CheckoutError {
            problems.append(error.renamed(to: "currencyCode"))
        } catch {
            preconditionFailure("CurrencyCode throws CheckoutError only")
        }
        if supportedNetworks.isEmpty {
            problems.append(
                CheckoutError(
                    code: .emptyList, message: "supportedNetworks is empty", field: "supportedNetworks", value: "[]")
            )
        }
        if merchantCapabilities.isDisjoint(with: [.threeDSecure, .emv]) {
            problems.append(
                CheckoutError(
                    code: .invalidField,
                    message: "merchantCapabilities must include threeDSecure or emv",
                    field: "merchantCapabilities",
                    value: "\(merchantCapabilities.rawValue)"
                )
            )
        }
        problems += Self.everyAmountProblem(
            summaryItems: summaryItems, shippingMethods: shippingMethods, currency: currency)
        if let merchantCategoryCode, !merchantCategoryCode.isWellFormed {
            problems.append(
                CheckoutError(
                    code: .invalidField,
                    message:
                        "merchantCategoryCode \(merchantCategoryCode.rawValue.quotedForMessage) is not four digits "
                        + "(ISO 18245)",
                    field: "merchantCategoryCode", value: merchantCategoryCode.rawValue.clippedForError))
        }
        problems += terms.problems(effective: terms, grandTotal: grandTotal, currency: currency)
        return problems
    }

    /// Whether ``problems`` is empty: the request can be presented (spec A1). Decided without
    /// building a path, a message or an error, as every flow asks it of its request.
    public var isValid: Bool {
        // Each field read in place through the box, not the whole set of fields copied out.
        !storage.value.merchantIdentifier.isBlank
            && CountryCode.assignedSpelling(of: storage.value.countryCode) != nil
            && storage.value.currency != nil
            && !storage.value.supportedNetworks.isEmpty
            && !storage.value.merchantCapabilities.isDisjoint(with: [.threeDSecure, .emv])
            && Self.amountsFit(
                summaryItems: storage.value.summaryItems,
                shippingMethods: storage.value.shippingMethods,
                currency: storage.value.currency
            )
            && storage.value.merchantCategoryCode?.isWellFormed != false
            && (storage.value.terms.isEmpty
                || storage.value.terms.problems(
                    effective: storage.value.terms, grandTotal: grandTotal, currency: storage.value.currency
                ).isEmpty)
    }

    /// Throws when the request cannot be presented (spec A1).
    ///
    /// - Throws: ``CheckoutError`` with ``CheckoutError/Code/invalidRequest`` whose
    ///   ``CheckoutError/problems`` lists every problem.
    public func validate() throws {
        let problems = problems
        guard problems.isEmpty else {
            throw CheckoutError.combining(problems, code: .invalidRequest, what: "the payment request")
        }
    }

    /// Every reason `update` does not fit this request (spec E7): its summary items must be
    /// non-empty, in the request's currency, with a grand total of zero or more; its shipping
    /// methods (when it carries a list) must have unique identifiers, amounts of zero or more, in
    /// the request's currency; its recurring, automatic-reload and deferred requests and its
    /// multi-token contexts are checked as the request's are, with the request's own terms where
    /// the update sets none. Empty when the update is valid.
    public func problems(in update: some PaymentRequestUpdate) -> [CheckoutError] {
        problems(in: update, current: terms)
    }

    /// ``problems(in:)`` with `current` as the terms the update replaces (a flow's sheet holds
    /// the terms its earlier updates set).
    package func problems(in update: some PaymentRequestUpdate, current: PaymentTerms) -> [CheckoutError] {
        let updateTerms = PaymentTerms(update)
        return Self.amountProblems(
            summaryItems: update.summaryItems,
            shippingMethods: update.shippingMethods ?? [],
            currency: storage.value.currency
        )
            + updateTerms.problems(
                effective: updateTerms.replacing(current), grandTotal: update.summaryItems.last?.amount,
                currency: storage.value.currency)
    }

    /// Whether terms an update sets fit, with `current` as the terms it replaces, decided at
    /// once when neither sets any (nearly every update).
    package func termsFit(_ updateTerms: PaymentTerms, summaryItems: [SummaryItem], current: PaymentTerms) -> Bool {
        if updateTerms.isEmpty && current.isEmpty { return true }
        return updateTerms.problems(
            effective: updateTerms.replacing(current), grandTotal: summaryItems.last?.amount,
            currency: storage.value.currency
        ).isEmpty
    }

    /// Whether ``problems(in:)`` finds nothing in an update with these lists, decided without
    /// building a path or a message: what a flow asks of every answer, before it asks why not.
    /// The currency is read in place, looked up once per request (a copy of it cost a retain and
    /// a release). (The update's lists are passed, not the update: a generic function of another
    /// module is called unspecialized, through the protocol's witnesses.)
    ///
    /// Inlinable: a flow asks it of every answer, and called across the module it cost a call and
    /// a copy of the currency.
    @inlinable
    package func fits(summaryItems: [SummaryItem], shippingMethods: [ShippingMethod]?) -> Bool {
        Self.amountsFit(summaryItems: summaryItems, shippingMethods: shippingMethods, currency: storage.value.currency)
    }

    /// Throws when `update` does not fit this request (spec E7).
    ///
    /// - Throws: ``CheckoutError`` with ``CheckoutError/Code/invalidUpdate`` whose
    ///   ``CheckoutError/problems`` lists every problem.
    public func validate(_ update: some PaymentRequestUpdate) throws {
        let problems = problems(in: update)
        guard problems.isEmpty else {
            throw CheckoutError.combining(problems, code: .invalidUpdate, what: "the update")
        }
    }

    /// Whether ``amountProblems(summaryItems:shippingMethods:currency:)`` finds nothing: a grand
    /// total of zero or more, every amount in `currency` (when given), acceptable shipping methods.
    @inlinable @inline(__always)
    static func amountsFit(
        summaryItems: [SummaryItem], shippingMethods: [ShippingMethod]?, currency: CurrencyCode?
    ) -> Bool {
        guard let total = summaryItems.last?.amount, !total.isNegative else { return false }
        if let currency {
            for item in summaryItems where item.amount.currency != currency { return false }
        }
        guard let shippingMethods else { return true }
        return ShippingMethod.areAcceptable(shippingMethods, currency: currency)
    }

    /// The checks that a request and an update share: summary items and shipping methods.
    private static func amountProblems(
        summaryItems: [SummaryItem],
        shippingMethods: [ShippingMethod],
        currency: CurrencyCode?
    ) -> [CheckoutError] {
        // The common case, a valid list, is answered without building a path or a message.
        amountsFit(summaryItems: summaryItems, shippingMethods: shippingMethods, currency: currency)
            ? [] : everyAmountProblem(summaryItems: summaryItems, shippingMethods: shippingMethods, currency: currency)
    }

    /// ``amountProblems(summaryItems:shippingMethods:currency:)``'s list built in full, without
    /// asking ``amountsFit(summaryItems:shippingMethods:currency:)`` first: the rule as it is
    /// written, which tests hold the fast answer to.
    package static func everyAmountProblem(
        summaryItems: [SummaryItem],
        shippingMethods: [ShippingMethod],
        currency: CurrencyCode?
    ) -> [CheckoutError] {
        var problems: [CheckoutError] = []
        func checkCurrency(_ amount: Money, _ path: String) {
            if let problem = amount.currencyProblem(expected: currency, path: path) { problems.append(problem) }
        }
        if summaryItems.isEmpty {
            problems.append(
                CheckoutError(
                    code: .emptyList,
                    message: "summaryItems is empty; the last item is the grand total",
                    field: "summaryItems",
                    value: "[]"
                )
            )
        }
        for (index, item) in summaryItems.enumerated() {
            checkCurrency(item.amount, "summaryItems[\(index)].amount")
        }
        if let total = summaryItems.last?.amount, total.isNegative {
            problems.append(
                CheckoutError(
                    code: .negativeAmount,
                    message: "the grand total (the last summary item) must not be negative",
                    field: "summaryItems[\(summaryItems.count - 1)].amount",
                    value: total.description
                )
            )
        }
        problems += ShippingMethod.everyProblem(in: shippingMethods, currency: currency)
        return problems
    }
}

extension CheckoutError {
    /// The same error reported for another field (a currency problem found while checking the
    /// request's `currencyCode`).
    package func renamed(to field: String) -> CheckoutError {
        var copy = self
        copy.field = field
        return copy
    }
}

extension PaymentRequest: Codable {
    private enum CodingKeys: String, CodingKey {
        case merchantIdentifier
        case countryCode
        case currencyCode
        case supportedNetworks
        case merchantCapabilities
        case requiredBillingContactFields
        case requiredShippingContactFields
        case shippingType
        case shippingMethods
        case summaryItems
        case couponCode
        case supportsCouponCode
        case shippingContactEditingMode
        case applePayLaterAvailability
        case merchantCategoryCode
        case recurringPaymentRequest
        case automaticReloadPaymentRequest
        case deferredPaymentRequest
        case multiTokenContexts
    }

    /// Decodes the JSON shape described above: absent keys are the initializer's defaults
    /// (`supportedNetworks` Visa, Mastercard and Amex; `merchantCapabilities` 3-D Secure; other
    /// lists and sets empty; `shippingType` `shipping`; `supportsCouponCode` `false`). The request
    /// is not validated (see ``problems``). An unknown key is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "PaymentRequest")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            merchantIdentifier: try container.decode(String.self, forKey: .merchantIdentifier),
            countryCode: try container.decode(String.self, forKey: .countryCode),
            currencyCode: try container.decode(String.self, forKey: .currencyCode),
            supportedNetworks: try container.decodeIfPresent([PaymentNetwork].self, forKey: .supportedNetworks)
                ?? [.visa, .masterCard, .amex],
            merchantCapabilities: try container.decodeIfPresent(
                MerchantCapabilities.self,
                forKey: .merchantCapabilities
            ) ?? .threeDSecure,
            requiredBillingContactFields: try container.decodeIfPresent(
                Set<ContactField>.self,
                forKey: .requiredBillingContactFields
            ) ?? [],
            requiredShippingContactFields: try container.decodeIfPresent(
                Set<ContactField>.self,
                forKey: .requiredShippingContactFields
            ) ?? [],
            shippingType: try container.decodeIfPresent(ShippingType.self, forKey: .shippingType) ?? .shipping,
            shippingMethods: try container.decodeIfPresent([ShippingMethod].self, forKey: .shippingMethods) ?? [],
            summaryItems: try container.decodeIfPresent([SummaryItem].self, forKey: .summaryItems) ?? [],
            couponCode: try container.decodeIfPresent(String.self, forKey: .couponCode),
            supportsCouponCode: try container.decodeIfPresent(Bool.self, forKey: .supportsCouponCode) ?? false,
            shippingContactEditingMode: try container.decodeIfPresent(
                ShippingContactEditingMode.self, forKey: .shippingContactEditingMode),
            applePayLaterAvailability: try container.decodeIfPresent(
                ApplePayLaterAvailability.self, forKey: .applePayLaterAvailability),
            merchantCategoryCode: try container.decodeIfPresent(
                MerchantCategoryCode.self, forKey: .merchantCategoryCode),
            recurringPaymentRequest: try container.decodeIfPresent(
                RecurringPaymentRequest.self, forKey: .recurringPaymentRequest),
            automaticReloadPaymentRequest: try container.decodeIfPresent(
                AutomaticReloadPaymentRequest.self, forKey: .automaticReloadPaymentRequest),
            deferredPaymentRequest: try container.decodeIfPresent(
                DeferredPaymentRequest.self, forKey: .deferredPaymentRequest),
            multiTokenContexts: try container.decodeIfPresent([PaymentTokenContext].self, forKey: .multiTokenContexts)
                ?? []
        )
    }

    /// Encodes every field, sets as sorted arrays; an absent coupon code, absent members of
    /// today's Apple Pay and empty multi-token contexts are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(merchantIdentifier, forKey: .merchantIdentifier)
        try container.encode(countryCode, forKey: .countryCode)
        try container.encode(currencyCode, forKey: .currencyCode)
        try container.encode(supportedNetworks, forKey: .supportedNetworks)
        try container.encode(merchantCapabilities, forKey: .merchantCapabilities)
        try container.encode(requiredBillingContactFields.sorted(), forKey: .requiredBillingContactFields)
        try container.encode(requiredShippingContactFields.sorted(), forKey: .requiredShippingContactFields)
        try container.encode(shippingType, forKey: .shippingType)
        try container.encode(shippingMethods, forKey: .shippingMethods)
        try container.encode(summaryItems, forKey: .summaryItems)
        try container.encodeIfPresent(couponCode, forKey: .couponCode)
        try container.encode(supportsCouponCode, forKey: .supportsCouponCode)
        try container.encodeIfPresent(shippingContactEditingMode, forKey: .shippingContactEditingMode)
        try container.encodeIfPresent(applePayLaterAvailability, forKey: .applePayLaterAvailability)
        try container.encodeIfPresent(merchantCategoryCode, forKey: .merchantCategoryCode)
        try container.encodeIfPresent(recurringPaymentRequest, forKey: .recurringPaymentRequest)
        try container.encodeIfPresent(automaticReloadPaymentRequest, forKey: .automaticReloadPaymentRequest)
        try container.encodeIfPresent(deferredPaymentRequest, forKey: .deferredPaymentRequest)
        if !multiTokenContexts.isEmpty { try container.encode(multiTokenContexts, forKey: .multiTokenContexts) }
    }
}

extension Money {
    /// The problem of an amount at `path` that is not in the `expected` currency, if any.
    package func currencyProblem(expected: CurrencyCode?, path: String) -> CheckoutError? {
        guard let expected, currency != expected else { return nil }
        return CheckoutError(
            code: .currencyMismatch,
            message: "\(path) is in \(currency), the request in \(expected)",
            field: path,
            value: description
        )
    }
}

extension ShippingMethod {
    /// Every reason a list of shipping methods is not acceptable (spec A1, E7): identifiers used
    /// twice, negative amounts, amounts not in `currency` (when given). Paths are
    /// `shippingMethods[i].identifier` and `shippingMethods[i].amount`.
    public static func problems(in shippingMethods: [ShippingMethod], currency: CurrencyCode?) -> [CheckoutError] {
        areAcceptable(shippingMethods, currency: currency) ? [] : everyProblem(in: shippingMethods, currency: currency)
    }

    /// ``problems(in:currency:)``'s list built in full, without asking
    /// ``areAcceptable(_:currency:)`` first: the rule as it is written, which tests hold the fast
    /// answer to.
    package static func everyProblem(in shippingMethods: [ShippingMethod], currency: CurrencyCode?) -> [CheckoutError] {
        var problems: [CheckoutError] = []
        func checkCurrency(_ amount: Money, _ path: String) {
            if let problem = amount.currencyProblem(expected: currency, path: path) { problems.append(problem) }
        }
        var seen: Set<String> = []
        for (index, method) in shippingMethods.enumerated() {
            let path = "shippingMethods[\(index)]"
            if !seen.insert(method.identifier).inserted {
                problems.append(
                    CheckoutError(
                        code: .duplicateIdentifier,
                        message: "shipping method identifier \(method.identifier.quotedForMessage) is used twice",
                        field: path + ".identifier",
                        value: method.identifier.clippedForError
                    )
                )
            }
            checkCurrency(method.amount, path + ".amount")
            if method.amount.isNegative {
                problems.append(
                    CheckoutError(
                        code: .negativeAmount,
                        message: "shipping method \(method.identifier.quotedForMessage) has a negative amount",
                        field: path + ".amount",
                        value: method.amount.description
                    )
                )
            }
        }
        return problems
    }

    /// Whether ``problems(in:currency:)`` finds nothing, decided without building a message:
    /// unique identifiers, and amounts of zero or more in `currency` (when given).
    @usableFromInline
    static func areAcceptable(_ shippingMethods: [ShippingMethod], currency: CurrencyCode?) -> Bool {
        for method in shippingMethods {
            if method.amount.isNegative { return false }
            if let currency, method.amount.currency != currency { return false }
        }
        if shippingMethods.count <= 16 {
            // A handful of methods: comparing pairs is cheaper than hashing.
            for (index, method) in shippingMethods.enumerated() {
                for earlier in shippingMethods[..<index] where earlier.identifier == method.identifier {
                    return false
                }
            }
            return true
        }
        var seen: Set<String> = []
        return shippingMethods.allSatisfy { seen.insert($0.identifier).inserted }
    }
}

extension PaymentRequest: CustomReflectable {
    /// The fields, as a struct's own (they are kept in a shared box, which a default mirror would
    /// show instead).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "merchantIdentifier": merchantIdentifier, "countryCode": countryCode, "currencyCode": currencyCode,
                "supportedNetworks": supportedNetworks, "merchantCapabilities": merchantCapabilities,
                "requiredBillingContactFields": requiredBillingContactFields,
                "requiredShippingContactFields": requiredShippingContactFields, "shippingType": shippingType,
                "shippingMethods": shippingMethods, "summaryItems": summaryItems, "couponCode": couponCode as Any,
                "supportsCouponCode": supportsCouponCode,
                "shippingContactEditingMode": shippingContactEditingMode as Any,
                "applePayLaterAvailability": applePayLaterAvailability as Any,
                "merchantCategoryCode": merchantCategoryCode as Any,
                "recurringPaymentRequest": recurringPaymentRequest as Any,
                "automaticReloadPaymentRequest": automaticReloadPaymentRequest as Any,
                "deferredPaymentRequest": deferredPaymentRequest as Any, "multiTokenContexts": multiTokenContexts,
            ],
            displayStyle: .struct
        )
    }
}
