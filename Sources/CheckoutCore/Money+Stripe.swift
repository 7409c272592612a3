extension CurrencyCode {
    /// Stripe's zero-decimal currencies: amounts are sent in major units.
    private static let stripeZeroDecimal: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV",
        "XAF", "XOF", "XPF",
    ]
    /// Stripe's three-decimal currencies: amounts are sent in thousandths and must end in 0.
    private static let stripeThreeDecimal: Set<String> = ["BHD", "JOD", "KWD", "OMR", "TND"]

    /// How many decimal digits Stripe's integer `amount` carries for this currency.
    ///
    /// This follows Stripe's table where it differs from ISO 4217: 0 for Stripe's zero-decimal
    /// list (which includes MGA, two digits in ISO), 3 for BHD, JOD, KWD, OMR and TND, and 2 for
    /// every other currency, including ISK (zero digits in ISO) and HUF.
    public var stripeDecimalDigits: Int {
        if Self.stripeZeroDecimal.contains(code) { return 0 }
        if Self.stripeThreeDecimal.contains(code) { return 3 }
        return 2
    }
}

extension Money {
    /// The largest `amount` Stripe accepts: eight digits, twelve for IDR.
    private var stripeMaximum: Int64 { currency.code == "IDR" ? 999_999_999_999 : 99_999_999 }

    /// The integer `amount` Stripe's API expects for this money (1250 for 12.50 USD, 500 for
    /// 500 JPY, 50000 for 500 ISK, 12 for 12.00 MGA).
    ///
    /// - Throws: ``CheckoutError/Code/unsupportedStripeAmount`` where Stripe would reject the
    ///   amount: negative; a fraction Stripe's digits cannot carry (12.50 MGA); a three-decimal
    ///   amount not ending in 0 (1.255 KWD); more than eight digits (twelve for IDR).
    public func stripeAmount() throws -> Int64 {
        func reject(_ why: String) -> CheckoutError {
            CheckoutError(
                code: .unsupportedStripeAmount,
                message: "Stripe does not accept \(self): \(why)",
                field: "amount",
                value: amountString
            )
        }
        guard minorUnits >= 0 else { throw reject("the amount is negative") }
        let stripeDigits = currency.stripeDecimalDigits
        let shift = stripeDigits - currency.minorUnitDigits
        let amount: Int64
        if shift >= 0 {
            let (scaled, overflow) = minorUnits.multipliedReportingOverflow(by: Self.powerOfTen(shift))
            guard !overflow else { throw reject("the amount has more than eight digits") }
            amount = scaled
        } else {
            let divisor = Self.powerOfTen(-shift)
            guard minorUnits % divisor == 0 else {
                throw reject("Stripe sends \(currency.code) with \(stripeDigits) decimal digits")
            }
            amount = minorUnits / divisor
        }
        if stripeDigits == 3, amount % 10 != 0 {
            throw reject("three-decimal amounts must end in 0")
        }
        guard amount <= stripeMaximum else {
            throw reject("Stripe's amount is limited to \(String(stripeMaximum).count) digits")
        }
        return amount
    }

    /// The money a Stripe integer `amount` stands for in `currency`.
    ///
    /// - Throws: ``CheckoutError/Code/unsupportedStripeAmount`` when the amount is negative or
    ///   cannot be expressed in ISO minor units (an ISK amount not divisible by 100).
    public init(stripeAmount: Int64, currency: CurrencyCode) throws {
        func reject(_ why: String) -> CheckoutError {
            CheckoutError(
                code: .unsupportedStripeAmount,
                message: "Stripe amount \(stripeAmount) \(currency.code) \(why)",
                field: "amount",
                value: String(stripeAmount)
            )
        }
        guard stripeAmount >= 0 else { throw reject("is negative") }
        let shift = currency.minorUnitDigits - currency.stripeDecimalDigits
        if shift >= 0 {
            let (scaled, overflow) = stripeAmount.multipliedReportingOverflow(by: Self.powerOfTen(shift))
            guard !overflow else { throw reject("is out of range") }
            self.init(minorUnits: scaled, currency: currency)
        } else {
            let divisor = Self.powerOfTen(-shift)
            guard stripeAmount % divisor == 0 else {
                throw reject("is finer than the minor unit of \(currency.code)")
            }
            self.init(minorUnits: stripeAmount / divisor, currency: currency)
        }
    }

    private static func powerOfTen(_ exponent: Int) -> Int64 {
        (0..<exponent).reduce(1) { result, _ in result * 10 }
    }
}
