/// The members of a request, and of every update, that set the payment's terms beyond its summary:
/// a recurring, automatic-reload or deferred payment request and multi-token contexts (PassKit's
/// `PKPaymentRequest` and `PKPaymentRequestUpdate` members of those names).
///
/// Kept in one shared box that is absent when none is set, so that a request or an update without
/// them (nearly all) carries one empty reference, not the four values.
package struct PaymentTerms: Hashable, Sendable {
    @usableFromInline package struct Fields: Hashable, Sendable {
        var recurringPaymentRequest: RecurringPaymentRequest?
        var automaticReloadPaymentRequest: AutomaticReloadPaymentRequest?
        var deferredPaymentRequest: DeferredPaymentRequest?
        var multiTokenContexts: [PaymentTokenContext]?

        /// None of the four is set (compared with nil, not with `Fields()`: an equality of four
        /// optionals of large values cost an update 1,900 instructions, `Scripts/profile.sh
        /// baseline`).
        var isEmpty: Bool {
            recurringPaymentRequest == nil && automaticReloadPaymentRequest == nil && deferredPaymentRequest == nil
                && multiTokenContexts == nil
        }
    }

    @usableFromInline var storage: CopyOnWrite<Fields>?

    /// No terms.
    package init() {}

    /// The terms given.
    package init(
        recurringPaymentRequest: RecurringPaymentRequest? = nil,
        automaticReloadPaymentRequest: AutomaticReloadPaymentRequest? = nil,
        deferredPaymentRequest: DeferredPaymentRequest? = nil,
        multiTokenContexts: [PaymentTokenContext]? = nil
    ) {
        // Nearly every request and update sets none: no box, and nothing built to find that out.
        guard
            recurringPaymentRequest != nil || automaticReloadPaymentRequest != nil || deferredPaymentRequest != nil
                || multiTokenContexts != nil
        else { return }
        set(
            Fields(
                recurringPaymentRequest: recurringPaymentRequest,
                automaticReloadPaymentRequest: automaticReloadPaymentRequest,
                deferredPaymentRequest: deferredPaymentRequest, multiTokenContexts: multiTokenContexts))
    }

    /// Whether none of the four is set (inlined: the sheet asks it of every answer).
    @inlinable package var isEmpty: Bool {
        @inline(__always) get {
            if case .none = storage { return true }
            return false
        }
    }

    private var fields: Fields { storage?.value ?? Fields() }

    private mutating func set(_ fields: Fields) {
        storage = fields.isEmpty ? nil : CopyOnWrite(fields)
    }

    package var recurringPaymentRequest: RecurringPaymentRequest? {
        get { storage?.value.recurringPaymentRequest }
        set {
            var fields = fields
            fields.recurringPaymentRequest = newValue
            set(fields)
        }
    }

    package var automaticReloadPaymentRequest: AutomaticReloadPaymentRequest? {
        get { storage?.value.automaticReloadPaymentRequest }
        set {
            var fields = fields
            fields.automaticReloadPaymentRequest = newValue
            set(fields)
        }
    }

    package var deferredPaymentRequest: DeferredPaymentRequest? {
        get { storage?.value.deferredPaymentRequest }
        set {
            var fields = fields
            fields.deferredPaymentRequest = newValue
            set(fields)
        }
    }

    package var multiTokenContexts: [PaymentTokenContext]? {
        get { storage?.value.multiTokenContexts }
        set {
            var fields = fields
            fields.multiTokenContexts = newValue
            set(fields)
        }
    }

    /// These terms as an update's replacing `current`: each member this one sets replaces the
    /// current one, the others stay.
    package func replacing(_ current: PaymentTerms) -> PaymentTerms {
        guard !isEmpty else { return current }
        guard !current.isEmpty else { return self }
        return PaymentTerms(
            recurringPaymentRequest: recurringPaymentRequest ?? current.recurringPaymentRequest,
            automaticReloadPaymentRequest: automaticReloadPaymentRequest ?? current.automaticReloadPaymentRequest,
            deferredPaymentRequest: deferredPaymentRequest ?? current.deferredPaymentRequest,
            multiTokenContexts: multiTokenContexts ?? current.multiTokenContexts)
    }
}

