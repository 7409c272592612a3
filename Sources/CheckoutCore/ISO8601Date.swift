import Foundation

/// Dates as the package's JSON and Apple Pay on the web write them: ISO 8601 strings in UTC, as a
/// page's `Date` serialises (`toISOString()`, `2025-01-08T00:00:00.000Z`). Reading accepts the
/// form with and without fractional seconds, and any offset ISO 8601 allows.
package enum ISO8601Date {
    /// `date` as `2025-01-08T00:00:00.000Z`.
    package static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// The date `text` names, or nil when it is not an ISO 8601 date and time.
    package static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// The date `text` names.
    ///
    /// - Throws: ``CheckoutError`` with ``CheckoutError/Code/invalidField`` naming `path` and the text.
    package static func parse(_ text: String, path: String) throws -> Date {
        guard let date = date(text) else {
            throw CheckoutError(
                code: .invalidField,
                message: "\(path) \(text.quotedForMessage) is not an ISO 8601 date and time",
                field: path, value: text.clippedForError)
        }
        return date
    }
}

extension KeyedDecodingContainer {
    /// An ISO 8601 date at `key` (see ``ISO8601Date``), refused with its path when it is not one.
    package func decodeISO8601Date(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = ISO8601Date.date(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\(text.quotedForMessage) is not an ISO 8601 date and time")
        }
        return date
    }

    /// An ISO 8601 date at `key` when present.
    package func decodeISO8601DateIfPresent(forKey key: Key) throws -> Date? {
        contains(key) && (try? decodeNil(forKey: key)) != true ? try decodeISO8601Date(forKey: key) : nil
    }

    /// An absolute URL at `key`, refused with its path when the string is not one.
    package func decodeAbsoluteURL(forKey key: Key) throws -> URL {
        let text = try decode(String.self, forKey: key)
        guard let url = URL(string: text), url.scheme != nil else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\(text.quotedForMessage) is not an absolute URL")
        }
        return url
    }

    /// An absolute URL at `key` when present.
    package func decodeAbsoluteURLIfPresent(forKey key: Key) throws -> URL? {
        contains(key) && (try? decodeNil(forKey: key)) != true ? try decodeAbsoluteURL(forKey: key) : nil
    }
}

extension KeyedEncodingContainer {
    /// `date` as an ISO 8601 string (see ``ISO8601Date``), left out when nil.
    package mutating func encodeISO8601DateIfPresent(_ date: Date?, forKey key: Key) throws {
        if let date { try encode(ISO8601Date.string(date), forKey: key) }
    }
}
