/// The names of packed transcript records (``PackedRecords``), numbered once for the process: a
/// packed record keeps its name's number, not its text. The flows record names from a small set
/// (their actions, callbacks and outcomes); past ``limit`` names, a record keeps its name's text.
enum RecordNames {
    /// How many names are numbered at most.
    static let limit = 4_096

    private struct Table {
        var numbers: [String: UInt32] = [:]
        var names: [String] = []
    }

    private static let table = LockedValue(Table())

    /// The number of `name`: the one it has, or a new one while there is room; nil when there is
    /// none.
    static func number(of name: String) -> UInt32? {
        table.withLock { table in
            if let number = table.numbers[name] { return number }
            guard table.names.count < limit else { return nil }
            let number = UInt32(table.names.count)
            table.names.append(name)
            table.numbers[name] = number
            return number
        }
    }

    /// The names numbered so far, by number.
    static var names: [String] { table.withLock { $0.names } }
}