extension PaymentTerms {
    /// Every reason these terms do not fit, as PassKit's validation (behind WebKit's Apple Pay)
    /// and Apple's documentation have it; each names its field path and value:
    /// - each member's own: amounts in `currency` and not negative, a recurring item's
    ///   `intervalCount` at least 1 and its `endDate` not before its `startDate`, a token
    ///   context's merchant identifier not blank;
    /// - at most one of the recurring, automatic-reload and deferred requests ("A payment request
    ///   can only have one of recurring, automatic reload, or deferred payment request set");
    /// - multi-token contexts together with none of them (Apple's `multiTokenContexts`: "You
    ///   can't use this array with recurringPaymentRequest or automaticReloadPaymentRequest";
    ///   PassKit refuses a deferred request with them too);
    /// - the contexts' amounts adding up to at most `grandTotal` (Apple's
    ///   `ApplePayPaymentTokenContext.amount`: "less than or equal to the grand total").
    ///
    /// `effective` are the terms in force once these apply (for an update: these replacing the
    /// current ones); the rules between members are judged on them, the members' own on these.
    package func problems(effective: PaymentTerms, grandTotal: Money?, currency: CurrencyCode?) -> [CheckoutError] {
        guard !isEmpty || !effective.isEmpty else { return [] }
        var problems: [CheckoutError] = []
        problems += recurringPaymentRequest?.problems(currency: currency, path: "recurringPaymentRequest") ?? []
        problems +=
            automaticReloadPaymentRequest?.problems(currency: currency, path: "automaticReloadPaymentRequest") ?? []
        problems += deferredPaymentRequest?.problems(currency: currency, path: "deferredPaymentRequest") ?? []
        for (index, context) in (multiTokenContexts ?? []).enumerated() {
            problems += context.problems(currency: currency, path: "multiTokenContexts[\(index)]")
        }
        let requests = [
            ("recurringPaymentRequest", effective.recurringPaymentRequest != nil),
            ("automaticReloadPaymentRequest", effective.automaticReloadPaymentRequest != nil),
            ("deferredPaymentRequest", effective.deferredPaymentRequest != nil),
        ].filter(\.1).map(\.0)
        if requests.count > 1 {
            problems.append(
                CheckoutError(
                    code: .conflictingFields,
                    message: "\(requests.joined(separator: " and ")) cannot be used together: a payment request "
                        + "has at most one of recurring, automatic reload and deferred",
                    field: requests[1], value: requests.joined(separator: ", ")))
        }
        let contexts = effective.multiTokenContexts ?? []
        if !contexts.isEmpty, let first = requests.first {
            problems.append(
                CheckoutError(
                    code: .conflictingFields,
                    message: "multiTokenContexts cannot be used together with \(first)",
                    field: "multiTokenContexts", value: first))
        }
        if !contexts.isEmpty, let grandTotal, contexts.allSatisfy({ $0.amount.currency == grandTotal.currency }) {
            let sum = contexts.reduce(Int64(0)) { $0.addingReportingOverflow($1.amount.minorUnits).partialValue }
            let overflows = contexts.contains { $0.amount.minorUnits > 0 } && sum < 0
            if overflows || sum > grandTotal.minorUnits {
                let total = Money(minorUnits: overflows ? .max : sum, currency: grandTotal.currency)
                problems.append(
                    CheckoutError(
                        code: .amountOutOfRange,
                        message: "the multiTokenContexts amounts add up to \(total), more than the grand total "
                            + "\(grandTotal)",
                        field: "multiTokenContexts", value: total.description))
            }
        }
        return problems
    }
}

extension CheckoutError.Code {
    /// Two members that cannot be set together (a recurring and a deferred payment request);
    /// the error's field is the second, its value names them all.
    public static let conflictingFields = CheckoutError.Code(rawValue: "conflictingFields")
}
