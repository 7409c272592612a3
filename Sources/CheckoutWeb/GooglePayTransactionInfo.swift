import CheckoutCore

/// Google Pay's `totalPriceStatus` (reference "Request objects", `TransactionInfo`).
public enum GooglePayTotalPriceStatus: String, Codable, Hashable, Sendable, CaseIterable {
    /// The total is not known yet (a capability check); `totalPrice` may be absent.
    case notCurrentlyKnown = "NOT_CURRENTLY_KNOWN"
    /// The total may still change (core ``/CheckoutCore/SummaryItemType/pending`` total).
    case estimated = "ESTIMATED"
    /// The total will not change (core ``/CheckoutCore/SummaryItemType/final`` total).
    case final = "FINAL"
}

/// Google Pay's `checkoutOption` (reference "Request objects", `TransactionInfo`): the submit
/// button's text.
public enum GooglePayCheckoutOption: String, Codable, Hashable, Sendable, CaseIterable {
    /// "Continue".
    case `default` = "DEFAULT"
    /// "Pay now": the customer completes the purchase in the sheet.
    case completeImmediatePurchase = "COMPLETE_IMMEDIATE_PURCHASE"
}

/// Google Pay's `TransactionInfo` (reference "Request objects"): the currency, the total as a
/// decimal string and the lines above it.
///
/// From the core (``init(_:currency:countryCode:)``): the last summary item is the total
/// (`totalPrice`, `totalPriceLabel`, `FINAL` or, pending, `ESTIMATED`), the others
/// `displayItems` of type `LINE_ITEM` (the core does not say which line is tax or discount).
/// To the core (``core()``): every display item and then the total as summary items; the item
/// types have no core counterpart (``membersWithoutCoreCounterpart`` names them).
///
/// Google's rules (``check()``), applied before anything is sent: `currencyCode` a known ISO 4217
/// code; `totalPrice` present unless the status is `NOT_CURRENTLY_KNOWN`, and of the pattern of
/// ``GooglePayPriceRules``; `totalPriceLabel` present when there are `displayItems`; each item's
/// price of the item pattern.
public struct GooglePayTransactionInfo: Codable, Hashable, Sendable {
    /// The ISO 4217 currency code.
    public var currencyCode: String
    /// The ISO 3166-1 alpha-2 country where the transaction is processed.
    public var countryCode: String?
    /// The merchant's id of this transaction attempt.
    public var transactionId: String?
    /// Whether the total is final.
    public var totalPriceStatus: GooglePayTotalPriceStatus
    /// The total, a decimal string such as `"25.98"`.
    public var totalPrice: String?
    /// The total's label among the display items.
    public var totalPriceLabel: String?
    /// The lines above the total.
    public var displayItems: [GooglePayDisplayItem]?
    /// The submit button's text.
    public var checkoutOption: GooglePayCheckoutOption?
    /// A note about the transaction.
    public var transactionNote: String?

    /// Transaction info; the currency and status are needed.
    public init(
        currencyCode: String, countryCode: String? = nil, transactionId: String? = nil,
        totalPriceStatus: GooglePayTotalPriceStatus, totalPrice: String? = nil, totalPriceLabel: String? = nil,
        displayItems: [GooglePayDisplayItem]? = nil, checkoutOption: GooglePayCheckoutOption? = nil,
        transactionNote: String? = nil
    ) {
        self.currencyCode = currencyCode
        self.countryCode = countryCode
        self.transactionId = transactionId
        self.totalPriceStatus = totalPriceStatus
        self.totalPrice = totalPrice
        self.totalPriceLabel = totalPriceLabel
        self.displayItems = displayItems
        self.checkoutOption = checkoutOption
        self.transactionNote = transactionNote
    }

    /// The core summary items in Google's members (see the type's discussion).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `summaryItems` when there are none, or the
    ///   price's path (`totalPrice`, `displayItems[1].price`) when it has no Google form.
    public init(_ items: [SummaryItem], currency: CurrencyCode, countryCode: String? = nil) throws {
        guard let total = items.last else {
            throw missingMember("summaryItems", "Google Pay's TransactionInfo needs a total (the last summary item)")
        }
        let lines = try items.dropLast().enumerated().map { index, item in
            GooglePayDisplayItem(
                label: item.label, type: .lineItem,
                price: try GooglePayPriceRules.price(item.amount, total: false, path: "displayItems[\(index)].price"),
                status: item.type == .pending ? .pending : .final)
        }
        self.init(
            currencyCode: currency.code, countryCode: countryCode,
            totalPriceStatus: total.type == .pending ? .estimated : .final,
            totalPrice: try GooglePayPriceRules.price(total.amount, total: true, path: "totalPrice"),
            totalPriceLabel: total.label, displayItems: lines.isEmpty ? nil : lines)
    }

