import Foundation

extension EventJSONDecoder {
    /// Why a direct reader stopped: the value is not one it answers for, and the `Decodable` path
    /// (the tree decoder, then `JSONDecoder`) decides, with its own words and paths for an error.
    /// Thrown typed, so that giving up allocates nothing.
    struct Unread: Error {}
}

/// The scalar readings the wire types' readers share, each what the tree decoder's containers
/// answer for the same node (``EventJSONDecoder/scalar(_:_:_:_:opening:)``), and nothing where
/// they fail or give up.
extension EventJSONDecoder.Node {
    typealias Unread = EventJSONDecoder.Unread

    /// An object's members, in the page's order; no key twice (the parser gives up on one).
    func members() throws(Unread) -> [Member] {
        guard case .object(let members) = self else { throw Unread() }
        return members
    }

    /// Reads an object whose members are all optional, as a wire type's `init(from:)` reads it:
    /// `read` reads each member it knows and answers whether it knew it; unknown members are
    /// passed over beside a known one, and an object with members but none known is refused (the
    /// `Decodable` path decides: spec W2's foreign payload).
    func readOptionalMembers(_ read: (Member) throws(Unread) -> Bool) throws(Unread) {
        let members = try members()
        var known = false
        for member in members where try read(member) { known = true }
        if !known, !members.isEmpty { throw Unread() }
    }

    /// A string, as `decode(String.self, forKey:)` reads it: `null` or any other kind is refused.
    func string() throws(Unread) -> String {
        guard case .string(let text) = self else { throw Unread() }
        return text
    }

    /// A present member as `decodeIfPresent(String.self, forKey:)` reads it: `null` is nil.
    func optionalString() throws(Unread) -> String? {
        switch self {
        case .null: return nil
        case .string(let text): return text
        default: throw Unread()
        }
    }

    /// A present member as `decodeIfPresent([String].self, forKey:)` reads it: `null` is nil, and
    /// every element must be a string.
    func optionalStrings() throws(Unread) -> [String]? {
        switch self {
        case .null: return nil
        case .array(let elements):
            var strings: [String] = []
            strings.reserveCapacity(elements.count)
            for element in elements { strings.append(try element.string()) }
            return strings
        default: throw Unread()
        }
    }

    /// A present member as `decodeIfPresent(Int.self, forKey:)` reads it: `null` is nil, and only
    /// a plain integer that fits (`1.0`, `1e2` and overflow are `JSONDecoder`'s to read).
    func optionalInt() throws(Unread) -> Int? {
        switch self {
        case .null: return nil
        case .number(let text):
            guard let value = Int(text, radix: 10) else { throw Unread() }
            return value
        default: throw Unread()
        }
    }

    /// A present member as `decodeIfPresent(T.self, forKey:)` reads an enum of string raw values:
    /// `null` is nil, an unknown value is refused.
    func optionalRawValue<T: RawRepresentable<String>>(_ type: T.Type) throws(Unread) -> T? {
        switch self {
        case .null: return nil
        case .string(let text):
            guard let value = T(rawValue: text) else { throw Unread() }
            return value
        default: throw Unread()
        }
    }
}
