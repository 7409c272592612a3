import CheckoutCore

/// The sheet's four updates packed, for a transcript kept between a relayed session's events
/// (``PackableAnswer``): those without errors or new terms, whose shipping methods give no
/// delivery dates. Every other answer is kept as it is.
///
/// An update is packed as its case (0 to 3); its currency (the first item's; USD without items,
/// when only the methods' amounts name theirs); its summary items (their count, then each one's
/// label, a byte of flags, its amount in minor units); for the two updates that may carry
/// shipping methods, 0 for none or their count plus one, then each one's identifier, label,
/// detail and amount the same way. The flags say whether the amount is pending (bit 0) and
/// whether its currency is another one, written after the flags (bit 1).
extension PaymentAuthorizationAnswer: PackableAnswer {
    private enum Case: UInt64 {
        case shippingContact, shippingMethod, paymentMethod, couponCode
    }

    package func pack(to writer: inout PackedAnswerWriter) -> Bool {
        switch self {
        case .shippingContact(let update):
            guard update.errors.isEmpty, update.terms.isEmpty else { return false }
            return Self.pack(.shippingContact, update.summaryItems, methods: update.shippingMethods, to: &writer)
        case .shippingMethod(let update):
            guard update.terms.isEmpty else { return false }
            return Self.pack(.shippingMethod, update.summaryItems, to: &writer)
        case .paymentMethod(let update):
            guard update.errors.isEmpty, update.terms.isEmpty else { return false }
            return Self.pack(.paymentMethod, update.summaryItems, to: &writer)
        case .couponCode(let update):
            guard update.errors.isEmpty, update.terms.isEmpty else { return false }
            return Self.pack(.couponCode, update.summaryItems, methods: update.shippingMethods, to: &writer)
        default:
            // An authorization, a merchant session or an answer added later (so that a new
            // callback needs no edit here): kept as it is.
            return false
        }
    }

    package static func unpack(from reader: inout PackedAnswerReader, byDefault: Bool) -> Self? {
        guard let raw = reader.unsigned(), let kind = Case(rawValue: raw),
            let currency = reader.text().flatMap({ try? CurrencyCode($0) }),
            let items = summaryItems(from: &reader, currency: currency)
        else { return nil }
        let answer: Self
        switch kind {
        case .shippingContact:
            guard let methods = shippingMethods(from: &reader, currency: currency) else { return nil }
            answer = .shippingContact(ShippingContactUpdate(summaryItems: items, shippingMethods: methods))
        case .shippingMethod:
            answer = .shippingMethod(ShippingMethodUpdate(summaryItems: items))
        case .paymentMethod:
            answer = .paymentMethod(PaymentMethodUpdate(summaryItems: items))
        case .couponCode:
            guard let methods = shippingMethods(from: &reader, currency: currency) else { return nil }
            answer = .couponCode(CouponCodeUpdate(summaryItems: items, shippingMethods: methods))
        }
        return answer.givenByDefault(byDefault)
    }

    /// Packs an update of `kind`; `methods` for the two kinds that may carry them.
    private static func pack(
        _ kind: Case, _ items: [SummaryItem], methods: [ShippingMethod]?? = .none,
        to writer: inout PackedAnswerWriter
    ) -> Bool {
        let currency = items.first?.amount.currency ?? .usd
        writer.unsigned(kind.rawValue)
        writer.text(currency.code)
        writer.unsigned(UInt64(items.count))
        for item in items {
            writer.text(item.label)
            pack(item.amount, pending: item.type == .pending, currency: currency, to: &writer)
        }
        guard case .some(let methods) = methods else { return true }
        guard let methods else {
            writer.unsigned(0)
            return true
        }
        writer.unsigned(UInt64(methods.count) + 1)
        for method in methods {
            guard method.deliveryDateRange == nil else { return false }
            writer.text(method.identifier)
            writer.text(method.label)
            writer.optionalText(method.detail)
            pack(method.amount, pending: false, currency: currency, to: &writer)
        }
        return true
    }

    private static func pack(
        _ amount: Money, pending: Bool, currency: CurrencyCode, to writer: inout PackedAnswerWriter
    ) {
        let otherCurrency = amount.currency != currency
        writer.unsigned((pending ? 1 : 0) | (otherCurrency ? 2 : 0))
        if otherCurrency { writer.text(amount.currency.code) }
        writer.signed(amount.minorUnits)
    }

    private static func readAmount(from reader: inout PackedAnswerReader, currency: CurrencyCode)
        -> (money: Money, pending: Bool)?
    {
        guard let flags = reader.unsigned(), flags < 4 else { return nil }
        var currency = currency
        if flags & 2 != 0 {
            guard let other = reader.text().flatMap({ try? CurrencyCode($0) }) else { return nil }
            currency = other
        }
        guard let minorUnits = reader.signed() else { return nil }
        return (Money(minorUnits: minorUnits, currency: currency), flags & 1 != 0)
    }

    private static func summaryItems(from reader: inout PackedAnswerReader, currency: CurrencyCode) -> [SummaryItem]? {
        guard let count = reader.count() else { return nil }
        var items: [SummaryItem] = []
        items.reserveCapacity(count)
        for _ in 0..<count {
            guard let label = reader.text(), let amount = readAmount(from: &reader, currency: currency) else {
                return nil
            }
            items.append(SummaryItem(label: label, amount: amount.money, type: amount.pending ? .pending : .final))
        }
        return items
    }

    /// The methods (`.some(nil)` for none), or nil when the bytes do not read.
    private static func shippingMethods(from reader: inout PackedAnswerReader, currency: CurrencyCode)
        -> [ShippingMethod]??
    {
        guard let count = reader.count() else { return nil }
        guard count > 0 else { return .some(nil) }
        var methods: [ShippingMethod] = []
        methods.reserveCapacity(count - 1)
        for _ in 1..<count {
            guard let identifier = reader.text(), let label = reader.text(), let detail = reader.optionalText(),
                let amount = readAmount(from: &reader, currency: currency), !amount.pending
            else { return nil }
            methods.append(ShippingMethod(identifier: identifier, label: label, detail: detail, amount: amount.money))
        }
        return methods
    }
}
