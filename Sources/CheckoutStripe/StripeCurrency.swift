/// Currencies in Stripe's objects (spec P10): any three ASCII letters Stripe returns are kept as
/// sent, a currency withdrawn from ISO 4217 included (`bgn`, on intents made before Bulgaria's
/// changeover). Charging still takes a ``/CheckoutCore/CurrencyCode`` from the strict ISO table.
enum StripeCurrency {
    /// The currency at `key`: three ASCII letters, kept as sent.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the field and the value for anything else.
    static func decode<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> String {
        let text = try container.decode(String.self, forKey: key)
        guard isThreeLetters(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "currency '\(text.prefix(16))' is not three letters")
        }
        return text
    }

    /// Whether the text is three ASCII letters.
    static func isThreeLetters(_ text: String) -> Bool {
        text.utf8.count == 3
            && text.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }
    }
}
