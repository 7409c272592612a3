/// An object member's key as the direct readers match it against their names: lengths compared
/// first, so that a key is compared as a `String` only with names of its length.
///
/// This is `String` equality for the readers' names: a key of another length could equal a name
/// only through a character canonically equivalent to one of the name's, and the only characters
/// canonically equivalent to an ASCII one are the Kelvin sign (`K`), the Greek question mark
/// (`;`) and the Greek varia (`` ` ``), which no name contains (checked as each name is made).
struct MemberKey: Equatable, ExpressibleByStringLiteral {
    let text: String

    init(_ text: String) { self.text = text }

    init(stringLiteral name: String) {
        assert(
            name.utf8.allSatisfy {
                $0 < 0x80 && $0 != UInt8(ascii: "K") && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "`")
            })
        text = name
    }

    static func == (key: MemberKey, name: MemberKey) -> Bool {
        key.text.utf8.count == name.text.utf8.count && key.text == name.text
    }
}
