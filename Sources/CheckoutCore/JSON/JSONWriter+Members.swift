extension JSONWriter {
    /// Writes an object's member key, `"key":`, with the comma before it unless it is the
    /// object's first (the last byte written is then its `{`). The caller writes the keys in the
    /// order the text wants (for `JSONEncoder`'s bytes, ``precedesAsEncoderKey(_:_:)``'s) and
    /// then the member's value; `key` is written as it is, so it must need no escape.
    package mutating func key(_ key: StaticString) {
        if count > 0, bytes[count - 1] != UInt8(ascii: "{") { byte(UInt8(ascii: ",")) }
        byte(UInt8(ascii: "\""))
        raw(key)
        raw("\":")
    }

    /// Writes the comma before an array's element unless it is the array's first (the last byte
    /// written is then its `[`); the caller writes the element after it.
    package mutating func element() {
        if count > 0, bytes[count - 1] != UInt8(ascii: "[") { byte(UInt8(ascii: ",")) }
    }

    /// Writes `"key":"text"` (``key(_:)``, then `text` as a JSON string).
    package mutating func member(_ key: StaticString, _ text: String) {
        self.key(key)
        string(text)
    }

    /// Writes `"key":"text"` when `text` is there, nothing when it is nil (as `JSONEncoder` leaves
    /// out an absent optional member).
    package mutating func member(_ key: StaticString, ifPresent text: String?) {
        if let text { member(key, text) }
    }

    /// Writes `"key":number` when `number` is there, nothing when it is nil.
    package mutating func member(_ key: StaticString, ifPresent number: Int?) {
        if let number {
            self.key(key)
            integer(number)
        }
    }
}
