import CheckoutCore

/// The four members of today's Apple Pay that set a payment's terms, as a request
/// (`recurringPaymentRequest`, ...) or an update (`newRecurringPaymentRequest`, ...) carries them,
/// and their conversion to and from the core's.
struct ApplePayPaymentTermsMembers {
    var recurringPaymentRequest: ApplePayRecurringPaymentRequest?
    var automaticReloadPaymentRequest: ApplePayAutomaticReloadPaymentRequest?
    var deferredPaymentRequest: ApplePayDeferredPaymentRequest?
    var multiTokenContexts: [ApplePayPaymentTokenContext]?

    init(
        recurringPaymentRequest: ApplePayRecurringPaymentRequest?,
        automaticReloadPaymentRequest: ApplePayAutomaticReloadPaymentRequest?,
        deferredPaymentRequest: ApplePayDeferredPaymentRequest?,
        multiTokenContexts: [ApplePayPaymentTokenContext]?
    ) {
        self.recurringPaymentRequest = recurringPaymentRequest
        self.automaticReloadPaymentRequest = automaticReloadPaymentRequest
        self.deferredPaymentRequest = deferredPaymentRequest
        self.multiTokenContexts = multiTokenContexts
    }

    /// The core's terms in Apple's members.
    init(_ terms: PaymentTerms) {
        self.init(
            recurringPaymentRequest: terms.recurringPaymentRequest.map(ApplePayRecurringPaymentRequest.init),
            automaticReloadPaymentRequest: terms.automaticReloadPaymentRequest.map(
                ApplePayAutomaticReloadPaymentRequest.init),
            deferredPaymentRequest: terms.deferredPaymentRequest.map(ApplePayDeferredPaymentRequest.init),
            multiTokenContexts: terms.multiTokenContexts?.map(ApplePayPaymentTokenContext.init))
    }

    /// The core's terms, amounts read in `currency`; errors name the member as the wire does, an
    /// update's with `new` (`newRecurringPaymentRequest.regularBilling.amount`).
    func core(currency: CurrencyCode, update: Bool) throws -> PaymentTerms {
        func name(_ member: String) -> String {
            update ? "new" + member.prefix(1).uppercased() + member.dropFirst() : member
        }
        return PaymentTerms(
            recurringPaymentRequest: try recurringPaymentRequest.map { request in
                try inside(name("recurringPaymentRequest")) { try request.core(currency: currency) }
            },
            automaticReloadPaymentRequest: try automaticReloadPaymentRequest.map { request in
                try inside(name("automaticReloadPaymentRequest")) { try request.core(currency: currency) }
            },
            deferredPaymentRequest: try deferredPaymentRequest.map { request in
                try inside(name("deferredPaymentRequest")) { try request.core(currency: currency) }
            },
            multiTokenContexts: try multiTokenContexts?.core(currency: currency, path: name("multiTokenContexts")))
    }
}

extension ApplePayPaymentTermsMembers {
    /// Checks the amounts of the terms' line items and token contexts in WebKit's amount grammar
    /// (``ApplePayAmountRules``), with their wire paths.
    func checkAmounts(update: Bool) throws {
        let prefix = update ? "new" : ""
        func name(_ member: String) -> String {
            update ? prefix + member.prefix(1).uppercased() + member.dropFirst() : member
        }
        var items: [(String, ApplePayLineItem)] = []
        if let request = recurringPaymentRequest {
            items.append((name("recurringPaymentRequest") + ".regularBilling", request.regularBilling))
            if let trial = request.trialBilling {
                items.append((name("recurringPaymentRequest") + ".trialBilling", trial))
            }
        }
        if let request = deferredPaymentRequest {
            items.append((name("deferredPaymentRequest") + ".deferredBilling", request.deferredBilling))
        }
        if let request = automaticReloadPaymentRequest {
            let item = request.automaticReloadBilling
            items.append((name("automaticReloadPaymentRequest") + ".automaticReloadBilling", item))
            if let threshold = item.automaticReloadPaymentThresholdAmount {
                try ApplePayAmountRules.check(
                    threshold,
                    path: name("automaticReloadPaymentRequest")
                        + ".automaticReloadBilling.automaticReloadPaymentThresholdAmount")
            }
        }
        for (path, item) in items where !(item.type == .pending && item.amount.isEmpty) {
            try ApplePayAmountRules.check(item.amount, path: path + ".amount")
        }
        for (index, context) in (multiTokenContexts ?? []).enumerated() {
            try ApplePayAmountRules.check(context.amount, path: "\(name("multiTokenContexts"))[\(index)].amount")
        }
    }
}

extension CheckoutError {
    /// A problem the core found in today's Apple Pay terms, with its field named as the wire
    /// names it: an item's `intervalCount` is `recurringPaymentIntervalCount`, its `endDate`
    /// `recurringPaymentEndDate`, a `thresholdAmount` `automaticReloadPaymentThresholdAmount`, and
    /// an update's members start with `new`.
    func wireNamed(update: Bool) -> CheckoutError {
        guard var field else { return self }
        let renames = [
            (".intervalCount", ".recurringPaymentIntervalCount"), (".endDate", ".recurringPaymentEndDate"),
            (".startDate", ".recurringPaymentStartDate"),
            (".thresholdAmount", ".automaticReloadPaymentThresholdAmount"),
        ]
        for (core, wire) in renames where field.hasSuffix(core) {
            field = String(field.dropLast(core.count)) + wire
        }
        if update { field = "new" + field.prefix(1).uppercased() + field.dropFirst() }
        var copy = self
        copy.field = field
        return copy
    }
}
