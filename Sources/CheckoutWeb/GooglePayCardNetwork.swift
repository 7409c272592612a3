import CheckoutCore

/// Google Pay's card network names (`CardParameters.allowedCardNetworks` and `CardInfo.cardNetwork`
/// in the reference "Request objects" and "Response objects": `AMEX`, `DISCOVER`, `ELECTRON`, `ELO`,
/// `ELO_DEBIT`, `INTERAC`, `JCB`, `MAESTRO`, `MASTERCARD`, `VISA`) and the core's
/// ``/CheckoutCore/PaymentNetwork``.
///
/// Both ways: `AMEX` ↔ `amex`, `DISCOVER` ↔ `discover`, `INTERAC` ↔ `interac`, `JCB` ↔ `jcb`,
/// `MAESTRO` ↔ `maestro`, `MASTERCARD` ↔ `masterCard`, `VISA` ↔ `visa`. A name without a core
/// constant (`ELECTRON`, `ELO`, ...) is kept as the core network of that very name, so it comes
/// back unchanged; a core network without a Google name goes out upper-cased.
public enum GooglePayCardNetwork {
    private static let pairs: [(String, PaymentNetwork)] = [
        ("AMEX", .amex), ("DISCOVER", .discover), ("INTERAC", .interac), ("JCB", .jcb), ("MAESTRO", .maestro),
        ("MASTERCARD", .masterCard), ("VISA", .visa),
    ]

    /// The core network for Google's `name`.
    public static func core(_ name: String) -> PaymentNetwork {
        pairs.first { $0.0 == name }?.1 ?? PaymentNetwork(rawValue: name)
    }

    /// Google's name for the core `network`.
    public static func google(_ network: PaymentNetwork) -> String {
        pairs.first { $0.1 == network }?.0 ?? network.rawValue.uppercased()
    }
}
