import CheckoutCore

extension PaymentDetailsUpdate {
    /// Checks the update as the W3C text's "validate and canonicalize the details" does when the
    /// page calls `updateWith(…)` (and as the constructor checks the members it shares, the
    /// `PaymentDetailsBase`), then with the package's stricter rules (see the CheckoutWeb article
    /// "Browser validation").
    ///
    /// The browser's rules: every amount's `value` a valid decimal monetary value
    /// (`-?[0-9]+(\.[0-9]+)?`) and `currency` three ASCII letters; the total and every modifier's
    /// total not negative; shipping option identifiers unique; each modifier's `supportedMethods`
    /// a valid payment method identifier (a URL or a standard name) and its `data`, when
    /// present, an object or an array (WebKit `PaymentRequest.https.html`, WPT
    /// `payment-request-constructor.https.html`).
    ///
    /// The package's stricter rules: one ISO 4217 currency, the total's, for every amount (the
    /// modifiers' too), each representable in its minor units.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member's path (`total.amount.value`,
    ///   `modifiers[0].supportedMethods`, `shippingOptions[1].id`, ...) and its value.
    public func validate() throws {
        var amounts: [(String, PaymentCurrencyAmount)] = []
        if let total {
            amounts.append(("total.amount", total.amount))
        }
        for (index, item) in (displayItems ?? []).enumerated() {
            amounts.append(("displayItems[\(index)].amount", item.amount))
        }
        var seen: Set<String> = []
        for (index, option) in (shippingOptions ?? []).enumerated() {
            amounts.append(("shippingOptions[\(index)].amount", option.amount))
            guard seen.insert(option.id).inserted else {
                throw CheckoutError(
                    code: .duplicateIdentifier,
                    message: "shippingOptions[\(index)].id \(option.id.debugDescription) is used twice",
                    field: "shippingOptions[\(index)].id", value: option.id)
            }
        }
        for (index, modifier) in (modifiers ?? []).enumerated() {
            let path = "modifiers[\(index)]"
            try PaymentMethodIdentifier.check(modifier.supportedMethods, path: path + ".supportedMethods")
            switch modifier.data {
            case nil, .object?, .array?: break
            case let data?: throw unmappable(path + ".data", data.jsonText, "is not an object or an array")
            }
            if let total = modifier.total {
                amounts.append((path + ".total.amount", total.amount))
            }
            for (itemIndex, item) in (modifier.additionalDisplayItems ?? []).enumerated() {
                amounts.append(("\(path).additionalDisplayItems[\(itemIndex)].amount", item.amount))
            }
        }
        for (path, amount) in amounts {
            try amount.checkWellFormed(path: path)
        }
        for (path, amount) in amounts where path.hasSuffix("total.amount") && amount.value.hasPrefix("-") {
            throw CheckoutError(
                code: .negativeAmount, message: "\(path).value \(amount.value) must not be negative",
                field: path + ".value", value: amount.value)
        }
        // The package's own rules: ISO 4217 with minor units, one currency.
        let currency = total?.amount.currency ?? amounts.first?.1.currency
        for (path, amount) in amounts {
            _ = try inside(path) { try amount.core() }
            if let currency, amount.currency.uppercased() != currency.uppercased() {
                throw CheckoutError(
                    code: .currencyMismatch,
                    message: "\(path).currency \(amount.currency) is not the order's currency \(currency)",
                    field: path + ".currency", value: amount.currency)
            }
        }
    }
}

extension PaymentCurrencyAmount {
    /// Refuses what the browser refuses: a `currency` that is not three ASCII letters (a
    /// `RangeError`), a `value` that is not a valid decimal monetary value (a `TypeError`).
    func checkWellFormed(path: String) throws {
        let letters = currency.unicodeScalars
        guard letters.count == 3, letters.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) }) else {
            throw CheckoutError(
                code: .unknownCurrency, message: "\(path).currency \(currency.debugDescription) is not well formed",
                field: path + ".currency", value: currency)
        }
        var digits = Substring(value).unicodeScalars[...]
        if digits.first == "-" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let valid =
            !parts.isEmpty && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
        guard valid else {
            throw CheckoutError(
                code: .malformedAmount,
                message: "\(path).value \(value.debugDescription) is not a valid decimal monetary value",
                field: path + ".value", value: value)
        }
    }
}
