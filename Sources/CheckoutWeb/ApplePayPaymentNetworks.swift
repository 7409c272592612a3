import CheckoutCore

/// The payment networks Apple Pay on the web accepts in `supportedNetworks`, each with the first
/// `ApplePaySession` version that has it (Apple's "Supporting payment networks" table and the
/// version release notes: `jcb` in 2; `cartesBancaires`, `eftpos`, `electron`, `maestro`, `vPay`
/// in 4; `elo`, `mada` in 5; `mir`, `girocard` in 11; `dankort` in 13; `bancomat`, `bancontact`
/// in 14; `bankAxept` in 15).
///
/// WebKit refuses a name it does not know ("is not a valid payment network", LayoutTests
/// `ApplePaySession.html`); names compare without regard to ASCII case, as WebKit's lookup does.
/// A repeated network is accepted (`['visa', 'visa']`).
public enum ApplePayPaymentNetworks {
    /// Each network's name and the first version that has it.
    public static let firstVersion: [String: Int] = [
        "amex": 1, "chinaUnionPay": 1, "discover": 1, "interac": 1, "masterCard": 1, "privateLabel": 1,
        "visa": 1, "jcb": 2, "cartesBancaires": 4, "eftpos": 4, "electron": 4, "maestro": 4, "vPay": 4,
        "elo": 5, "mada": 5, "mir": 11, "girocard": 11, "dankort": 13, "bancomat": 14, "bancontact": 14,
        "bankAxept": 15,
    ]

    private static let byLowercasedName: [String: Int] = Dictionary(
        uniqueKeysWithValues: firstVersion.map { ($0.key.lowercased(), $0.value) })

    /// Refuses a network Apple Pay does not know, or one that `version` does not have yet.
    static func check(_ network: String, version: Int, path: String) throws {
        guard let since = byLowercasedName[network.lowercased()] else {
            throw CheckoutError(
                code: .invalidField, message: "\(path) \(network.debugDescription) is not a valid payment network",
                field: path, value: network)
        }
        try ApplePayVersion.require(since, for: path, in: version)
    }
}
