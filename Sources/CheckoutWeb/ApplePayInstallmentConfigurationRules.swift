import CheckoutCore

/// WebKit's reading of `installmentConfiguration` (`ApplePayInstallmentConfiguration.idl`): a
/// dictionary whose members, when present, have these types; an absent `featureType` is
/// `appleCard`. The members stay a ``JSONValue`` on ``ApplePayPaymentRequest`` (the core has no
/// model for them); this checks what the browser's IDL conversion would throw on.
enum ApplePayInstallmentConfigurationRules {
    private enum Kind {
        case string, amount, currency, bool, array, any
        case oneOf(Set<String>)
    }

    private static let members: [String: Kind] = [
        "featureType": .oneOf(["appleCard", "applePay"]),
        "merchandisingImageData": .string,
        "openToBuyThresholdAmount": .amount,
        "bindingTotalAmount": .amount,
        "currencyCode": .currency,
        "isInStorePurchase": .bool,
        "merchantIdentifier": .string,
        "referrerIdentifier": .string,
        "items": .array,
        "applicationMetadata": .any,
        "retailChannel": .oneOf(["unknown", "app", "web", "inStore"]),
    ]

    /// Refuses a configuration that is not an object or whose known members have the wrong type.
    static func check(_ configuration: JSONValue, path: String) throws {
        guard case .object(let object) = configuration else {
            throw unmappable(path, configuration.jsonText, "is not an ApplePayInstallmentConfiguration object")
        }
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            guard let kind = members[key] else { continue }
            let memberPath = "\(path).\(key)"
            switch (kind, value) {
            case (.any, _), (.bool, .bool), (.array, .array), (.string, .string):
                continue
            case (.amount, .string(let amount)):
                try ApplePayAmountRules.check(amount, path: memberPath)
            case (.currency, .string(let code)):
                do {
                    _ = try CurrencyCode(code)
                } catch var error as CheckoutError {
                    error.field = memberPath
                    throw error
                }
            case (.oneOf(let allowed), .string(let name)) where allowed.contains(name):
                continue
            default:
                throw unmappable(memberPath, value.jsonText, "is not a valid value of this member")
            }
        }
    }
}
