import CheckoutCore

/// The W3C Payment Method Identifiers rules, as web-platform-tests'
/// `payment-request/payment-request-ctor-pmi-handling.https.html` exercises them (the browser
/// throws a `RangeError` otherwise):
///
/// - a standardized identifier is lower-case ASCII words joined by single hyphens, each word a
///   letter followed by letters or digits (`basic-card`, `k9-f`; not `Basic-Card`, `a-0`, `a--b`,
///   ` basic-card`);
/// - a URL-based identifier is an `https` URL (leading and trailing C0 controls and spaces are
///   ignored, as the URL parser does) with a host, a port of at most 65535 and no user name or
///   password (`https://:@wpt.fyi` has empty ones and passes).
enum PaymentMethodIdentifier {
    /// Whether `identifier` is a valid payment method identifier.
    static func isValid(_ identifier: String) -> Bool {
        isStandardized(identifier) || isURLBased(identifier)
    }

    /// Refuses an identifier that is not valid, naming `path`.
    static func check(_ identifier: String, path: String) throws {
        guard !isValid(identifier) else { return }
        throw CheckoutError(
            code: .invalidField,
            message: "\(path) \(identifier.debugDescription) is not a valid payment method identifier",
            field: path, value: identifier)
    }

    private static func isStandardized(_ identifier: String) -> Bool {
        let words = identifier.split(separator: "-", omittingEmptySubsequences: false)
        return words.allSatisfy { word in
            guard let first = word.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
            return word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        }
    }

    private static func isURLBased(_ identifier: String) -> Bool {
        let trimmed = identifier.unicodeScalars.drop { $0.value <= 0x20 }.reversed().drop { $0.value <= 0x20 }
        let text = String(String.UnicodeScalarView(trimmed.reversed()))
        guard text.lowercased().hasPrefix("https://") else { return false }
        let rest = text.dropFirst("https://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var hostAndPort = authority[...]
        if let at = authority.lastIndex(of: "@") {
            guard authority[..<at].allSatisfy({ $0 == ":" }), authority[..<at].count <= 1 else { return false }
            hostAndPort = authority[authority.index(after: at)...]
        }
        var host = hostAndPort
        if let colon = hostAndPort.lastIndex(of: ":") {
            let port = hostAndPort[hostAndPort.index(after: colon)...]
            guard port.allSatisfy(\.isASCIIDigit), port.isEmpty || (Int(port) ?? .max) <= 65_535 else { return false }
            host = hostAndPort[..<colon]
        }
        return !host.isEmpty
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