    /// The summary items in the core's terms: the display items, then the total labelled
    /// `totalPriceLabel` (`"Total"` when absent), pending when its status is not `FINAL`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `currencyCode`, `totalPrice` (absent, or
    ///   not a price) or `displayItems[i].price`.
    public func core() throws -> [SummaryItem] {
        let currency = try googleCurrency()
        guard let totalPrice else {
            throw missingMember(
                "totalPrice", "a core total needs an amount; the status is \(totalPriceStatus.rawValue)")
        }
        var items = try (displayItems ?? []).enumerated().map { index, item in
            try inside("displayItems[\(index)]") { try item.core(currency: currency) }
        }
        items.append(
            SummaryItem(
                label: totalPriceLabel ?? "Total",
                amount: try GooglePayPriceRules.money(totalPrice, currency: currency, total: true, path: "totalPrice"),
                type: totalPriceStatus == .final ? .final : .pending))
        return items
    }

    /// The display items' `type` paths, which the core summary items have no place for.
    public var membersWithoutCoreCounterpart: [String] {
        (displayItems ?? []).indices.map { "displayItems[\($0)].type" }
    }

    /// Checks Google's rules (see the type's discussion).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member and its value.
    public func check() throws {
        let currency = try googleCurrency()
        if let countryCode { _ = try googleCountry(countryCode, path: "countryCode") }
        if let totalPrice {
            _ = try GooglePayPriceRules.money(totalPrice, currency: currency, total: true, path: "totalPrice")
        } else if totalPriceStatus != .notCurrentlyKnown {
            throw missingMember(
                "totalPrice",
                "Google Pay requires it unless totalPriceStatus is NOT_CURRENTLY_KNOWN "
                    + "(it is \(totalPriceStatus.rawValue))")
        }
        if let displayItems, !displayItems.isEmpty, totalPriceLabel == nil {
            throw missingMember("totalPriceLabel", "Google Pay requires it when there are displayItems")
        }
        for (index, item) in (displayItems ?? []).enumerated() {
            _ = try inside("displayItems[\(index)]") { try item.core(currency: currency) }
        }
    }

    private func googleCurrency() throws -> CurrencyCode {
        do {
            return try CurrencyCode(currencyCode)
        } catch var error as CheckoutError {
            error.field = "currencyCode"
            throw error
        }
    }
}

/// Google Pay's `DisplayItem.type` (reference "Request objects").
public enum GooglePayDisplayItemType: String, Codable, Hashable, Sendable, CaseIterable {
    /// A line of the order.
    case lineItem = "LINE_ITEM"
    /// The subtotal.
    case subtotal = "SUBTOTAL"
    /// A tax.
    case tax = "TAX"
    /// A discount.
    case discount = "DISCOUNT"
    /// The shipping option's cost.
    case shippingOption = "SHIPPING_OPTION"
}

/// Google Pay's `DisplayItem.status` (reference "Request objects"); absent means `FINAL`.
public enum GooglePayDisplayItemStatus: String, Codable, Hashable, Sendable, CaseIterable {
    /// The price is final (core ``/CheckoutCore/SummaryItemType/final``).
    case final = "FINAL"
    /// The price may change (core ``/CheckoutCore/SummaryItemType/pending``).
    case pending = "PENDING"
}

/// Google Pay's `DisplayItem` (reference "Request objects"): a line above the total, its price a
/// decimal string that may be negative.
public struct GooglePayDisplayItem: Codable, Hashable, Sendable {
    /// What the line is for.
    public var label: String
    /// What kind of line it is.
    public var type: GooglePayDisplayItemType
    /// The price, such as `"-5.00"`.
    public var price: String
    /// Final or pending; absent is final.
    public var status: GooglePayDisplayItemStatus?

    /// A display item.
    public init(
        label: String, type: GooglePayDisplayItemType, price: String, status: GooglePayDisplayItemStatus? = nil
    ) {
        self.label = label
        self.type = type
        self.price = price
        self.status = status
    }

    /// The item as a core summary item in `currency` (its `type` has no core counterpart).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `price`.
    public func core(currency: CurrencyCode) throws -> SummaryItem {
        SummaryItem(
            label: label, amount: try GooglePayPriceRules.money(price, currency: currency, total: false, path: "price"),
            type: status == .pending ? .pending : .final)
    }
}
