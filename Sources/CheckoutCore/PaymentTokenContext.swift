/// The part of a multi-merchant payment one merchant receives a payment token for (PassKit's
/// `PKPaymentTokenContext`, Apple Pay on the web's `ApplePayPaymentTokenContext`).
///
/// The amounts of a request's contexts add up to at most its grand total (Apple's
/// `multiTokenContexts` documentation); ``PaymentRequest/problems`` says so when they do not.
public struct PaymentTokenContext: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The merchant's Apple Pay merchant identifier.
    public var merchantIdentifier: String
    /// The merchant's identifier in the caller's own system.
    public var externalIdentifier: String
    /// The merchant's name, as the sheet shows it.
    public var merchantName: String
    /// The merchant's top-level domain, if any.
    public var merchantDomain: String?
    /// The amount authorized for this merchant, in the request's currency.
    public var amount: Money

    /// A token context, with PassKit's labels.
    public init(
        merchantIdentifier: String, externalIdentifier: String, merchantName: String, merchantDomain: String? = nil,
        amount: Money
    ) {
        self.merchantIdentifier = merchantIdentifier
        self.externalIdentifier = externalIdentifier
        self.merchantName = merchantName
        self.merchantDomain = merchantDomain
        self.amount = amount
    }

    /// `PaymentTokenContext(merchant.com.example.tea, 12.00 USD)`.
    public var description: String { "PaymentTokenContext(\(merchantIdentifier), \(amount))" }

    private enum CodingKeys: String, CodingKey {
        case merchantIdentifier, externalIdentifier, merchantName, merchantDomain, amount
    }

    /// Decodes the members by their names; an unknown key is refused with its path.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, of: "PaymentTokenContext")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            merchantIdentifier: try container.decode(String.self, forKey: .merchantIdentifier),
            externalIdentifier: try container.decode(String.self, forKey: .externalIdentifier),
            merchantName: try container.decode(String.self, forKey: .merchantName),
            merchantDomain: try container.decodeIfPresent(String.self, forKey: .merchantDomain),
            amount: try container.decode(Money.self, forKey: .amount)
        )
    }

    /// Every reason the context is not acceptable, with paths under `path`: a blank merchant
    /// identifier, an amount not in `currency` or negative.
    package func problems(currency: CurrencyCode?, path: String) -> [CheckoutError] {
        var problems: [CheckoutError] = []
        if merchantIdentifier.isBlank {
            problems.append(
                CheckoutError(
                    code: .missingField, message: "\(path).merchantIdentifier must not be empty",
                    field: path + ".merchantIdentifier", value: merchantIdentifier.clippedForError))
        }
        return problems + termAmountProblems(amount, currency: currency, path: path + ".amount")
    }
}
