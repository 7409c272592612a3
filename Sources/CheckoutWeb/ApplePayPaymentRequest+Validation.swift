import CheckoutCore

extension ApplePayPaymentRequest {
    /// Checks the request as WebKit does when the page calls `new ApplePaySession(version,
    /// request)` (`ApplePayRequestBase.cpp`, `ApplePaySession.cpp`, `PaymentRequestValidator.mm`),
    /// for the version it names, then with the package's stricter rules (see the CheckoutWeb
    /// article "Browser validation"): amounts in ISO 4217 minor units and unique shipping
    /// identifiers.
    ///
    /// WebKit's rules: a supported `version`; ISO 3166 `countryCode` and every
    /// `supportedCountries` entry; an ISO 4217 `currencyCode`; at least one merchant capability;
    /// at least one supported network (from version 8 none with an `installmentConfiguration`),
    /// each known to Apple Pay at that version; the total's and items' amounts and the total's
    /// range (Apple Pay's amount rules); the members ``ApplePayVersion`` gates.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path and value.
    public func validate() throws {
        let version = try ApplePayVersion.check(version)
        try checkCountry(countryCode, path: "countryCode")
        do {
            _ = try CurrencyCode(currencyCode)
        } catch var error as CheckoutError {
            error.field = "currencyCode"
            throw error
        }
        if merchantCapabilities.isEmpty {
            throw CheckoutError(
                code: .emptyList, message: "merchantCapabilities is empty: at least one is needed",
                field: "merchantCapabilities")
        }
        let networksOptional = version >= ApplePayVersion.installments && installmentConfiguration != nil
        if supportedNetworks.isEmpty && !networksOptional {
            throw CheckoutError(
                code: .emptyList, message: "supportedNetworks is empty: at least one is needed",
                field: "supportedNetworks")
        }
        for (index, network) in supportedNetworks.enumerated() {
            try ApplePayPaymentNetworks.check(network, version: version, path: "supportedNetworks[\(index)]")
        }
        let contactFields = [
            ("requiredBillingContactFields", requiredBillingContactFields),
            ("requiredShippingContactFields", requiredShippingContactFields),
        ]
        for (name, fields) in contactFields {
            for (index, field) in (fields ?? []).enumerated() where field == .phoneticName {
                try ApplePayVersion.require(ApplePayVersion.errorsAndCountries, for: "\(name)[\(index)]", in: version)
            }
        }
        try ApplePayAmountRules.checkTotal(total, version: version, path: "total")
        try ApplePayAmountRules.checkLineItems(lineItems, path: "lineItems")
        try ApplePayAmountRules.checkShippingMethods(shippingMethods, version: version, path: "shippingMethods")
        try checkVersionGatedMembers(version)
        for (index, country) in (supportedCountries ?? []).enumerated() {
            try checkCountry(country, path: "supportedCountries[\(index)]")
        }
        if let installmentConfiguration {
            try ApplePayInstallmentConfigurationRules.check(installmentConfiguration, path: "installmentConfiguration")
        }
        try checkTodaysMembers()
        // The package's own rules: amounts in the currency's minor units.
        let core = try core(merchantIdentifier: "")
        // Today's Apple Pay terms, as PassKit's validation behind WebKit has them (see
        // ``/CheckoutCore/PaymentRequest/problems``).
        if let problem = core.terms.problems(
            effective: core.terms, grandTotal: core.grandTotal, currency: core.currency
        ).first {
            throw problem.wireNamed(update: false)
        }
    }

    /// WebKit reads `shippingContactEditingMode` and `applePayLaterAvailability` as IDL enums (a
    /// value it does not know is a `TypeError`: `ApplePayShippingContactEditingMode.idl`,
    /// `ApplePayLaterAvailability.idl`); a merchant category code is four digits (Apple's
    /// `merchantCategoryCode`, ISO 18245); the line items of the terms' requests as line items.
    private func checkTodaysMembers() throws {
        if let mode = shippingContactEditingMode, !ShippingContactEditingMode.documented.contains(mode) {
            throw unmappable(
                "shippingContactEditingMode", mode.rawValue, "is not an ApplePayShippingContactEditingMode")
        }
        if let availability = applePayLaterAvailability, !ApplePayLaterAvailability.documented.contains(availability) {
            throw unmappable("applePayLaterAvailability", availability.rawValue, "is not an ApplePayLaterAvailability")
        }
        if let code = merchantCategoryCode, !code.isWellFormed {
            throw unmappable("merchantCategoryCode", code.rawValue, "is not four digits (ISO 18245)")
        }
        try termsMembers.checkAmounts(update: false)
    }

    private func checkVersionGatedMembers(_ version: Int) throws {
        let gated: [(String, Bool, Int)] = [
            ("supportedCountries", supportedCountries != nil, ApplePayVersion.errorsAndCountries),
            ("installmentConfiguration", installmentConfiguration != nil, ApplePayVersion.installments),
            ("supportsCouponCode", supportsCouponCode != nil, ApplePayVersion.couponCodes),
            ("couponCode", couponCode != nil, ApplePayVersion.couponCodes),
            ("recurringPaymentRequest", recurringPaymentRequest != nil, ApplePayVersion.recurring),
            ("automaticReloadPaymentRequest", automaticReloadPaymentRequest != nil, ApplePayVersion.recurring),
            ("multiTokenContexts", multiTokenContexts != nil, ApplePayVersion.recurring),
            ("deferredPaymentRequest", deferredPaymentRequest != nil, ApplePayVersion.recurring),
            ("disbursementRequest", disbursementRequest != nil, ApplePayVersion.recurring),
            ("applePayLaterAvailability", applePayLaterAvailability != nil, ApplePayVersion.recurring),
            ("merchantCategoryCode", merchantCategoryCode != nil, ApplePayVersion.recurring),
        ]
        for (path, present, since) in gated {
            try ApplePayVersion.require(since, for: path, present: present, in: version)
        }
    }

    private func checkCountry(_ code: String, path: String) throws {
        do {
            _ = try CountryCode(code)
        } catch var error as CheckoutError {
            error.field = path
            throw error
        }
    }
}
