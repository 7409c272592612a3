import CheckoutCore

extension Decoder {
    /// Refuses an object that has keys but none of `keys`: a payload of another shape, which a
    /// wire type with only optional members would otherwise read as an empty value (spec W2).
    /// Unknown keys beside a known one are tolerated, as browsers add members. A known member is
    /// looked for with `contains`, and only an object without one has its keys listed (`allKeys`,
    /// which the standard library's container hands over as an array of existentials and casts
    /// back one by one). Inlined, so that the loop is made for each wire type's keys rather than
    /// run generic.
    @inline(__always)
    func refuseForeignPayload<Key: CodingKey & CaseIterable>(_ keys: Key.Type, of typeName: String) throws {
        let known = try container(keyedBy: Key.self)
        for key in Key.allCases where known.contains(key) { return }
        try refuseWithoutKnownMember(keys, of: typeName)
    }

    /// Refuses an object that has keys but none of `keys`, by listing its keys.
    private func refuseWithoutKnownMember<Key: CodingKey>(_ keys: Key.Type, of typeName: String) throws {
        let container = try container(keyedBy: JSONKey.self)
        let all = container.allKeys
        guard !all.isEmpty, !all.contains(where: { Key(stringValue: $0.stringValue) != nil }) else { return }
        let found = all.map(\.stringValue).sorted().prefix(8).joined(separator: ", ")
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: codingPath,
                debugDescription: "no member of \(typeName) is present (found \(found)): "
                    + "this is not a \(typeName) and is not read as an empty one"
            )
        )
    }
}

/// Parses a wire amount string in `currency`, naming `path` in the error.
///
/// - Throws: ``/CheckoutCore/CheckoutError`` as `Money.init(_:currency:)` does, with ``/CheckoutCore/CheckoutError/field``
///   set to `path` (such as `newLineItems[1].amount`).
func wireMoney(_ amount: String, currency: CurrencyCode, path: String) throws -> Money {
    do {
        return try Money(amount, currency: currency)
    } catch var error as CheckoutError {
        error.field = path
        throw error
    }
}

/// An error for a member the core model needs and the wire value lacks.
func missingMember(_ path: String, _ why: String) -> CheckoutError {
    CheckoutError(code: .missingField, message: "\(path) is absent: \(why)", field: path)
}

/// An error for a member whose value has no counterpart on the other side.
func unmappable(_ path: String, _ value: String, _ why: String) -> CheckoutError {
    CheckoutError(code: .invalidField, message: "\(path) \(value.debugDescription) \(why)", field: path, value: value)
}

extension CheckoutError {
    /// This error with its field path placed under `prefix`.
    func under(_ prefix: String) -> CheckoutError { nested(under: prefix) }
}

/// Runs `body`, placing a ``/CheckoutCore/CheckoutError`` it throws under `prefix`.
func inside<T>(_ prefix: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as CheckoutError {
        throw error.nested(under: prefix)
    }
}

/// Adds `message` to a W3C error member: several messages for one member are joined by a line
/// feed.
func append(_ message: String, to slot: inout String?) {
    slot = slot.map { $0 + "\n" + message } ?? message
}

extension Optional where Wrapped == String {
    /// nil for an absent or empty string: the browser's way of saying "no value".
    var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
