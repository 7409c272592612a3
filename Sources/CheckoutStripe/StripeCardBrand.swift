/// Stripe's card brand values, and the brand a card number belongs to.
public enum StripeCardBrand {
    /// The brand Stripe reports for a card number, from its leading digits: `visa`,
    /// `mastercard`, `amex`, `discover`, `diners`, `jcb`, `unionpay`, or `unknown`.
    ///
    /// Co-badged cards (Cartes Bancaires, eftpos Australia) report their international brand
    /// here, as Stripe's `card.brand` does; PassKit's network names are not brands.
    public static func of(_ number: String) -> String {
        let digits = number.filter(\.isNumber)
        func prefix(_ count: Int) -> Int { Int(digits.prefix(count)) ?? -1 }
        switch (prefix(1), prefix(2), prefix(3), prefix(4)) {
        case (4, _, _, _): return "visa"
        case (_, 51...55, _, _), (_, _, _, 2221...2720): return "mastercard"
        case (_, 34, _, _), (_, 37, _, _): return "amex"
        case (_, _, _, 6011), (_, 65, _, _), (_, _, 644...649, _): return "discover"
        case (_, _, 300...305, _), (_, 36, _, _), (_, 38, _, _), (_, 39, _, _): return "diners"
        case (_, _, _, 3528...3589): return "jcb"
        case (_, 62, _, _), (_, 81, _, _): return "unionpay"
        default: return "unknown"
        }
    }

    /// Whether the number passes the Luhn check every card number passes.
    public static func passesLuhnCheck(_ number: String) -> Bool {
        let digits = number.compactMap(\.wholeNumberValue)
        guard digits.count >= 12 else { return false }
        var sum = 0
        for (offset, digit) in digits.reversed().enumerated() {
            let doubled = offset % 2 == 1 ? digit * 2 : digit
            sum += doubled > 9 ? doubled - 9 : doubled
        }
        return sum % 10 == 0
    }
}
