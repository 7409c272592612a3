/// Checks the `object` field of Stripe's JSON, which names the object's kind.
enum StripeObjectName {
    /// Throws a data-corrupted error when `key` is present and not one of `expected`.
    static func check<Key: CodingKey>(
        _ container: KeyedDecodingContainer<Key>,
        _ key: Key,
        expected: [String]
    ) throws {
        guard let name = try container.decodeIfPresent(String.self, forKey: key) else { return }
        guard expected.contains(name) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "expected object \(expected.joined(separator: " or ")), found \(name)")
        }
    }
}
