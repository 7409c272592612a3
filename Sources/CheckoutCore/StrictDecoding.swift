/// A coding key of any name, for reading the keys a keyed payload actually has.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// Refuses a keyed payload with a key that `keys` does not name (spec W2: the package's own
    /// JSON shapes lose nothing in silence). The error is a `DecodingError.dataCorrupted` whose
    /// coding path ends with the unknown key, so a scenario file or a wire payload decoded into
    /// the wrong model names the exact place.
    ///
    /// Call it first in a model's `init(from:)`. A payload that is not keyed is left to the
    /// model's own decoding, which refuses it with a type mismatch.
    package func refuseUnknownKeys<Key: CodingKey>(_ keys: Key.Type, of typeName: String) throws {
        guard let container = try? container(keyedBy: AnyCodingKey.self) else { return }
        let unknown = container.allKeys.filter { Key(stringValue: $0.stringValue) == nil }
        guard let first = unknown.min(by: { $0.stringValue < $1.stringValue }) else { return }
        let names = unknown.map(\.stringValue).sorted().prefix(8).map(\.quotedForMessage).joined(separator: ", ")
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: codingPath + [first],
                debugDescription: "unknown key\(unknown.count == 1 ? "" : "s") \(names) in \(typeName)"
            )
        )
    }
}
