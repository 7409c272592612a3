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
    static func value(_ amount: String, path: @autoclosure () -> String) throws -> Decimal {
        guard isWellFormed(amount), let value = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX"))
        else {
            let path = path()
            throw CheckoutError(
                code: .malformedAmount, message: "\(path) \(amount.debugDescription) is not a valid amount",
                field: path, value: amount)
        }
        return value
    }

    /// How a well-formed amount compares with zero and with ``totalCeiling``.
    enum Size: Equatable {
        case negative, zero, positive, overCeiling
    }

    /// The longest amount ``size(_:)`` reads from its characters; a longer one is read as a
    /// `Decimal` (which has 38 digits: one of 30 is read the same either way).
    static let longestReadAmount = 30

    /// `amount`'s ``Size``, read from its characters (the checks of every merchant answer run here,
    /// and `Decimal(string:locale:)` is many times dearer); nil when it is not in the grammar or
    /// longer than ``longestReadAmount``. `-0` and `-0.00` are zero, as their
    /// `Decimal` is.
    static func size(_ amount: String) -> Size? {
        let bytes = amount.utf8
        guard bytes.count <= longestReadAmount else { return nil }
        var index = bytes.startIndex
        let negative = index != bytes.endIndex && bytes[index] == UInt8(ascii: "-")
        if negative { index = bytes.index(after: index) }
        // The whole part, without its leading zeros, in cents once the decimals are added.
        var cents: UInt64 = 0
        var digits = 0
        var significant = 0
        while index != bytes.endIndex, let digit = bytes[index].asciiDigit {
            digits += 1
            if significant > 0 || digit != 0 { significant += 1 }
            if significant <= 10 { cents = cents * 10 + digit }
            index = bytes.index(after: index)
        }
        guard digits > 0 else { return nil }
        cents *= 100
        if index != bytes.endIndex {
            guard bytes[index] == UInt8(ascii: ".") else { return nil }
            index = bytes.index(after: index)
            var decimals = 0
            while index != bytes.endIndex, let digit = bytes[index].asciiDigit {
                decimals += 1
                if decimals <= 2 { cents += digit * (decimals == 1 ? 10 : 1) }
                index = bytes.index(after: index)
            }
            guard index == bytes.endIndex, (1...2).contains(decimals) else { return nil }
        }
        if cents == 0 { return .zero }
        if negative { return .negative }
        // Over ten significant digits the whole part alone is over the ceiling.
        return significant > 10 || cents > 10_000_000_000 ? .overCeiling : .positive
    }

    /// `amount`'s ``Size``: read from its characters, or else from its `Decimal` value (a long
    /// amount), the error naming `path`, which is made only then.
    static func size(_ amount: String, path: @autoclosure () -> String) throws -> Size {
        if let size = size(amount) { return size }
        let value = try value(amount, path: path())
        return value < 0 ? .negative : value == 0 ? .zero : value > totalCeiling ? .overCeiling : .positive
    }

    /// Checks that `amount` is in the grammar (``value(_:path:)`` without the value), the error
    /// naming `path`, which is made only then.
    static func check(_ amount: String, path: @autoclosure () -> String) throws {
        _ = try size(amount, path: path())
    }

    /// Checks a total (`total`, `newTotal`) for `version`.
    static func checkTotal(_ item: ApplePayLineItem, version: Int, path: String) throws {
        let size = try Self.size(item.amount, path: path + ".amount")
        guard size != .positive else { return }
        let amountPath = path + ".amount"
        if size == .negative || (size == .zero && version < ApplePayVersion.zeroTotal) {
            let rule = version < ApplePayVersion.zeroTotal ? "greater than zero" : "zero or more"
            throw CheckoutError(
                code: .negativeAmount,
                message: "\(amountPath) \(item.amount) must be \(rule) in ApplePaySession version \(version)",
                field: amountPath, value: item.amount)
        }
        if size == .overCeiling {
            throw CheckoutError(
                code: .amountOutOfRange, message: "\(amountPath) \(item.amount) is over Apple Pay's 100000000",
                field: amountPath, value: item.amount)
        }
    }

    /// Checks line items (`lineItems`, `newLineItems`): a pending item may have no amount.
    static func checkLineItems(_ items: [ApplePayLineItem]?, path: String) throws {
        for (index, item) in (items ?? []).enumerated() where !(item.type == .pending && item.amount.isEmpty) {
            try check(item.amount, path: "\(path)[\(index)].amount")
        }
    }

    /// Checks shipping methods: amounts, not negative, unique identifiers (the package's own rule,
    /// as the flows match a selection by identifier), date ranges from version 12.
    static func checkShippingMethods(_ methods: [ApplePayShippingMethod]?, version: Int, path: String) throws {
        var seen: Set<String> = []
        for (index, method) in (methods ?? []).enumerated() {
            // The path is made only for an error.
            func itemPath() -> String { "\(path)[\(index)]" }
            if try size(method.amount, path: itemPath() + ".amount") == .negative {
                throw CheckoutError(
                    code: .negativeAmount, message: "\(itemPath()).amount \(method.amount) must be zero or more",
                    field: itemPath() + ".amount", value: method.amount)
            }
            guard seen.insert(method.identifier).inserted else {
                throw CheckoutError(
                    code: .duplicateIdentifier,
                    message: "\(itemPath()).identifier \(method.identifier.debugDescription) is used twice",
                    field: itemPath() + ".identifier", value: method.identifier)
            }
            if method.dateComponentsRange != nil {
                try ApplePayVersion.require(
                    ApplePayVersion.couponCodes, for: itemPath() + ".dateComponentsRange", in: version)
            }
        }
    }
}

extension UInt8 {
    /// The digit's value when the byte is an ASCII digit.
    fileprivate var asciiDigit: UInt64? {
        self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") ? UInt64(self - UInt8(ascii: "0")) : nil
    }
}
