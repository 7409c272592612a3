import CheckoutCore
import Foundation

/// WebKit's checks of Apple Pay amounts (`ApplePaySession.cpp`, `PaymentRequestValidator.mm`).
///
/// - An amount matches `-?[0-9]+(\.[0-9]{1,2})?` ("is not a valid amount"): no white space, no
///   leading dot, at most two decimals.
/// - A total needs an amount even when pending; it is not negative, not over 100,000,000 ("Total
///   amount is too big"), and before version 4 greater than zero.
/// - A line item of type `pending` may have no amount ("It is OK for pending types to not have an
///   amount"); any other line item needs a valid one.
/// - A shipping method's amount is not negative.
enum ApplePayAmountRules {
    /// The largest total WebKit accepts.
    static let totalCeiling = Decimal(100_000_000)

    /// Whether `amount` is in WebKit's amount grammar.
    static func isWellFormed(_ amount: String) -> Bool {
        var scalars = Substring(amount).unicodeScalars[...]
        if scalars.first == "-" { scalars = scalars.dropFirst() }
        let whole = scalars.prefix { ("0"..."9").contains($0) }
        guard !whole.isEmpty else { return false }
        let rest = scalars.dropFirst(whole.count)
        guard let dot = rest.first else { return true }
        let decimals = rest.dropFirst()
        return dot == "." && (1...2).contains(decimals.count) && decimals.allSatisfy { ("0"..."9").contains($0) }
    }

    /// The amount's value, or an error naming `path` when it is not in the grammar.
    static func value(_ amount: String, path: String) throws -> Decimal {
        guard isWellFormed(amount), let value = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX"))
        else {
            throw CheckoutError(
                code: .malformedAmount, message: "\(path) \(amount.debugDescription) is not a valid amount",
                field: path, value: amount)
        }
        return value
    }

    /// Checks a total (`total`, `newTotal`) for `version`.
    static func checkTotal(_ item: ApplePayLineItem, version: Int, path: String) throws {
        let amountPath = path + ".amount"
        let value = try value(item.amount, path: amountPath)
        if value < 0 || (value == 0 && version < ApplePayVersion.zeroTotal) {
            let rule = version < ApplePayVersion.zeroTotal ? "greater than zero" : "zero or more"
            throw CheckoutError(
                code: .negativeAmount,
                message: "\(amountPath) \(item.amount) must be \(rule) in ApplePaySession version \(version)",
                field: amountPath, value: item.amount)
        }
        if value > totalCeiling {
            throw CheckoutError(
                code: .amountOutOfRange, message: "\(amountPath) \(item.amount) is over Apple Pay's 100000000",
                field: amountPath, value: item.amount)
        }
    }

    /// Checks line items (`lineItems`, `newLineItems`): a pending item may have no amount.
    static func checkLineItems(_ items: [ApplePayLineItem]?, path: String) throws {
        for (index, item) in (items ?? []).enumerated() where !(item.type == .pending && item.amount.isEmpty) {
            _ = try value(item.amount, path: "\(path)[\(index)].amount")
        }
    }

    /// Checks shipping methods: amounts, not negative, unique identifiers (the package's own rule,
    /// as the flows match a selection by identifier), date ranges from version 12.
    static func checkShippingMethods(_ methods: [ApplePayShippingMethod]?, version: Int, path: String) throws {
        var seen: Set<String> = []
        for (index, method) in (methods ?? []).enumerated() {
            let itemPath = "\(path)[\(index)]"
            if try value(method.amount, path: itemPath + ".amount") < 0 {
                throw CheckoutError(
                    code: .negativeAmount, message: "\(itemPath).amount \(method.amount) must be zero or more",
                    field: itemPath + ".amount", value: method.amount)
            }
            guard seen.insert(method.identifier).inserted else {
                throw CheckoutError(
                    code: .duplicateIdentifier,
                    message: "\(itemPath).identifier \(method.identifier.debugDescription) is used twice",
                    field: itemPath + ".identifier", value: method.identifier)
            }
            try ApplePayVersion.require(
                ApplePayVersion.couponCodes, for: itemPath + ".dateComponentsRange",
                present: method.dateComponentsRange != nil, in: version)
        }
    }
}
