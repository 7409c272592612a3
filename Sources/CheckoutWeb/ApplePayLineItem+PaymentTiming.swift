import CheckoutCore
import Foundation

/// The line items of recurring, deferred and automatic-reload payment requests
/// (`regularBilling`, `trialBilling`, `deferredBilling`, `automaticReloadBilling`) and their core
/// counterparts (``/CheckoutCore/RecurringPaymentSummaryItem``,
/// ``/CheckoutCore/DeferredPaymentSummaryItem``, ``/CheckoutCore/AutomaticReloadPaymentSummaryItem``).
///
/// As WebKit reads them (`PaymentSummaryItemsCocoa.mm`): a recurring item's unit defaults to month
/// and its count to 1, dates are optional; a deferred item's date and an automatic-reload item's
/// threshold (absent: zero) are read from their members. Dates are the ISO 8601 strings a page's
/// `Date` serialises to. An item whose `paymentTiming` names another timing, or that carries
/// another timing's members, cannot be carried and is refused with the member's path (spec W2);
/// `paymentTiming` may be absent (it is written on the way back).
extension ApplePayLineItem {
    /// The members of each timing.
    private var recurringMembers: [(String, Bool)] {
        [
            ("recurringPaymentStartDate", recurringPaymentStartDate != nil),
            ("recurringPaymentIntervalUnit", recurringPaymentIntervalUnit != nil),
            ("recurringPaymentIntervalCount", recurringPaymentIntervalCount != nil),
            ("recurringPaymentEndDate", recurringPaymentEndDate != nil),
        ]
    }

    /// Refuses a timing other than `timing`, and the members of the other timings.
    private func requireTiming(_ timing: ApplePayPaymentTiming) throws {
        if let paymentTiming, paymentTiming != timing {
            throw unmappable(
                "paymentTiming", paymentTiming.rawValue, "is not \(timing.rawValue): this item must be paid so")
        }
        var foreign: [(String, Bool)] = []
        if timing != .recurring { foreign += recurringMembers }
        if timing != .deferred { foreign.append(("deferredPaymentDate", deferredPaymentDate != nil)) }
        if timing != .automaticReload {
            foreign.append(("automaticReloadPaymentThresholdAmount", automaticReloadPaymentThresholdAmount != nil))
        }
        if let (member, _) = foreign.first(where: \.1) {
            throw CheckoutError(
                code: .invalidField,
                message:
                    "\(member) cannot be carried on a \(timing.rawValue) item: it belongs to another payment timing",
                field: member)
        }
    }

    private func coreAmount(_ currency: CurrencyCode) throws -> Money {
        type == .pending && amount.isEmpty ? .zero(currency) : try wireMoney(amount, currency: currency, path: "amount")
    }

    private var coreType: SummaryItemType { type == .pending ? .pending : .final }

    /// The core recurring item, amounts read in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member (`amount`,
    ///   `recurringPaymentStartDate`, `paymentTiming`, ...).
    public func recurringCore(currency: CurrencyCode) throws -> RecurringPaymentSummaryItem {
        try requireTiming(.recurring)
        return RecurringPaymentSummaryItem(
            label: label, amount: try coreAmount(currency), type: coreType,
            startDate: try recurringPaymentStartDate.map {
                try ISO8601Date.parse($0, path: "recurringPaymentStartDate")
            },
            intervalUnit: RecurringPaymentIntervalUnit(rawValue: (recurringPaymentIntervalUnit ?? .month).rawValue)
                ?? .month,
            intervalCount: recurringPaymentIntervalCount ?? 1,
            endDate: try recurringPaymentEndDate.map { try ISO8601Date.parse($0, path: "recurringPaymentEndDate") })
    }

    /// The core deferred item, amounts read in `currency`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member; `deferredPaymentDate` when absent
    ///   (the core item has a date).
    public func deferredCore(currency: CurrencyCode) throws -> DeferredPaymentSummaryItem {
        try requireTiming(.deferred)
        guard let deferredPaymentDate else {
            throw missingMember("deferredPaymentDate", "a deferred item is paid on a date")
        }
        return DeferredPaymentSummaryItem(
            label: label, amount: try coreAmount(currency), type: coreType,
            deferredDate: try ISO8601Date.parse(deferredPaymentDate, path: "deferredPaymentDate"))
    }

    /// The core automatic-reload item, amounts read in `currency`; an absent threshold is zero, as
    /// WebKit reads it.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member.
    public func automaticReloadCore(currency: CurrencyCode) throws -> AutomaticReloadPaymentSummaryItem {
        try requireTiming(.automaticReload)
        return AutomaticReloadPaymentSummaryItem(
            label: label, amount: try coreAmount(currency), type: coreType,
            thresholdAmount: try automaticReloadPaymentThresholdAmount.map {
                try wireMoney($0, currency: currency, path: "automaticReloadPaymentThresholdAmount")
            } ?? .zero(currency))
    }

    /// The core recurring item as Apple's line item, `paymentTiming` `recurring`.
    public init(_ core: RecurringPaymentSummaryItem) {
        self.init(
            type: core.type == .pending ? .pending : .final, label: core.label, amount: core.amount.amountString,
            paymentTiming: .recurring, recurringPaymentStartDate: core.startDate.map(ISO8601Date.string),
            recurringPaymentIntervalUnit: ApplePayRecurringPaymentDateUnit(rawValue: core.intervalUnit.rawValue),
            recurringPaymentIntervalCount: core.intervalCount,
            recurringPaymentEndDate: core.endDate.map(ISO8601Date.string))
    }

    /// The core deferred item as Apple's line item, `paymentTiming` `deferred`.
    public init(_ core: DeferredPaymentSummaryItem) {
        self.init(
            type: core.type == .pending ? .pending : .final, label: core.label, amount: core.amount.amountString,
            paymentTiming: .deferred, deferredPaymentDate: ISO8601Date.string(core.deferredDate))
    }

    /// The core automatic-reload item as Apple's line item, `paymentTiming` `automaticReload`.
    public init(_ core: AutomaticReloadPaymentSummaryItem) {
        self.init(
            type: core.type == .pending ? .pending : .final, label: core.label, amount: core.amount.amountString,
            paymentTiming: .automaticReload,
            automaticReloadPaymentThresholdAmount: core.thresholdAmount.amountString)
    }
}
